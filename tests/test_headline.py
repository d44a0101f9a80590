"""The ECov headline (issue 32): ``ecov_pass_rate`` beside the paper's pass %, where a task with an interface
contract counts only its legal pass, and the contract bins reported per sample and per run; in summary.json,
``ecov-eval report``, ``compare`` and ``export``. The pages are tested in test_leaderboard_browser.py.
"""

from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from ecov.harness.cli.eval import export_cmd
from ecov.harness.core.records import OK, ScoreResult
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder
from ecov.harness.core.state import sample_from_rounds
from ecov.harness.evaluation.compare import compare_runs, format_comparison
from ecov.harness.evaluation.metrics import summarize
from ecov.harness.evaluation.report import format_summary
from ecov.harness.evaluation.runner import build_summary
from ecov.harness.evaluation.tables import read_frame, samples_frame, tasks_frame, to_frame, write_frame


def _round(task: str, r: int, passed: bool, legal: bool | None, *, bins: tuple[str, ...] = (), total: int = 4,
           rule: str = "", count: int = 0, status: str = OK, sample: int = 0) -> RoundRecord:
    """A scored round; ``legal`` None: the task has no contract. A broken ``rule`` first broke at 225 ns."""
    cov = {"u": {"overall": {"percent": 90.0, "covered": 9, "total": 10}}}
    res = ScoreResult(status=status, instance="u", coverage=cov if status == OK else {}, overall=90.0)
    if legal is not None and status == OK:
        res.legal = {"overall": 90.0 if not rule else 30.0, "coverage": cov,
                     "violation": {"rule": rule, "time_ns": 225, "ports": ["a"], "spec": "a holds"} if rule else None,
                     "violations": {rule: count} if rule else {}, "bins": list(bins), "bins_all": list(bins),
                     "bins_total": total}
    return RoundRecord(task_id=task, sample=sample, round=r, prompt_hash="", response="", testbench=f"tb {r}",
                       parse_error="", feedback="", result=res.to_dict(), passed=passed, legal_passed=legal)


def _samples():
    return [
        # a: contract; passes on the whole run, but broke a rule: no legal pass
        sample_from_rounds("a", 0, [_round("a", 0, True, False, bins=("x",), rule="hold", count=21271)]),
        # b: contract; passes legally at round 1, 3 of 4 bins there
        sample_from_rounds("b", 0, [_round("b", 0, False, False, bins=("x",)),
                                    _round("b", 1, True, True, bins=("x", "y", "z"))]),
        # c: no contract, passes; d: no contract, fails
        sample_from_rounds("c", 0, [_round("c", 0, True, None)]),
        sample_from_rounds("d", 0, [_round("d", 0, False, None), _round("d", 1, False, None)]),
    ]


def test_ecov_pass_rate_counts_only_the_legal_pass_of_contract_tasks():
    s = summarize(_samples(), 2)
    assert s["pass_rate"] == 75.0  # the paper's: a, b, c pass
    assert s["ecov_pass_rate"] == 50.0 and s["contract_tasks"] == 2  # a does not count: it broke a rule
    assert [r["ecov_pass_rate"] for r in s["per_round"]] == [25.0, 50.0]  # b passes legally at round 1
    assert [r["pass_rate"] for r in s["per_round"]] == [50.0, 75.0]
    pt = s["per_task"]
    assert (pt["a"]["contract"], pt["a"]["ecov_passed"], pt["a"]["ecov_pass_rate"]) == (True, 0, 0.0)
    assert (pt["c"]["contract"], pt["c"]["ecov_pass_rate"]) == (False, 100.0)
    assert "legal pass" in s["ecov_pass_rate_definition"] and "not a figure from the paper" in s["pass_rate_definition"]


def test_a_task_that_measures_nothing_is_left_out_of_the_headline(tmp_path):
    """A task whose targets a testbench that drives nothing meets (autoeval's Prob003_step_one) says nothing
    of the testbench: out of ecov_pass_rate (per round too), still in the paper's pass %, and named."""
    s = summarize(_samples(), 2, measures_nothing={"c", "not_in_run"})
    assert s["pass_rate"] == 75.0  # the paper's figure keeps every task
    assert s["ecov_pass_rate"] == round(100 / 3, 2) and s["ecov_tasks"] == 3  # a, b, d: b passes legally
    assert s["measures_nothing"] == ["c"] and s["per_task"]["c"]["measures_nothing"]
    assert [r["ecov_pass_rate"] for r in s["per_round"]] == [0.0, round(100 / 3, 2)]
    assert "drives nothing" in s["ecov_pass_rate_definition"]
    line = next(x for x in format_summary({**s, "run": {"mode": "agentic"}}).splitlines() if "ECov pass %" in x)
    assert "3 of 4 tasks: 1 whose targets a testbench that drives nothing meets are left out (c)" in line
    # The runner and verify take the list from the benchmark's random-baseline record.
    from ecov.harness.evaluation.baseline import measures_nothing_tasks
    assert measures_nothing_tasks("autoeval-ecov") >= {"Prob003_step_one", "Prob035_count1to10"}
    assert measures_nothing_tasks("cvdp-ecov") == {"cvdp_copilot_asyc_reset_0004"}
    assert measures_nothing_tasks("ecov-embedded") == set()


def test_bins_per_sample_and_per_run():
    samples = _samples()
    a, b, c = samples[0], samples[1], samples[2]
    assert (a.legal_bins_hit, a.legal_bins) == (1, 4)
    assert (b.legal_bins_hit, b.legal_bins) == (3, 4)  # the most one round hit
    assert (c.legal_bins_hit, c.legal_bins) == (None, None)  # no contract
    lg = summarize(samples, 2)["legal"]
    assert (lg["bins_hit"], lg["bins"], lg["bins_pct"], lg["bins_unknown_tasks"]) == (4.0, 8, 50.0, 0)
    # A round that did not run hits no bins; a task whose every sample failed to compile takes its bin
    # count from the benchmark's contract when the caller knows it.
    broken = sample_from_rounds("e", 0, [_round("e", 0, False, False, status="compile_error")])
    assert (broken.legal_bins_hit, broken.legal_bins) == (0, 0)
    lg = summarize([*samples, broken], 2, contracts={"a": 4, "b": 4, "e": 6})["legal"]
    assert (lg["bins_hit"], lg["bins"]) == (4.0, 14)
    # Samples from before bins were recorded: unknown, not 0 of 0.
    old = [sample_from_rounds("a", 0, [_round("a", 0, True, True, bins=("x",))])]
    old[0].legal_bins_hit = old[0].legal_bins = None
    lg = summarize(old, 1)["legal"]
    assert lg["bins"] == 0 and lg["bins_pct"] is None and lg["bins_unknown_tasks"] == 1


def test_a_run_cannot_drop_its_contracts_by_leaving_out_their_figures():
    """Legal figures stripped from the records (contract False, no legal verdict) would read as a run
    without contracts: the benchmark's contract list (the site passes it) counts those tasks legally."""
    stripped = [sample_from_rounds("a", 0, [_round("a", 0, True, None)]),
                sample_from_rounds("c", 0, [_round("c", 0, True, None)])]
    assert summarize(stripped, 1)["ecov_pass_rate"] == 100.0  # from the records alone
    s = summarize(stripped, 1, contracts={"a": 4})
    assert s["ecov_pass_rate"] == 50.0 and s["contract_tasks"] == 1 and s["legal"]["tasks"] == 1
    assert s["legal"]["pass_rate"] == 0.0 and s["per_task"]["a"]["legal_passed"] == 0


def test_report_leads_with_the_headline_and_labels_the_paper_figure():
    s = {**summarize(_samples(), 2), "run": {"mode": "agentic"}}
    text = format_summary(s)
    lines = text.splitlines()
    ecov = next(i for i, line in enumerate(lines) if line.strip().startswith("ECov pass %"))
    assert lines[ecov].split()[3] == "50.0" and "2 of 4 tasks with an interface contract" in lines[ecov]
    paper = lines[ecov + 1]
    assert paper.strip().startswith("pass % (paper def.)") and "75.0" in paper and "measured here" in paper
    assert "contract bins         4 of 8 hit (50.0%)" in text
    assert "ECov pass % by round  1: 25.0  2: 50.0" in text
    a_row = next(line for line in lines if line.strip().startswith("a "))
    assert a_row.split()[-3:] == ["0/1", "30.0", "1/4"]  # legal passes, legal cov, bins


def _write(root, samples_rounds: dict[tuple[str, int], list[RoundRecord]], model: str = "m"):
    folder = RunFolder(root)
    tasks = sorted({t for t, _ in samples_rounds})
    folder.write_config(RunConfig(model=model, mode="agentic", agent="memoryless", benchmark="bench",
                                  dataset_hash="sha256:abc", n_samples=1, max_rounds=2, seed=1, task_ids=tasks))
    for (task, sample), recs in sorted(samples_rounds.items()):
        for rec in recs:
            folder.append_round(rec)
        folder.append_sample(sample_from_rounds(task, sample, recs))
    folder.write_summary(build_summary(folder))
    return root


def test_summary_json_compare_and_export_carry_the_headline(tmp_path):
    illegal = {("a", 0): [_round("a", 0, True, False, bins=("x",), rule="hold", count=7)],
               ("c", 0): [_round("c", 0, True, None)]}
    legal = {("a", 0): [_round("a", 0, True, True, bins=("x", "y"))], ("c", 0): [_round("c", 0, True, None)]}
    run_a, run_b = _write(tmp_path / "a", illegal), _write(tmp_path / "b", legal)
    summary = RunFolder(run_a).read_summary()
    assert (summary["pass_rate"], summary["ecov_pass_rate"], summary["contract_tasks"]) == (100.0, 50.0, 1)
    assert (summary["legal"]["bins_hit"], summary["legal"]["bins"]) == (1.0, 4)

    comp = compare_runs(run_a, run_b, resamples=200)
    assert (comp.ecov_pass_rate.a, comp.ecov_pass_rate.b, comp.ecov_pass_rate.diff) == (50.0, 100.0, 50.0)
    assert comp.pass_rate.diff == 0.0  # the paper's figure cannot tell them apart
    text = format_comparison(comp)
    assert text.index("ECov pass %") < text.index("pass % (paper)")

    tasks = tasks_frame(run_a)
    assert tasks["ecov_pass_rate"].tolist() == [0.0, 100.0] and tasks["pass_rate"].tolist() == [100.0, 100.0]
    assert tasks["ecov_pass_rate"].mean() == summary["ecov_pass_rate"]
    assert tasks["contract"].tolist() == [True, False] and pd.isna(tasks.loc[1, "legal_bins"])
    rounds = to_frame(run_a).set_index("task_id")
    assert rounds.loc["a", "violation_rule"] == "hold" and rounds.loc["a", "violation_ns"] == 225
    assert (rounds.loc["a", "violations"], rounds.loc["a", "bins_hit"], rounds.loc["a", "bins"]) == (7, 1, 4)
    assert not rounds.loc["a", "ecov_passed"] and rounds.loc["a", "passed"] and rounds.loc["c", "ecov_passed"]
    samples = samples_frame(run_a).set_index("task_id")
    assert (samples.loc["a", "legal_bins_hit"], samples.loc["a", "violated"]) == (1, True)
    for frame, name in ((tasks, "tasks"), (to_frame(run_a), "rounds"), (samples_frame(run_a), "samples")):
        for fmt in ("csv", "parquet", "jsonl"):  # every legal column reads back with its type
            pd.testing.assert_frame_equal(read_frame(write_frame(frame, tmp_path / f"{name}.{fmt}")), frame)
    r = CliRunner().invoke(export_cmd, [str(run_a), "--level", "tasks", "--out", "-"])
    assert r.exit_code == 0 and r.output.splitlines()[0].split(",").count("ecov_pass_rate") == 1
