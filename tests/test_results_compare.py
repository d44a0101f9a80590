"""Results tables, paired comparison, the random-hard record and builtin/reference (issue 15).

Run folders here are written as ecov-eval writes them (RunFolder, RoundRecord, SampleRecord from
ecov.harness.evaluation.metrics) with constructed scores, so every expected number is known by hand; the end-to-end test
at the bottom runs builtin/reference and builtin/random through the real engine.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from ecov.harness.cli.eval import compare_cmd, export_cmd
from ecov.harness.cli.random_baseline import random_baseline_cmd
from ecov.harness.core.records import ScoreResult, SourceFile
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder
from ecov.harness.core.state import sample_from_rounds
from ecov.harness.evaluation.baseline import RandomBaseline, from_runs, record_path
from ecov.harness.evaluation.compare import (
    CompareError,
    compare_runs,
    mcnemar_exact,
    paired_bootstrap,
    protocol_of,
)
from ecov.harness.evaluation.tables import read_frame, samples_frame, to_frame, write_frame
from ecov.harness.evaluation.views import random_hard_summary
from ecov.harness.models import get_model
from ecov.harness.models.base import ModelError, ModelRequest
from ecov.harness.parse import parse_response

TASKS = [f"t{i}" for i in range(10)]


def _result(overall: float, status: str = "ok") -> dict:
    fig = {"covered": int(overall), "total": 100, "percent": overall}
    cov = {"dut": {m: dict(fig) for m in ("line", "branch", "toggle", "expr")}}
    return ScoreResult(status=status, instance="dut", coverage=cov, overall=overall).to_dict()


def write_run(root, plan: dict[tuple[str, int], list[float | None]], *, model="m", mode="agentic", seed=1,
              dataset_hash="sha256:abc", benchmark="bench", protocol="ecov", max_rounds=2, error=None):
    """plan: (task, sample) -> overall per round (100 = passes and stops; None = no usable answer).
    ``protocol`` is written into config.json as is; "" leaves it out (a run from before protocols)."""
    folder = RunFolder(root)
    tasks = sorted({t for t, _ in plan})
    n = max(s for _, s in plan) + 1
    cfg = RunConfig(model=model, mode=mode, agent="memoryless" if mode == "agentic" else "direct",
                    benchmark=benchmark, dataset_hash=dataset_hash, n_samples=n, max_rounds=max_rounds,
                    seed=seed, task_ids=tasks)
    folder.write_config(cfg)
    raw = json.loads(folder.config_path.read_text())
    raw["protocol"] = protocol
    if not protocol:
        del raw["protocol"]
    folder.config_path.write_text(json.dumps(raw))
    for (task, sample), covs in sorted(plan.items()):
        recs, last = [], None
        for r, cov in enumerate(covs):
            if cov is None:
                res = last or _result(0.0, "rejected")
                rec = RoundRecord(task, sample, r, "h", "no idea", "", "no code block", "fb", res, False)
            else:
                last = _result(cov)
                rec = RoundRecord(task, sample, r, "h", "```sv```", f"module tb; // {cov}\nendmodule\n", "",
                                  "fb", last, cov >= 100.0, 10, 5, 0.001, 0.5)
            folder.append_round(rec)
            recs.append(rec)
            if rec.passed:
                break
        folder.append_sample(sample_from_rounds(task, sample, recs, error or ""))
    return root


# ---- the exact test and the bootstrap -----------------------------------------------------------------


def test_mcnemar_exact_known_values():
    # b = 1, c = 7: p = 2 * (C(8,0) + C(8,1)) / 2^8 = 18/256
    assert mcnemar_exact(1, 7) == 18 / 256 == 0.0703125
    assert mcnemar_exact(7, 1) == mcnemar_exact(1, 7)
    assert mcnemar_exact(0, 5) == 2 / 32
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(2, 10) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    assert mcnemar_exact(0, 1000) == 2.0 ** -999  # big n: exact integers, no overflow
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_paired_bootstrap_constant_and_seeded():
    assert paired_bootstrap([np.zeros(3)] * 5) == (0.0, 0.0)
    assert paired_bootstrap([np.ones(2)] * 4) == (1.0, 1.0)
    groups = [np.array([1.0, 0.0]), np.array([0.0]), np.array([1.0, 1.0, 0.0]), np.array([-1.0])]
    a = paired_bootstrap(groups, resamples=2000, seed=3)
    assert a == paired_bootstrap(groups, resamples=2000, seed=3)  # seeded: the same interval every time
    point = np.mean([g.mean() for g in groups])
    assert a[0] < point < a[1] and -1.0 <= a[0] and a[1] <= 1.0


# ---- compare on constructed runs ----------------------------------------------------------------------


def test_identical_runs_difference_zero(tmp_path):
    plan = {(t, s): ([50.0, 100.0] if i % 3 == 0 else [40.0 + i, 60.0]) for i, t in enumerate(TASKS)
            for s in range(2)}
    a = write_run(tmp_path / "a", plan)
    b = write_run(tmp_path / "b", plan, seed=2)
    c = compare_runs(a, b, resamples=1000)
    for f in (c.pass_rate, c.avg_overall):
        assert f.diff == 0.0 and f.lo <= 0.0 <= f.hi
    assert c.task_test.won == c.task_test.lost == [] and c.task_test.p_value == 1.0
    assert c.tasks == 10 and c.pairs == 20 and c.unpaired == 0
    assert [r.pass_rate.diff for r in c.per_round] == [0.0, 0.0]
    assert c.pass_rate.a == pytest.approx(40.0)  # t0, t3, t6, t9 pass at round 2


def test_known_discordant_table(tmp_path):
    # A passes t0, t1; B passes t1..t8: B wins 7 (t2..t8), loses 1 (t0), ties 2 (t1 both, t9 neither).
    a = write_run(tmp_path / "a", {(t, 0): [100.0 if i in (0, 1) else 50.0] for i, t in enumerate(TASKS)},
                  mode="direct", max_rounds=1)
    b = write_run(tmp_path / "b", {(t, 0): [100.0 if 1 <= i <= 8 else 50.0] for i, t in enumerate(TASKS)},
                  mode="direct", max_rounds=1)
    c = compare_runs(a, b, resamples=4000)
    assert (c.pass_rate.a, c.pass_rate.b, c.pass_rate.diff) == (20.0, 80.0, 60.0)
    assert c.task_test.won == [f"t{i}" for i in range(2, 9)] and c.task_test.lost == ["t0"]
    assert c.task_test.ties == 2 and c.task_test.p_value == 0.0703125
    assert 0.0 < c.pass_rate.lo < 60.0 < c.pass_rate.hi <= 100.0 and c.pass_rate.significant
    assert c.avg_overall.diff == 30.0  # 6 tasks x (+50) over 10 tasks
    assert c.per_round == []  # direct: one round
    rev = compare_runs(b, a, resamples=4000)
    assert rev.pass_rate.diff == -60.0 and rev.task_test.lost == c.task_test.won


def test_per_round_carries_forward(tmp_path):
    # A passes every task at round 2; B at round 1. After round 1 B leads by 100 points, after round 2 tie.
    a = write_run(tmp_path / "a", {(t, 0): [50.0, 100.0] for t in TASKS[:4]})
    b = write_run(tmp_path / "b", {(t, 0): [100.0] for t in TASKS[:4]})
    c = compare_runs(a, b, resamples=500)
    r1, r2 = c.per_round
    assert (r1.pass_rate.a, r1.pass_rate.b, r1.pass_rate.diff) == (0.0, 100.0, 100.0)
    assert r1.avg_overall.diff == 50.0 and len(r1.tasks.won) == 4 and r1.tasks.p_value == 0.125
    assert r2.pass_rate.diff == 0.0 and r2.avg_overall.diff == 0.0  # B's round-1 pass carried forward
    assert c.pass_rate.diff == 0.0


def test_refusals_say_why(tmp_path):
    plan = {(t, 0): [100.0] for t in TASKS[:3]}
    base = write_run(tmp_path / "a", plan)
    for kw, words in (({"dataset_hash": "sha256:other"}, "dataset hashes"), ({"benchmark": "other"}, "benchmarks"),
                      ({"protocol": "llm4cov"}, "protocol presets")):
        other = write_run(tmp_path / f"b-{len(words)}", plan, **kw)
        with pytest.raises(CompareError, match=words):
            compare_runs(base, other)
    llm4cov_a = write_run(tmp_path / "pa", plan, protocol="llm4cov")
    llm4cov_b = write_run(tmp_path / "pb", plan, protocol="llm4cov", seed=5)
    assert compare_runs(llm4cov_a, llm4cov_b, resamples=200).protocol == "llm4cov"
    old = write_run(tmp_path / "old", plan, protocol="")  # a config.json without protocol
    assert protocol_of(old) in ("ecov", "legacy")  # as RunConfig reads it (issue 11: "ecov")
    with pytest.raises(CompareError, match=f"RUN_A '{protocol_of(old)}', RUN_B 'llm4cov'"):
        compare_runs(old, llm4cov_a)
    disjoint = write_run(tmp_path / "d", {("zz", 0): [100.0]})
    with pytest.raises(CompareError, match="no finished"):
        compare_runs(base, disjoint)
    r = CliRunner().invoke(compare_cmd, [str(base), str(tmp_path / "nope")])
    assert r.exit_code == 2 and "cannot compare" in r.output and "not an ecov-eval run folder" in r.output


def test_compare_cli_text_and_json(tmp_path):
    a = write_run(tmp_path / "a", {(t, s): [60.0, 100.0 if i < 5 else 70.0] for i, t in enumerate(TASKS)
                                   for s in range(2)})
    b = write_run(tmp_path / "b", {(t, 0): [100.0] for t in TASKS})  # n = 1: pairs sample 0 only
    r = CliRunner().invoke(compare_cmd, [str(a), str(b), "--resamples", "500"])
    assert r.exit_code == 0, r.output
    assert "B wins 5, loses 0, ties 5" in r.output and "McNemar exact p = 0.0625" in r.output
    assert "10 samples have no partner" in r.output and "after round" in r.output
    r = CliRunner().invoke(compare_cmd, [str(a), str(b), "--json", "--resamples", "500", "--seed", "7"])
    d = json.loads(r.output)
    assert d["pass_rate"]["diff"] == 50.0 and d["method"]["seed"] == 7 and len(d["per_round"]) == 2


# ---- tables and export --------------------------------------------------------------------------------


def test_to_frame_rows_and_export_round_trips(tmp_path):
    run = write_run(tmp_path / "r", {("t0", 0): [40.0, None, 100.0], ("t1", 0): [30.0, 35.0, 50.0],
                                     ("t0", 1): [100.0]}, max_rounds=3)
    RunFolder(run).append_sample(sample_from_rounds("t2", 0, [], "model error: 500"))  # no rounds at all
    df = to_frame(run)
    assert len(df) == 3 + 3 + 1 + 1
    assert list(df.columns[:7]) == ["model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed"]
    t0 = df[(df.task_id == "t0") & (df["sample"] == 0)]
    assert list(t0["round"]) == [0, 1, 2] and list(t0["final"]) == [False, False, True]
    assert list(t0["passed"]) == [False, False, True] and t0["parse_error"].iloc[1] == "no code block"
    assert not t0["has_testbench"].iloc[1] and t0["overall"].iloc[1] == 40.0  # keeps x_t's result
    assert (t0["passed_round"] == 2).all() and t0["line"].iloc[2] == 100.0
    t2 = df[df.task_id == "t2"].iloc[0]
    assert pd.isna(t2["round"]) and t2["error"] == "model error: 500" and not t2["sample_passed"]
    for fmt in ("csv", "parquet", "jsonl"):
        r = CliRunner().invoke(export_cmd, [str(run), "--format", fmt, "--out", str(tmp_path / f"x.{fmt}")])
        assert r.exit_code == 0, r.output
        pd.testing.assert_frame_equal(read_frame(tmp_path / f"x.{fmt}"), df)
        s = samples_frame(run)
        pd.testing.assert_frame_equal(read_frame(write_frame(s, tmp_path / f"s.{fmt}")), s)
    assert len(samples_frame(run)) == 4
    r = CliRunner().invoke(export_cmd, [str(run), "--format", "csv", "--out", "-", "--level", "samples"])
    assert r.output.splitlines()[0].startswith("model,mode,agent") and len(r.output.splitlines()) == 5
    r = CliRunner().invoke(export_cmd, [str(tmp_path / "missing")])
    assert r.exit_code == 2 and "no config.json" in r.output


# ---- the random-hard record ---------------------------------------------------------------------------


def test_random_baseline_record_from_runs(tmp_path):
    bench = tmp_path / "bench"
    bench.mkdir()
    # t0 passes both modes; t1 agentic only (some samples); t2 never: the only random-hard task.
    direct = write_run(tmp_path / "d", {("t0", 0): [100.0], ("t0", 1): [100.0], ("t1", 0): [50.0],
                                        ("t1", 1): [50.0], ("t2", 0): [20.0], ("t2", 1): [30.0]},
                       model="builtin/random", mode="direct", max_rounds=1, benchmark=str(bench))
    agentic = write_run(tmp_path / "a", {("t0", 0): [100.0], ("t0", 1): [100.0], ("t1", 0): [50.0, 100.0],
                                         ("t1", 1): [50.0, 60.0], ("t2", 0): [20.0, 40.0], ("t2", 1): [30.0, 30.0]},
                        model="builtin/random", benchmark=str(bench))
    out = bench / "random_baseline.json"
    r = CliRunner().invoke(random_baseline_cmd, [str(bench), "--from-runs", str(direct), str(agentic)])
    assert r.exit_code == 0, r.output
    assert "fails 1 of 3 tasks" in r.output and "random-hard: t2" in r.output
    rec = RandomBaseline.from_dict(json.loads(out.read_text()))
    assert rec.random_hard == {"t2"} and rec.n == 2 and rec.protocol == protocol_of(agentic) and rec.max_rounds == 2
    assert (rec.tasks["t1"].direct, rec.tasks["t1"].agentic) == (0, 1) and rec.tasks["t2"].agentic_overall == 35.0
    assert record_path(str(bench)) == out and record_path(str(bench / "data")) is None  # not a folder there
    per_task = {"t0": {"pass_rate": 100.0, "samples": 1}, "t2": {"pass_rate": 50.0, "samples": 2}}
    assert random_hard_summary(str(bench), per_task) == {"pass_rate": 50.0, "tasks": 1, "of": 1}
    assert random_hard_summary(str(tmp_path / "nothing"), per_task) is None
    with pytest.raises(ValueError, match="expected builtin/random direct"):
        from_runs(agentic, agentic)
    r = CliRunner().invoke(random_baseline_cmd, ["org/hub-only", "--from-runs", str(direct), str(agentic)])
    assert r.exit_code == 2 and "--out" in r.output


def test_embedded_suite_record_matches_the_suite():
    from ecov.harness.benchmark.store import dataset_hash, load_benchmark
    from ecov.harness.evaluation.baseline import load_random_baseline

    rec = load_random_baseline("ecov-embedded")
    tasks = load_benchmark(None)
    assert rec is not None and rec.dataset_hash == dataset_hash(tasks)
    assert set(rec.tasks) == {t.id for t in tasks} and 0 < len(rec.random_hard) < len(tasks)
    assert {t.id: t.difficulty for t in tasks} == {t: b.difficulty for t, b in rec.tasks.items()}


# ---- builtin/reference --------------------------------------------------------------------------------


def test_reference_model_answers_with_the_reference_and_prompts_never_show_it():
    from ecov.harness.benchmark.store import load_benchmark
    from ecov.harness.tracks.sv.prompts import build_messages

    task = next(t for t in load_benchmark(None) if t.id == "updown_counter")
    model = get_model("builtin/reference")
    text = model.complete(ModelRequest(messages=[], task=task)).text
    parsed = parse_response(text)
    assert parsed.ok and parsed.testbench.strip() == task.reference_tbs[0].content.strip()
    body = task.reference_tbs[0].content.strip().splitlines()
    chat = "\n".join(m["content"] for m in build_messages(task))
    assert "\n".join(body[:6]) not in chat  # the reference testbench is never in a prompt
    two = task.__class__(**{**task.__dict__, "reference_tbs": [SourceFile("a.sv", "module tb; // A\nendmodule"),
                                                               SourceFile("b.sv", "module tb; // B\nendmodule")]})
    answers = [model.complete(ModelRequest(messages=[], task=two, round=r)).text for r in range(3)]
    assert "// A" in answers[0] and "// B" in answers[1] and "// B" in answers[2]
    none = task.__class__(**{**task.__dict__, "reference_tbs": []})
    with pytest.raises(ModelError, match="no reference testbench"):
        model.complete(ModelRequest(messages=[], task=none))


# ---- end to end on the real engine --------------------------------------------------------------------


def test_random_baseline_command_and_reference_win_end_to_end(tmp_path, monkeypatch):
    """On a one-task built benchmark (lock_fsm, which random stimulus fails), scored by Verilator:
    `ecov-data random-baseline` runs builtin/random and records the task as random-hard; builtin/reference
    passes it, its summary carries pass % on random-hard tasks, and compare reports the reference's win."""
    from ecov.harness.benchmark.store import dataset_hash, save_tasks
    from ecov.harness.cli.eval import _load_tasks, slug
    from ecov.harness.evaluation.report import format_summary
    from ecov.harness.evaluation.runner import run_eval

    monkeypatch.setenv("ECOV_CACHE_DIR", str(tmp_path / "cache"))
    bench = tmp_path / "bench"
    save_tasks(_load_tasks("ecov-embedded", "test", ("lock_fsm",), None), bench, fmt="jsonl")
    r = CliRunner().invoke(random_baseline_cmd, [str(bench), "-n", "1", "--max-rounds", "1", "--workers", "1",
                                                 "--runs", str(tmp_path / "runs")])
    assert r.exit_code == 0, r.output
    assert "fails 1 of 1 tasks" in r.output and (bench / "random_baseline.json").is_file()
    rec = RandomBaseline.from_dict(json.loads((bench / "random_baseline.json").read_text()))
    assert rec.random_hard == {"lock_fsm"} and rec.tasks["lock_fsm"].difficulty == "medium"
    b = rec.tasks["lock_fsm"]  # the floor (issue 32): testbenches that drive nothing, scored, below the target
    assert 0 <= b.empty_overall < b.idle_overall < 95 and not b.floor_meets and rec.measures_nothing == set()
    random_direct = tmp_path / "runs" / f"random-baseline_{slug(str(bench))}_direct"

    tasks = _load_tasks(str(bench), "test", (), None)
    cfg = RunConfig(model="builtin/reference", mode="direct", agent="direct", benchmark=str(bench),
                    dataset_hash=dataset_hash(tasks), max_rounds=1)
    outcome = run_eval(tasks, get_model("builtin/reference"), cfg, tmp_path / "ref", workers=1, progress=False)
    assert outcome.summary["random_hard"] == {"pass_rate": 100.0, "tasks": 1, "of": 1}
    assert outcome.summary["by_difficulty"] == {"medium": {"pass_rate": 100.0, "tasks": 1}}
    assert "pass % random-hard    100.0" in format_summary(outcome.summary)
    c = compare_runs(random_direct, tmp_path / "ref", resamples=200)
    assert (c.pass_rate.a, c.pass_rate.b) == (0.0, 100.0) and c.task_test.won == ["lock_fsm"]
    assert c.avg_overall.diff > 0 and c.task_test.p_value == 1.0  # one discordant task proves nothing
    assert to_frame(tmp_path / "ref")["status"].tolist() == ["ok"]
