"""The bughunt protocol end to end (issue 31): its prompt (spec and ports, never the RTL), its feedback (no
RTL, no printed output, no DUT values), cocotb's refusal, and real runs of the three baseline rows on one
small embedded task, through the summary, report, compare, verify and the site.

Lean: one combinational task (prio_encoder) and its mutants, one run per baseline row, one verification
(of a tampered copy, which must re-score and catch the change)."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace

import pytest
from click.testing import CliRunner

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.benchmark.store import dataset_hash
from ecov.harness.cli.eval import eval_cmd
from ecov.harness.core.protocol import BUGHUNT, bughunt_passed, get_protocol, protocol_names
from ecov.harness.core.records import FALSE_ALARM, ScoreResult
from ecov.harness.core.run_folder import RunConfig, RunFolder
from ecov.harness.evaluation.compare import compare_runs, format_comparison
from ecov.harness.evaluation.report import format_summary
from ecov.harness.evaluation.runner import run_eval
from ecov.harness.loop.agent import visible_result
from ecov.harness.loop.bughunt_feedback import render_bughunt_feedback
from ecov.harness.loop.bughunt_round import BughuntRoundScorer
from ecov.harness.models import get_model
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.base import get_track, tb_io
from ecov.harness.tracks.sv.bughunt import BughuntEngine
from ecov.leaderboard.buildverify import BuildVerifier, VerifyCache
from ecov.leaderboard.site import build_site
from ecov.leaderboard.submission import SubmissionMeta, add_submission
from ecov.leaderboard.verify import verify_run

TASK = "prio_encoder"


@pytest.fixture(scope="module")
def task():
    return next(t for t in load_suite() if t.id == TASK)


# ---- prompts, feedback, refusals: no simulation -------------------------------------------------------


def test_the_prompt_gives_spec_and_ports_never_the_rtl(task):
    assert "bughunt" in protocol_names() and get_protocol("bughunt").bughunt
    user = tb_io(BUGHUNT, "sv").messages(task, None, None)[1]["content"]
    assert task.spec_files[0].content.strip()[:200] in user
    assert f"module {task.dut_module}" in user and "output logic [3:0] idx" in user
    body = [line.strip() for f in task.rtl_files for line in f.content.splitlines()
            if len(line.strip()) > 12 and not line.strip().startswith(("input", "output", "//", "module", ")"))]
    assert body and not [line for line in body if line in user]  # not one line of the design's code
    assert "$error" in user and "$fatal" in user and "false alarm" in user


def test_cocotb_refuses_the_bug_hunt_at_once():
    with pytest.raises(ValueError, match="SystemVerilog-only"):
        get_track("cocotb").io(BUGHUNT)
    res = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--protocol", "bughunt", "--tb-lang",
                                         "cocotb", "--limit", "1", "--out", "/nonexistent/never-made"])
    assert res.exit_code != 0 and "SystemVerilog-only" in res.output


def test_feedback_shows_place_counts_and_coverage_never_values_or_rtl(task):
    inst = task.dut_instance
    cov = {inst: {"line": {"covered": 3, "total": 4, "percent": 75.0}, "overall": {"covered": 3, "total": 4,
                                                                                   "percent": 75.0}}}
    alarm = ScoreResult(status="ok", instance=inst, coverage=cov, overall=75.0,
                        errors=["simulation exited with code 1: %Fatal: testbench.sv:9: idx=7 expected 3"],
                        log_tail="idx=7 grant=0080\n%Fatal: testbench.sv:9: idx=7 expected 3",
                        bughunt={"status": FALSE_ALARM, "killed": 0, "total": 20, "kill_rate": 0.0,
                                 "failure": "testbench.sv:9", "outcomes": {}})
    text = render_bughunt_feedback(alarm)
    assert "testbench.sv:9" in text and "false alarm" in text and "75.00%" in text
    assert "idx=7" not in text and "0080" not in text and "expected 3" not in text
    ok = replace(alarm, errors=[], log_tail="", bughunt={"status": "ok", "killed": 7, "total": 20,
                                                         "kill_rate": 35.0, "outcomes": {"m001": "survived"}})
    text = render_bughunt_feedback(ok)
    assert "7 of 20" in text and "m001" not in text and "survived" not in text
    rtl = task.rtl_files[0]
    broken = ScoreResult(status="compile_error", instance=inst, bughunt={"status": "compile_error", "total": 20},
                         errors=["%Error: testbench.sv:3:5: syntax error\n    3 | x",
                                 f"%Error: {rtl.name}:5:3: bad\n    5 | {rtl.content.splitlines()[4]}"])
    text = render_bughunt_feedback(broken)
    assert "syntax error" in text and rtl.content.splitlines()[4].strip() not in text
    seen = visible_result(ok, BUGHUNT)  # what builtin models read: counts, not which mutant survived
    assert seen.bughunt == {"status": "ok", "killed": 7, "total": 20, "kill_rate": 35.0} and not seen.uncovered


def test_pass_and_stop_rules():
    res = ScoreResult(status="ok", bughunt={"status": "ok", "killed": 18, "total": 20, "kill_rate": 90.0})
    assert bughunt_passed(res, 90.0) and not bughunt_passed(res, 91.0) and not bughunt_passed(res, None)
    assert not BUGHUNT.stop_after(res, []) and BUGHUNT.stop_after(
        replace(res, bughunt={**res.bughunt, "killed": 20, "kill_rate": 100.0}), [])
    assert not bughunt_passed(replace(res, bughunt={**res.bughunt, "status": FALSE_ALARM}), 0.0)


# ---- real runs ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(task, tmp_path_factory):
    """builtin/random, builtin/reference and builtin/golden-capture under the bug hunt, direct, on one task."""
    root = tmp_path_factory.mktemp("bh-runs")
    scorer = BughuntRoundScorer(BughuntEngine(EngineConfig(cache_dir=root / "cache")))
    out = {}
    for model in ("builtin/random", "builtin/reference", "builtin/golden-capture"):
        config = RunConfig(model=model, mode="direct", agent="direct", benchmark="ecov-embedded",
                           dataset_hash="sha256:test", protocol="bughunt", max_rounds=1)
        folder = root / model.split("/")[1]
        outcome = run_eval([task], get_model(model), config, folder, scorer=scorer, workers=1, progress=False)
        out[model] = (folder, outcome.summary)
    return out


def test_random_kills_nothing_and_every_sample_is_scored(runs):
    _, summary = runs["builtin/random"]
    bh = summary["bughunt"]
    assert bh["kill_rate"] == 0.0 and bh["statuses"] == {"ok": 1} and bh["false_alarms"] == 0
    assert bh["tasks"] == 1 and bh["mutants"] >= 10 and summary["complete"]


def test_reference_and_golden_capture_catch_bugs_without_false_alarms(runs):
    ref = runs["builtin/reference"][1]["bughunt"]
    cap = runs["builtin/golden-capture"][1]["bughunt"]
    assert ref["kill_rate"] >= 90.0 and ref["false_alarms"] == 0 and ref["statuses"] == {"ok": 1}
    assert cap["kill_rate"] > 0.0 and cap["false_alarms"] == 0
    text = format_summary(runs["builtin/reference"][1])
    assert re.search(r"kill %\s+\d", text) and "bug-hunt pass %" in text and "false alarms" in text
    comp = compare_runs(runs["builtin/random"][0], runs["builtin/reference"][0], resamples=200)
    assert comp.kill_rate is not None and comp.kill_rate.diff == ref["kill_rate"]
    assert "kill %" in format_comparison(comp)


def test_verify_re_scores_the_bug_hunt_and_catches_a_tampered_kill_count(runs, task, tmp_path):
    src, _ = runs["builtin/reference"]
    copy = tmp_path / "tampered"
    shutil.copytree(src, copy)
    lines = (copy / "rounds.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["result"]["bughunt"]["killed"] -= 1
    (copy / "rounds.jsonl").write_text(json.dumps(rec, sort_keys=True) + "\n")
    fresh = BughuntRoundScorer(BughuntEngine(EngineConfig(use_cache=False)))
    ver = verify_run(RunFolder(copy), {task.id: task}, fresh, name="tampered")
    assert ver.scored == 1 and [d.field for d in ver.differences] == ["bughunt.killed"], ver.report()


def test_verify_re_makes_the_oracle_rows_answers(runs, task):
    """builtin/golden-capture is reproducible: verify re-makes its answers (the capture run included) and
    finds them equal, so a verified build admits its row as the build's own baseline."""
    folder, _ = runs["builtin/golden-capture"]
    fresh = BughuntRoundScorer(BughuntEngine(EngineConfig(use_cache=False)))
    ver = verify_run(RunFolder(folder), {task.id: task}, fresh, name="oracle")
    assert ver.ok and not ver.differences and ver.reproduced_model == "builtin/golden-capture", ver.report()


def test_the_site_ranks_bug_hunt_boards_by_kill_rate(runs, tmp_path):
    subs = tmp_path / "subs"
    for model, (folder, _) in runs.items():
        add_submission(folder, subs, model.replace("/", "-"), SubmissionMeta(model=model, type="baseline",
                                                                             date="2026-01-01"))
    build_site(subs, tmp_path / "site")
    html = (tmp_path / "site" / "index.html").read_text()
    board = html[html.index('id="bughunt"'):]
    order = re.findall(r'data-name="(builtin-[\w-]+)"', board)
    kill = {m.replace("/", "-"): s["bughunt"]["kill_rate"] for m, (_, s) in runs.items()}
    assert len(order) == 3 and order[-1] == "builtin-random", order
    assert [kill[n] for n in order] == sorted(kill.values(), reverse=True), (order, kill)
    assert "oracle: random stimulus, golden outputs" in board and "floor: no checks" in board
    assert (tmp_path / "site" / "tables" / "ecov-embedded-direct-bughunt.csv").is_file()


def test_a_verified_build_shows_the_bug_hunts_progress(runs, tmp_path):
    """A bug-hunt run's testbenches are scored in the build's prefetch beside the coverage runs' (each against
    every mutant) and still get a progress line each."""
    subs, folder = tmp_path / "subs", tmp_path / "run"
    shutil.copytree(runs["builtin/random"][0], folder)
    config = json.loads((folder / "config.json").read_text())  # the run, against the shipped suite's identity
    config["dataset_hash"] = dataset_hash(load_suite())
    (folder / "config.json").write_text(json.dumps(config))
    add_submission(folder, subs, "builtin-random", SubmissionMeta(model="builtin/random", type="baseline",
                                                                  date="2026-01-01"))
    lines: list[str] = []
    report = build_site(subs, tmp_path / "site",
                        verifier=BuildVerifier(VerifyCache(tmp_path / "vcache", subs), progress=lines.append))
    assert "builtin-random: re-deriving every sample from its re-scored testbenches (each against every mutant)" in lines
    assert any(re.match(r"\[1/1\] \w+: ok, overall", line) for line in lines), lines
    assert any("builtin-random: verified" in v for v in report.verified), report.verified
