"""Metrics: the unbiased pass@k estimator, per-round carry-forward, task weighting, sample records."""

from itertools import combinations
from math import isclose

import pytest

from ecov.harness.core.records import ScoreResult
from ecov.harness.core.run_folder import RoundRecord, SampleRecord
from ecov.harness.core.state import sample_from_rounds
from ecov.harness.evaluation.metrics import pass_at_k, summarize
from ecov.harness.evaluation.report import format_summary


def brute_pass_at_k(outcomes: list[bool], k: int) -> float:
    """The definition: the share of k-subsets of the samples holding at least one pass."""
    subsets = list(combinations(outcomes, k))
    return sum(any(s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("outcomes", [[True], [False], [True, False, False], [False, True, False, True, False],
                                      [True] * 4, [False] * 4 + [True]])
def test_pass_at_k_matches_its_definition(outcomes):
    n, c = len(outcomes), sum(outcomes)
    for k in range(1, n + 1):
        assert isclose(pass_at_k(n, c, k), brute_pass_at_k(outcomes, k))


def test_pass_at_k_rejects_k_out_of_range():
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 0)


def sample(task, s, overall, passed_round=None, syntax=True, tokens=(0, 0), cost=0.0, error=""):
    return SampleRecord(task_id=task, sample=s, rounds=len(overall), passed=passed_round is not None,
                        passed_round=passed_round, syntax_ok=syntax, final_overall=overall[-1] if overall else 0.0,
                        best_overall=max(overall, default=0.0), overall_by_round=overall,
                        prompt_tokens=tokens[0], completion_tokens=tokens[1], cost=cost, error=error)


def test_summary_per_round_carries_early_stops_forward_and_weighs_tasks_equally():
    samples = [
        # task a: 2 samples; s0 passes at round 1 (stops), s1 never passes in 3 rounds
        sample("a", 0, [50.0, 100.0], passed_round=1, tokens=(10, 5), cost=0.01),
        sample("a", 1, [20.0, 30.0, 40.0], syntax=False, tokens=(20, 5)),
        # task b: 1 sample passing at round 0
        sample("b", 0, [90.0], passed_round=0, tokens=(1, 1)),
    ]
    s = summarize(samples, max_rounds=3)
    # task a pass rate 50, task b 100 -> mean over tasks 75 (not 2/3 of samples)
    assert s["pass_rate"] == 75.0
    assert s["samples_passed"] == 2
    assert s["avg_overall"] == round(((100 + 40) / 2 + 90) / 2, 2)
    assert s["syntax_rate"] == 75.0
    assert [r["pass_rate"] for r in s["per_round"]] == [50.0, 75.0, 75.0]
    # r0: a (50+20)/2, b 90; r1: a (100+30)/2; r2: a (100 carried + 40)/2
    assert [r["avg_overall"] for r in s["per_round"]] == [62.5, 77.5, 80.0]
    assert s["pass_at_k"] == {"pass@1": 75.0, "pass@2": 100.0}  # pass@2 only over task a (n=2)
    assert s["per_task"]["a"] == {"samples": 2, "passed": 1, "pass_rate": 50.0, "best_overall": 100.0,
                                  "mean_overall": 70.0, "mean_overall_final": 70.0, "mean_overall_best": 70.0,
                                  "syntax_ok": 1, "errors": 0, "reasks": 0,
                                  "contract": False, "ecov_passed": 1, "ecov_pass_rate": 50.0,
                                  "measures_nothing": False}
    # No task has a contract: the ECov headline is the paper's pass %, round by round too.
    assert s["ecov_pass_rate"] == s["pass_rate"] and s["contract_tasks"] == 0
    assert [r["ecov_pass_rate"] for r in s["per_round"]] == [50.0, 75.0, 75.0]
    assert s["pass_at_k_any"] == {"pass@2": 100.0}  # the paper's any-of-n: a has a pass, b has a pass
    assert (s["prompt_tokens"], s["completion_tokens"], s["cost"]) == (31, 11, 0.01)
    assert summarize(list(reversed(samples)), max_rounds=3) == s  # order does not matter


def test_a_faulted_sample_is_left_out_of_every_figure():
    """A fault (model server, harness) is no result: never a 0 in pass % or coverage (issue 35)."""
    s = summarize([sample("a", 0, [], error="model error at round 1: 500"), sample("a", 1, [80.0], 0)], 2)
    assert s["pass_rate"] == 100.0 and s["model_errors"] == 1 and s["faulted_tasks"] == {"a": 1}
    assert s["samples"] == 1 and s["per_task"]["a"]["errors"] == 1
    assert s["per_round"][0]["avg_overall"] == 80.0


def _round(r, status, overall, passed, tokens=(3, 2)):
    res = ScoreResult(status=status, instance="uut", overall=overall)
    return RoundRecord(task_id="t", sample=0, round=r, prompt_hash="h", response="", testbench="x",
                       parse_error="", feedback="", result=res.to_dict(), passed=passed,
                       prompt_tokens=tokens[0], completion_tokens=tokens[1], cost=0.5)


def test_sample_from_rounds():
    rec = sample_from_rounds("t", 0, [_round(0, "compile_error", 0.0, False), _round(1, "ok", 70.0, False),
                                      _round(2, "ok", 95.5, True)])
    assert (rec.rounds, rec.passed, rec.passed_round, rec.syntax_ok) == (3, True, 2, True)
    assert rec.overall_by_round == [0.0, 70.0, 95.5] and rec.best_overall == 95.5
    assert (rec.prompt_tokens, rec.completion_tokens, rec.cost) == (9, 6, 1.5)
    failed = sample_from_rounds("t", 1, [], error="model error")
    assert (failed.passed, failed.syntax_ok, failed.final_overall, failed.error) == (False, False, 0.0,
                                                                                     "model error")


def test_report_table_shows_every_headline_number():
    s = summarize([sample("a", 0, [50.0, 100.0], passed_round=1), sample("a", 1, [10.0, 20.0])], 2)
    s["run"] = {"model": "m", "mode": "agentic", "agent": "memoryless", "n_samples": 2, "max_rounds": 2}
    text = format_summary(s)
    for needle in ("pass %", "50.0", "avg coverage %", "60.0", "syntax %", "pass@k", "pass@2 100.0",
                   "1: 0.0", "2: 50.0", "tokens", "cost"):
        assert needle in text, needle


def test_best_state_versus_final_round_under_each_protocol():
    # A regression: round 1 (88%) is the best state, round 2 falls back to 60% (still ran).
    rounds = [_round(0, "ok", 70.0, False), _round(1, "ok", 88.0, False), _round(2, "ok", 60.0, False)]
    for r in rounds:
        r.result["coverage"] = {"uut": {"overall": {"percent": 1, "covered": 1, "total": 1}}}
    l4c = sample_from_rounds("t", 0, rounds, protocol="llm4cov", stop_reason="rounds")
    assert (l4c.best_round, l4c.best_state_overall, l4c.final_overall) == (1, 88.0, 60.0)
    assert l4c.best_overall_by_round == [70.0, 88.0, 88.0] and l4c.protocol == "llm4cov"
    s = summarize([l4c], 3)
    assert (s["protocol"], s["avg_overall"], s["avg_overall_best"], s["avg_overall_final"]) == \
        ("llm4cov", 88.0, 88.0, 60.0)
    assert [r["avg_overall"] for r in s["per_round"]] == [70.0, 88.0, 88.0]
    assert [r["avg_overall_final"] for r in s["per_round"]] == [70.0, 88.0, 60.0]
    assert s["stop_reasons"] == {"rounds": 1} and s["avg_cov_definition"].startswith("best state")
    ecov = summarize([sample_from_rounds("t", 0, rounds, protocol="ecov")], 3)
    assert (ecov["protocol"], ecov["avg_overall"], ecov["avg_overall_best"]) == ("ecov", 60.0, 88.0)
    assert [r["avg_overall"] for r in ecov["per_round"]] == [70.0, 88.0, 60.0]


def test_best_state_ranks_a_run_above_coverage_and_a_pass_above_coverage():
    cov = {"uut": {"overall": {"percent": 1, "covered": 1, "total": 1}}}
    ran_low, passed_low, crashed = _round(0, "ok", 50.0, False), _round(1, "ok", 80.0, True), \
        _round(2, "crashed", 0.0, False)
    hi_fail = _round(3, "ok", 90.0, False)
    for r in (ran_low, passed_low, hi_fail):
        r.result["coverage"] = cov
    rec = sample_from_rounds("t", 0, [ran_low, passed_low, crashed, hi_fail], protocol="llm4cov")
    assert rec.best_round == 1 and rec.best_state_overall == 80.0  # met targets beats 90% without
    assert rec.passed and rec.passed_round == 1


def test_pass_at_n_any_of_n_beside_the_unbiased_estimator():
    samples = [sample("a", i, [10.0], passed_round=0 if i == 2 else None) for i in range(5)]
    samples += [sample("b", i, [10.0]) for i in range(5)]
    s = summarize(samples, 1)
    assert s["pass_at_k_any"] == {"pass@5": 50.0}  # a: one of five passed; b: none
    assert s["pass_at_k"]["pass@5"] == 50.0 and s["pass_at_k"]["pass@1"] == 10.0
    assert "any" in s["pass_at_k_labels"]["pass_at_k_any"] and "unbiased" in s["pass_at_k_labels"]["pass_at_k"]


def test_a_failed_simulation_counts_zero_in_the_best_state():
    timed_out = _round(0, "timeout", 30.0, False)  # partial coverage of a run that did not finish
    rec = sample_from_rounds("t", 0, [timed_out], protocol="llm4cov")
    assert (rec.best_round, rec.best_state_overall, rec.best_overall_by_round, rec.syntax_ok) == (0, 0.0, [0.0], False)
