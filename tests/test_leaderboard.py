"""Leaderboard: submission format, verify (re-scoring with the real engine), static site build.

The run folders are real: two testbenches for the embedded updown_counter are scored with Verilator
(a weak one that misses the targets and the suite's reference one that meets them), and the rounds,
samples and summary are written the way ecov-eval writes them.
"""

from __future__ import annotations

import json
import os
import re
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from ecov.harness.benchmark.store import dataset_hash, load_benchmark
from ecov.harness.core.paths import default_cache_dir
from ecov.harness.core.records import ScoreResult
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder
from ecov.harness.evaluation.runner import build_summary, verilator_version
from ecov.harness.loop.agent import AgentConfig, run_sample
from ecov.harness.models import Completion, ModelRequest
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine
from ecov.leaderboard import plots
from ecov.leaderboard.buildverify import BuildVerifier, VerifyCache
from ecov.leaderboard.cli import main as cli
from ecov.leaderboard.site import build_site, line_diff
from ecov.leaderboard.stats import group_rounds, histogram
from ecov.leaderboard.submission import (
    SubmissionError,
    SubmissionMeta,
    add_submission,
    open_submission,
    run_digest,
)
from ecov.leaderboard.verify import DIFFERS, VERIFIED, compare_scores, verify_submission

TASK_ID = "updown_counter"

WEAK_TB = """module tb;
  logic clk = 0, rst_n = 0, en = 0, up = 1, load = 0, sat = 0;
  logic [7:0] load_val = 0, count;
  logic at_max, at_min, wrapped, diag;
  updown_counter dut (.*);
  always #5 clk = ~clk;
  initial begin
    #12 rst_n = 1; en = 1;
    repeat (5) @(posedge clk);
    if (count <= 8'd5) $display("ok: count=%0d", count);
    $finish;
  end
endmodule
"""


@pytest.fixture(scope="session")
def task():
    return next(t for t in load_benchmark("ecov-embedded") if t.id == TASK_ID)


@pytest.fixture(scope="session")
def scorer(tmp_path_factory):
    """A real engine with a private score cache: each distinct testbench is simulated once per session.

    Verilator's runtime objects stay shared (ECOV_RUNTIME_DIR) so a fresh cache does not rebuild them."""
    mp = pytest.MonkeyPatch()
    if not os.environ.get("ECOV_RUNTIME_DIR"):
        mp.setenv("ECOV_RUNTIME_DIR", str(default_cache_dir() / "runtime"))
    engine = Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("engine-cache")))
    yield engine.score
    mp.undo()


class Scripted:
    """A model that answers from a plan: sample -> the testbench of each round (None: an answer with no
    code block), with fixed token counts. Its answers go through the real agent loop."""

    name = "scripted"

    def __init__(self, plan: dict[int, list[str | None]]):
        self.plan = plan

    def complete(self, req: ModelRequest) -> Completion:
        tbs = self.plan[req.sample]
        tb = tbs[min(req.round, len(tbs) - 1)]
        if tb is None:
            return Completion("I am not sure.", 900, 20, 0.0005, finish_reason="stop")
        return Completion(f"tb.sv\n```systemverilog\n{tb}```\n", 1200, 400 + req.round, 0.002, finish_reason="stop")


def write_run(root: Path, task, plan: dict[int, list[str | None]], score, *, model: str,
              mode: str = "agentic", max_rounds: int = 2, seed: int = 1) -> Path:
    """Write a run folder as ecov-eval does: the real agent loop (llm4cov protocol) with a scripted model.
    ``plan`` maps sample -> testbench per round (None: no usable answer, which llm4cov asks again and then
    ends the sample on); a sample stops early only as the protocol says (100% overall)."""
    folder = RunFolder(root)
    cfg = RunConfig(model=model, mode=mode, agent="memoryless" if mode == "agentic" else "direct",
                    benchmark="ecov-embedded", dataset_hash=dataset_hash([task]), n_samples=len(plan),
                    max_rounds=max_rounds, seed=seed, created="2026-12-01T10:00:00Z", task_ids=[task.id],
                    harness_version="0.1.0", verilator_version=verilator_version())
    folder.write_config(cfg)
    loop = AgentConfig(mode=mode, agent="memoryless", max_rounds=max_rounds, seed=seed, protocol=cfg.protocol)
    for sample in plan:
        _, rec = run_sample(task, sample, Scripted(plan), score, loop, on_round=folder.append_round)
        folder.append_sample(rec)
    folder.write_summary(build_summary(folder, cfg))
    return root


@pytest.fixture(scope="session")
def scores(task, scorer):
    """The engine's results for the two testbenches; the pass rates the tests expect follow from these
    preconditions, the coverage figures they look for are read from here."""
    weak, ref = scorer(task.design, WEAK_TB, 1), scorer(task.design, task.reference_tbs[0].content, 1)
    assert weak.status == ref.status == "ok"
    assert ref.meets(task.targets) and not weak.meets(task.targets) and weak.overall < ref.overall
    return {"weak": weak, "ref": ref}


def _branch(res: ScoreResult) -> str:
    fig = res.coverage["dut"]["branch"]
    return f"{fig['covered']}/{fig['total']}"


@pytest.fixture(scope="session")
def runs(tmp_path_factory, task, scorer, scores):
    """Three real runs: a good agentic one, a weak agentic one, a direct one (2 distinct testbenches)."""
    base = tmp_path_factory.mktemp("runs")
    ref = task.reference_tbs[0].content
    return {
        "good": write_run(base / "good", task, {0: [WEAK_TB, ref], 1: [WEAK_TB, None]}, scorer,
                          model="scripted/good"),
        "weak": write_run(base / "weak", task, {0: [WEAK_TB, WEAK_TB]}, scorer, model="weak-model"),
        "direct": write_run(base / "direct", task, {0: [ref]}, scorer, model="direct-model", mode="direct",
                            max_rounds=1),
    }


def _meta(model="Good Model", size=4.0, type_="open-weights"):
    return SubmissionMeta(model=model, type=type_, date="2026-12-01", size_b=size, link="https://example.org/m")


def _submission(tmp_path: Path, run: Path, name: str = "good", **kw) -> Path:
    return add_submission(run, tmp_path / "subs", name, _meta(**kw))


def _tamper_round(sub: Path, metric: str = "branch", delta: int = 1) -> tuple[int, int]:
    """Edit one covered count of the DUT in the first scored round; return (old, new)."""
    path = sub / "run" / "rounds.jsonl"
    lines = path.read_text().splitlines()
    d = json.loads(lines[0])
    fig = d["result"]["coverage"]["dut"][metric]
    old = fig["covered"]
    fig["covered"] = old + delta
    lines[0] = json.dumps(d, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")
    return old, old + delta


# ---- submission format --------------------------------------------------------------------------------


def test_meta_problems_name_every_bad_field():
    bad = SubmissionMeta(model=" ", type="closed", date="1/12/2026", size_b=-3, link="ftp://x")
    text = "; ".join(bad.problems())
    for word in ("model is empty", "type 'closed'", "date '1/12/2026'", "size_b -3", "link 'ftp://x'"):
        assert word in text
    assert _meta().problems() == []
    with pytest.raises(SubmissionError, match="lacks model, date"):
        SubmissionMeta.from_dict({"type": "api"})


def test_add_copies_run_and_archive_opens(tmp_path, runs):
    dest = _submission(tmp_path, runs["good"])
    assert json.loads((dest / "submission.json").read_text())["size_b"] == 4.0
    assert (dest / "run" / "rounds.jsonl").read_bytes() == (runs["good"] / "rounds.jsonl").read_bytes()
    with pytest.raises(SubmissionError, match="already exists"):
        _submission(tmp_path, runs["good"])

    arch = add_submission(runs["weak"], tmp_path / "subs", "weak-arch", _meta(), archive=True, with_logs=False)
    assert not (arch / "run").exists()
    with tarfile.open(arch / "run.tar.gz") as tar:
        assert "run/config.json" in tar.getnames()
    with open_submission(arch) as sub:
        assert sub.run.read_config().model == "weak-model"
        assert run_digest(sub.run_dir) == run_digest(runs["weak"])
        extracted = sub.run_dir
    assert not extracted.exists()  # the temporary extraction is cleaned up


def test_archive_with_path_escape_is_refused(tmp_path, runs):
    sub = tmp_path / "evil"
    sub.mkdir()
    (sub / "submission.json").write_text(json.dumps(_meta().to_dict()))
    with tarfile.open(sub / "run.tar.gz", "w:gz") as tar:
        tar.add(runs["weak"] / "config.json", arcname="../../escaped.json")
    with pytest.raises(SubmissionError, match="cannot extract"):
        with open_submission(sub):
            pass
    assert not (tmp_path.parent / "escaped.json").exists()


def test_cli_add_usage_errors_exit_2(tmp_path, runs):
    r = CliRunner().invoke(cli, ["add", str(runs["good"]), "--name", "a b", "--model", "M", "--type", "api",
                                 "--submissions", str(tmp_path)])
    assert r.exit_code == 2 and "submission name 'a b'" in r.output
    r = CliRunner().invoke(cli, ["add", str(tmp_path), "--name", "x", "--model", "M", "--type", "api",
                                 "--submissions", str(tmp_path / "subs")])
    assert r.exit_code == 2 and "not a run folder" in r.output
    r = CliRunner().invoke(cli, ["add", str(runs["good"]), "--name", "x", "--model", "M", "--type", "closed"])
    assert r.exit_code == 2 and "closed" in r.output
    r = CliRunner().invoke(cli, ["add", str(runs["good"]), "--name", "ok", "--model", "M", "--type", "api",
                                 "--size-b", "7", "--submissions", str(tmp_path / "subs")])
    assert r.exit_code == 0, r.output
    meta = json.loads((tmp_path / "subs" / "ok" / "submission.json").read_text())
    assert meta == {"model": "M", "type": "api", "date": "2026-12-01", "size_b": 7.0, "link": "", "notes": ""}


# ---- verify -------------------------------------------------------------------------------------------


def test_verify_honest_submission_cli_without_cache(tmp_path, runs, task, scorer, monkeypatch):
    """The CLI path: a fresh engine with its disk cache off, so a poisoned cache cannot vouch for a run."""
    cache = tmp_path / "poisoned-cache"
    monkeypatch.setenv("ECOV_CACHE_DIR", str(cache))
    dest = _submission(tmp_path, runs["good"])
    # Poison the cache entry of the weak testbench with made-up figures: verify must not read it.
    engine = Engine(EngineConfig(cache_dir=cache))
    key = engine.cache_key(task.design, WEAK_TB, 1)
    fake = ScoreResult(status="ok", instance="dut", overall=99.0, isolation=engine.isolation,
                       isolated=engine.sandbox.isolated,  # a cache hit must match the sandbox it is served to
                       coverage={"dut": {"line": {"covered": 9, "total": 9, "percent": 100.0}}})
    path = cache / "scores" / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(fake.to_dict(timing=False)))
    # An entry without the digest of its key and content is dropped and recomputed, never served.
    assert engine.score(task.design, WEAK_TB, 1).overall != 99.0 and path.exists()
    path.write_text(json.dumps({**json.loads(path.read_text()), "result": fake.to_dict(timing=False)}))
    assert engine.score(task.design, WEAK_TB, 1).overall != 99.0  # edited content: digest mismatch

    r = CliRunner().invoke(cli, ["verify", str(dest), "--json", "-q", "-j", "2"])
    assert r.exit_code == 0, r.output
    ver = json.loads(r.output)
    assert ver["verdict"] == VERIFIED and ver["differences"] == []
    assert len(ver["warnings"]) == 1 and ver["warnings"][0].startswith("the run covers 1 of ")
    rounds = RunFolder(dest / "run").rounds()
    assert ver["checked_rounds"] == sum(1 for x in rounds if x.testbench) == 3
    assert ver["skipped_rounds"] == 1 and ver["scored"] == 2 and ver["checked_samples"] == 2
    assert json.loads((dest / "verification.json").read_text())["run_digest"] == run_digest(dest / "run")


def test_ecov_eval_run_verifies(tmp_path, task, scorer):
    """A run folder written by the real runner (ecov.harness.evaluation.runner, builtin/random model) verifies as is."""
    from ecov.harness.evaluation.runner import run_eval
    from ecov.harness.models import get_model

    cfg = RunConfig(model="builtin/random", mode="agentic", agent="memoryless", benchmark="ecov-embedded",
                    dataset_hash=dataset_hash([task]), n_samples=1, max_rounds=2)
    run_eval([task], get_model("builtin/random"), cfg, tmp_path / "run", scorer=scorer, workers=1, progress=False)
    dest = add_submission(tmp_path / "run", tmp_path / "subs", "random", _meta("builtin/random", None))
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == VERIFIED, ver.report()
    assert ver.checked_samples == 1 and ver.checked_rounds >= 1


def test_verify_catches_one_edited_coverage_number(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["good"])
    old, new = _tamper_round(dest, "branch", +2)
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=lambda d, tb, seed: scorer(d, tb, seed))
    assert ver.verdict == DIFFERS
    hits = [d for d in ver.differences if d.field == "coverage[dut][branch].covered"]
    assert len(hits) == 1
    d = hits[0]
    assert (d.task_id, d.sample, d.round, d.submitted, d.rescored) == (TASK_ID, 0, 0, new, old)
    assert "updown_counter / sample 0 / round 1: coverage[dut][branch].covered" in ver.report()


def test_verify_recomputes_a_claimed_legal_pass(tmp_path, runs, scorer):
    """A round's legal verdict (issue 22) is re-derived from the re-scored result: a forged one differs."""
    dest = _submission(tmp_path, runs["good"])
    path = dest / "run" / "rounds.jsonl"
    lines = path.read_text().splitlines()
    d = json.loads(lines[0])
    assert not d["passed"]  # round 0 of sample 0 is the weak testbench
    d["legal_passed"] = True
    lines[0] = json.dumps(d, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=lambda d, tb, seed: scorer(d, tb, seed))
    hits = [x for x in ver.differences if x.field == "legal_passed"]
    assert ver.verdict == DIFFERS and len(hits) == 1 and (hits[0].submitted, hits[0].rescored) == (True, False)


def test_verify_recomputes_the_contract_figures_the_pages_show(tmp_path, runs, scorer):
    """The broken rule, its count and the bins a page shows (issue 32) are re-derived too: a round that
    claims more bins, or hides a broken rule, differs; so does a sample that claims more bins."""
    dest = _submission(tmp_path, runs["good"])
    rounds, samples = dest / "run" / "rounds.jsonl", dest / "run" / "samples.jsonl"
    lines = rounds.read_text().splitlines()
    d = json.loads(lines[0])  # round 0 of sample 0: the weak testbench, no bin hit
    d["result"]["legal"]["bins"] = ["wrap_up"]
    d["result"]["legal"]["violation"] = {"rule": "made_up", "time_ns": 5, "ports": [], "spec": ""}
    lines[0] = json.dumps(d, sort_keys=True)
    rounds.write_text("\n".join(lines) + "\n")
    rows = [json.loads(x) for x in samples.read_text().splitlines()]
    rows[-1]["legal_bins_hit"] = 7
    samples.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=lambda d, tb, seed: scorer(d, tb, seed))
    fields = {x.field for x in ver.differences}
    assert ver.verdict == DIFFERS and {"legal.bins", "legal.violation", "sample.legal_bins_hit"} <= fields


def test_verify_cli_reports_differences_and_exits_1(tmp_path, runs, scorer, monkeypatch):
    dest = _submission(tmp_path, runs["weak"], name="weak")
    # Claim a pass the testbench never earned: edit samples.jsonl and the summary.
    path = dest / "run" / "samples.jsonl"
    rec = json.loads(path.read_text())
    rec.update(passed=True, passed_round=1)
    path.write_text(json.dumps(rec) + "\n")
    summary = json.loads((dest / "run" / "summary.json").read_text())
    summary["pass_rate"] = 100.0
    (dest / "run" / "summary.json").write_text(json.dumps(summary))
    # Score through the session's cached engine: these testbenches were simulated by the fixture already.
    monkeypatch.setattr("ecov.leaderboard.verify.engine_score_fn", lambda tb_lang=None: scorer)
    r = CliRunner().invoke(cli, ["verify", str(dest), "-q"])
    assert r.exit_code == 1
    assert "DIFFERS" in r.output
    assert "sample.passed: submitted True, re-scored False" in r.output
    assert "summary.pass_rate: submitted 100.0, re-scored 0.0" in r.output
    saved = json.loads((dest / "verification.json").read_text())
    assert saved["verdict"] == DIFFERS and len(saved["differences"]) >= 3


def test_verify_catches_a_left_out_sample(tmp_path, runs, scorer):
    """Dropping a failed sample (and its rounds) would raise the pass rate from 50% to 100%."""
    dest = _submission(tmp_path, runs["good"])
    for name in ("samples.jsonl", "rounds.jsonl"):
        path = dest / "run" / name
        keep = [line for line in path.read_text().splitlines() if json.loads(line)["sample"] == 0]
        path.write_text("\n".join(keep) + "\n")
    summary = json.loads((dest / "run" / "summary.json").read_text())
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == DIFFERS
    assert [(d.task_id, d.sample, d.field) for d in ver.differences if d.field == "sample"] == [(TASK_ID, 1, "sample")]
    assert summary["pass_rate"] == 50.0  # the untouched summary.json still tells the truth ...
    assert any(d.field == "summary.pass_rate" and d.submitted == 50.0 and d.rescored == 100.0
               for d in ver.differences)  # ... and disagrees with the shortened records


def test_verify_unknown_task_and_missing_folder(tmp_path, runs, scorer, monkeypatch):
    dest = _submission(tmp_path, runs["direct"], name="direct")
    path = dest / "run" / "rounds.jsonl"
    path.write_text(path.read_text().replace(f'"task_id": "{TASK_ID}"', '"task_id": "no_such_task"'))
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == DIFFERS
    assert any(d.field == "task" and d.task_id == "no_such_task" for d in ver.differences)
    cfg = json.loads((dest / "run" / "config.json").read_text())
    (dest / "run" / "config.json").write_text(json.dumps({**cfg, "benchmark": str(tmp_path / "no-bench")}))
    r = CliRunner().invoke(cli, ["verify", str(dest), "-q"])
    assert r.exit_code == 1 and "ERROR" in r.output and "cannot verify against benchmark" in r.output
    r = CliRunner().invoke(cli, ["verify", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "not a submission folder" in r.output


def test_compare_scores_lists_each_figure():
    sub = {"status": "ok", "overall": 50.0, "uncovered_total": 3,
           "coverage": {"uut": {"line": {"covered": 5, "total": 10, "percent": 50.0}}}}
    res = ScoreResult(status="ok", overall=50.0, uncovered_total=3,
                      coverage={"uut": {"line": {"covered": 5, "total": 10, "percent": 50.0}}})
    assert compare_scores(sub, res) == []
    res.coverage["uut"]["line"] = {"covered": 6, "total": 10, "percent": 60.0}
    res.coverage["uut.u_sub"] = {"line": {"covered": 1, "total": 1, "percent": 100.0}}
    res.status = "no_finish"
    assert compare_scores(sub, res) == [
        ("status", "ok", "no_finish"),
        ("coverage[uut][line].covered", 5, 6),
        ("coverage[uut][line].percent", 50.0, 60.0),
        ("coverage[uut.u_sub][line]", None, {"covered": 1, "total": 1, "percent": 100.0}),
    ]


# ---- site ---------------------------------------------------------------------------------------------


def _verify_with(sub_dir: Path, scorer) -> None:
    with open_submission(sub_dir) as sub:
        ver = verify_submission(sub, score=scorer)
    sub.verification_path.write_text(json.dumps(ver.to_dict()))


@pytest.fixture(scope="session")
def site(tmp_path_factory, runs, scorer):
    """Submissions: good (verified), weak (tampered: differs), direct (verified), stale (its committed
    verification is out of date; the build verifies the files as they are now: its summary differs).
    Built with the build's own verification (build --verify), which alone earns the badge."""
    root = tmp_path_factory.mktemp("lb")
    subs = root / "subs"
    good = add_submission(runs["good"], subs, "good", _meta("Good Model", 4.0, "open-weights"))
    weak = add_submission(runs["weak"], subs, "weak", _meta("Weak Model", 30.0, "open-weights"))
    direct = add_submission(runs["direct"], subs, "direct", _meta("Direct Model", None, "api"))
    stale = add_submission(runs["weak"], subs, "stale", _meta("Stale Model", 1.5, "trained"), archive=True)
    for s in (good, direct, stale):
        _verify_with(s, scorer)
    _tamper_round(weak, "toggle", -1)
    _verify_with(weak, scorer)
    # The stale one changes after its verification: replace its archive with an edited run.
    work = root / "restage"
    with tarfile.open(stale / "run.tar.gz") as tar:
        tar.extractall(work, filter="data")
    (work / "run" / "summary.json").write_text(json.dumps({"pass_rate": 100.0}))
    with tarfile.open(stale / "run.tar.gz", "w:gz") as tar:
        tar.add(work / "run", arcname="run")
    (subs / "broken").mkdir()
    (subs / "broken" / "submission.json").write_text("{}")
    verifier = BuildVerifier(VerifyCache(root / "verify-cache", subs), score=scorer)
    report = build_site(subs, root / "site", verifier=verifier)
    return root / "site", report


def test_build_index_tables_marks_and_paper(site, scores):
    out, report = site
    assert sorted(report.entries) == ["direct", "good", "stale", "weak"]
    assert report.skipped == ["broken: submission.json: model: Field required; type: Field required; "
                              "date: Field required"]  # the schema's words (leaderboard/schema.py)
    assert report.tables == ["ecov-embedded/agentic/llm4cov", "ecov-embedded/direct/llm4cov"]
    html = (out / "index.html").read_text()
    boards = re.findall(r'<section class="board" id="([^"]+)">', html)
    assert boards == ["ecov-embedded-agentic", "ecov-embedded-direct"]
    agentic = html.split('id="ecov-embedded-agentic"')[1].split("</table>")[0]
    names = re.findall(r'data-name="([^"]+)"', agentic)
    assert names == ["good", "stale", "weak"]  # good passes one sample of two; the others none
    good_row = agentic.split('data-name="good"')[1].split("</tr>")[0]
    cells = re.findall(r'<td class="num[^"]*" data-sort="([^"]*)"', good_row)
    avg = round((scores["ref"].overall + scores["weak"].overall) / 2, 2)  # sample 0 ends on ref, 1 on weak
    # size, ECov pass % (updown_counter's contract has bins, no rules: its legal pass is its pass), the
    # paper's pass %, legal pass %, legal coverage, bins hit (3.5 of 7: the reference hits all, the weak
    # testbench none), pass % on random-hard tasks (updown_counter is one since its diagnostic key), pass %
    # easy, avg coverage
    assert cells[1:10] == ["4.0", "50.0", "50.0", "50.0", str(avg), "50.0", "50.0", "50.0", str(avg)]
    assert ">3.5/7</td>" in good_row
    assert "Pass % random-hard" in agentic and "Pass % easy" in agentic and "[50.0, 50.0]" in good_row
    assert "16 of 16 tasks carry an interface contract" in html.split('id="ecov-embedded-agentic"')[1]
    assert 'id="about-random-hard"' in html and "fails in every one of its agentic samples" in html
    assert 'class="mark mark-verified"' in good_row
    assert 'mark-differs' in agentic.split('data-name="weak"')[1].split("</tr>")[0]
    # Its committed verification.json is stale; the build verified the files as they are now.
    assert 'mark-differs' in agentic.split('data-name="stale"')[1].split("</tr>")[0]
    assert "Cadence Xcelium" in html and "NOT comparable" in html and "69.2" in html and "63.9" in html
    for svg in re.findall(r"<svg.*?</svg>", html, re.S):
        ET.fromstring(svg)  # every chart is well-formed SVG


def test_heatmap_and_table_downloads(site, scores):
    import pandas as pd

    out, _ = site
    html = (out / "index.html").read_text()
    heat = html.split('id="ecov-embedded-agentic-heatmap">')[1].split("</figure>")[0]
    cells = re.findall(r'<g class="heat-cell" data-row="([^"]+)" data-col="([^"]+)" data-pass="(\w+)">', heat)
    assert cells == [("Good Model", TASK_ID, "some"), ("Stale Model", TASK_ID, "fail"), ("Weak Model", TASK_ID, "fail")]
    assert f"Good Model · {TASK_ID}: coverage" in heat and "passed 1/2" in heat
    board = pd.read_csv(out / "tables" / "ecov-embedded-agentic.csv")
    assert list(board["submission"]) == ["good", "stale", "weak"] and board.loc[0, "pass_rate"] == 50.0
    assert {"pass_rate_ci_lo", "pass_rate_random_hard", "pass_rate_easy"} <= set(board.columns)
    pd.testing.assert_frame_equal(pd.read_parquet(out / "tables" / "ecov-embedded-agentic.parquet"), board,
                                  check_dtype=False)
    tasks = pd.read_parquet(out / "tables" / "ecov-embedded-agentic-tasks.parquet")
    good = tasks[tasks.submission == "good"].iloc[0]
    assert (good.task_id, good.passed, good.samples, good.difficulty) == (TASK_ID, 1, 2, "easy")
    assert good.mean_overall == round((scores["ref"].overall + scores["weak"].overall) / 2, 2)
    rounds = pd.read_parquet(out / "s" / "good" / "data" / "rounds.parquet")
    assert len(rounds) == 4 and rounds["passed"].sum() == 1  # sample 0: 2 rounds; sample 1: 2 rounds


def test_site_is_self_contained(site):
    out, _ = site
    pages = list(out.rglob("*.html"))
    assert len(pages) >= 9
    for page in pages:
        text = page.read_text()
        assert not re.search(r'<(script|link|img|iframe)[^>]+(src|href)="(https?:)?//', text), page
        assert "@import" not in text and "fonts.googleapis" not in text
        for ref in re.findall(r'(?:src|href)="([^"#]+)"', text):
            if not ref.startswith(("http://", "https://")):
                assert (page.parent / ref).resolve().exists(), f"{page}: broken link {ref}"
    css = (out / "static" / "site.css").read_text()
    assert "url(" not in css and "@font-face" not in css


def test_submission_and_trajectory_pages(site, scores):
    out, _ = site
    page = (out / "s" / "good" / "index.html").read_text()
    assert "Good Model" in page and "memoryless agent, up to 2 rounds" in page
    assert "Verilator 5.048" in page and "vUNKNOWN" not in page
    assert '<a href="t/updown_counter.html">updown_counter</a>' in page
    traj = (out / "s" / "good" / "t" / "updown_counter.html").read_text()
    assert "passed at round 2" in traj and "not passed" in traj
    assert "if (count &lt;= 8&#39;d5)" in traj  # testbench text is escaped, not markup
    assert "Change from the previous testbench" in traj and 'class="d-add"' in traj
    assert "Answer gave no testbench: Your answer named no testbench file" in traj
    assert _branch(scores["weak"]) in traj and _branch(scores["ref"]) in traj  # per-round coverage tables
    report = (out / "s" / "weak" / "verification.html").read_text()
    assert "coverage[dut][toggle].covered" in report
    assert json.loads((out / "s" / "good" / "data" / "verification.json").read_text())["verdict"] == VERIFIED


def test_cli_build(tmp_path, site):
    out, _ = site
    r = CliRunner().invoke(cli, ["build", "--submissions", str(tmp_path / "missing"), "--out", str(tmp_path)])
    assert r.exit_code == 2 and "not a folder of submissions" in r.output
    subs = tmp_path / "subs"
    subs.mkdir()
    r = CliRunner().invoke(cli, ["build", "--submissions", str(subs), "--out", str(tmp_path / "site")])
    assert r.exit_code == 0 and "0 submissions" in r.output
    assert "No submissions yet" in (tmp_path / "site" / "index.html").read_text()


# ---- small pure parts ---------------------------------------------------------------------------------


def test_histogram_and_diff_and_grouping():
    assert histogram([0, 9.99, 10, 55, 100, 100], bins=10) == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
    diff = line_diff("a\nb\nc\n", "a\nB\nc\n")
    assert ("del", "-b") in diff and ("add", "+B") in diff
    recs = [RoundRecord("t", 0, r, "", "", "x", "", "", {}, False) for r in (0, 1, 0)]
    assert [len(v) for v in group_rounds(recs).values()] == [1]  # a round 0 starts a new attempt


def test_plots_are_wellformed_svg():
    for svg in (plots.line_chart([("a <b>", [0, 50, 100]), ("c", [10])], "t & u"),
                plots.histogram_chart([1, 0, 3], "h"),
                plots.scatter_chart([(4, 69.2, "x"), (30, 63.9, "y"), (0, 1, "no size")], "s"),
                plots.scatter_chart([], "empty"), plots.line_chart([], "empty")):
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg")
    assert "a &lt;b&gt;" in plots.line_chart([("a <b>", [1, 2])], "t")


def test_packaged_assets_exist():
    here = Path(__file__).resolve().parents[1] / "leaderboard"
    for rel in ("templates/index.html.j2", "static/site.css", "static/site.js", "paper_results.json"):
        assert (here / rel).is_file()
    paper = json.loads((here / "paper_results.json").read_text())
    by = {(r["model"], r["mode"]): r for r in paper["rows"]}  # Table 2 of the paper, both modes
    assert (by[("LLM4Cov Stage 2 (4B, final)", "agentic")]["pass_rate"],
            by[("LLM4Cov Stage 2 (4B, final)", "agentic")]["avg_cov"]) == (69.2, 90.4)
    teacher = by[("Qwen3-Coder-30B-A3B-Instruct (the LLM4Cov teacher)", "agentic")]
    assert (teacher["pass_rate"], teacher["avg_cov"]) == (63.9, 79.9) and len(paper["rows"]) == 28
    assert all(r["simulator"] == "Cadence Xcelium" for r in paper["rows"])
    assert "not comparable" in paper["label"].lower()
