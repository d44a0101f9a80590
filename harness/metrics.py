"""Run metrics, pure: from finished samples to the numbers in summary.json (definitions: docs/evaluation.md).

- A sample passes when all of its task's targets are met at some round; the agent stops at the first
  such round, so that round is also its final one (the paper: passed if met within the rounds).
- pass@k (k <= n): per task the unbiased estimator 1 - C(n-c, k) / C(n, k) with n samples and c passing,
  averaged over the tasks that have at least k samples.
- Task-level averages first, then the mean over tasks, so every task weighs the same whatever its n.
- After round r a sample that stopped earlier carries its last state forward.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb
from statistics import mean
from typing import Any

from harness.records import ScoreResult
from harness.results import RoundRecord, SampleRecord


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task: the chance that k of its n samples, drawn without replacement, hold a pass."""
    if k < 1 or k > n:
        raise ValueError(f"pass@k needs 1 <= k <= n (k={k}, n={n})")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def sample_from_rounds(task_id: str, sample: int, rounds: list[RoundRecord], error: str = "") -> SampleRecord:
    """The SampleRecord of one sample's rounds (in order); no rounds (model failed at once) is a failure."""
    results = [ScoreResult.from_dict(r.result) for r in rounds]
    overall = [round(res.overall, 4) for res in results]
    passed_round = next((r.round for r in rounds if r.passed), None)
    return SampleRecord(
        task_id=task_id,
        sample=sample,
        rounds=len(rounds),
        passed=passed_round is not None,
        passed_round=passed_round,
        syntax_ok=bool(results) and results[-1].syntax_ok,
        final_overall=overall[-1] if overall else 0.0,
        best_overall=max(overall, default=0.0),
        overall_by_round=overall,
        prompt_tokens=sum(r.prompt_tokens for r in rounds),
        completion_tokens=sum(r.completion_tokens for r in rounds),
        cost=round(sum(r.cost for r in rounds), 8),
        error=error,
    )


def _pct(x: float) -> float:
    return round(100.0 * x, 2)


def _state_after(s: SampleRecord, r: int) -> tuple[bool, float]:
    """(passed, overall) of a sample after round r, carrying its last round forward."""
    passed = s.passed_round is not None and s.passed_round <= r
    cov = s.overall_by_round[min(r, len(s.overall_by_round) - 1)] if s.overall_by_round else 0.0
    return passed, cov


def summarize(samples: list[SampleRecord], max_rounds: int, n_tasks_expected: int | None = None) -> dict[str, Any]:
    """summary.json's metrics. Deterministic: the same samples (in any order) give the same dict."""
    by_task: dict[str, list[SampleRecord]] = defaultdict(list)
    for s in sorted(samples, key=lambda s: (s.task_id, s.sample)):
        by_task[s.task_id].append(s)
    tasks = sorted(by_task)
    n_max = max((len(v) for v in by_task.values()), default=0)

    per_task = {}
    for t in tasks:
        ss = by_task[t]
        c = sum(s.passed for s in ss)
        per_task[t] = {
            "samples": len(ss),
            "passed": c,
            "pass_rate": _pct(c / len(ss)),
            "best_overall": round(max(s.final_overall for s in ss), 2),
            "mean_overall": round(mean(s.final_overall for s in ss), 2),
            "syntax_ok": sum(s.syntax_ok for s in ss),
            "errors": sum(bool(s.error) for s in ss),
        }

    def task_mean(f) -> float:
        return round(mean(mean(f(s) for s in by_task[t]) for t in tasks), 2) if tasks else 0.0

    pass_k = {}
    for k in range(1, n_max + 1):
        eligible = [t for t in tasks if len(by_task[t]) >= k]
        pass_k[f"pass@{k}"] = _pct(mean(pass_at_k(len(by_task[t]), per_task[t]["passed"], k) for t in eligible))

    per_round = []
    for r in range(max_rounds):
        per_round.append({
            "round": r,
            "pass_rate": round(task_mean(lambda s, r=r: 100.0 * _state_after(s, r)[0]), 2),
            "avg_overall": task_mean(lambda s, r=r: _state_after(s, r)[1]),
        })

    return {
        "tasks": len(tasks),
        "tasks_expected": n_tasks_expected if n_tasks_expected is not None else len(tasks),
        "samples": len(samples),
        "samples_passed": sum(s.passed for s in samples),
        "pass_rate": task_mean(lambda s: 100.0 * s.passed),
        "avg_overall": task_mean(lambda s: s.final_overall),
        "best_overall": round(mean(per_task[t]["best_overall"] for t in tasks), 2) if tasks else 0.0,
        "syntax_rate": task_mean(lambda s: 100.0 * s.syntax_ok),
        "avg_rounds": round(mean(s.rounds for s in samples), 3) if samples else 0.0,
        "pass_at_k": pass_k,
        "per_round": per_round,
        "model_errors": sum(bool(s.error) for s in samples),
        "prompt_tokens": sum(s.prompt_tokens for s in samples),
        "completion_tokens": sum(s.completion_tokens for s in samples),
        "cost": round(sum(s.cost for s in samples), 6),
        "per_task": per_task,
    }
