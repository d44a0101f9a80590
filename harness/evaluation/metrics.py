"""Run metrics, pure: from finished samples to the numbers in summary.json (definitions: docs/evaluation.md).

- A sample passes when all of its task's targets are met at some round (the paper: its best state
  passes; the best state ranks passing above coverage, so the two agree).
- A sample's coverage (Avg Cov) is what its protocol says: the best state over rounds (llm4cov) or the
  final round (ecov); both are in every summary (avg_overall_best, avg_overall_final).
- pass@k (k <= n): per task the unbiased estimator 1 - C(n-c, k) / C(n, k) with n samples and c passing,
  averaged over the tasks that have at least k samples; beside it, the paper's any-of-n for k = n.
- Task-level averages first, then the mean over tasks, so every task weighs the same whatever its n.
- After round r a sample that stopped earlier carries its last state forward.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb
from statistics import mean
from typing import Any

from ecov.harness.core.protocol import AVG_COV_TEXT, Protocol, get_protocol
from ecov.harness.core.run_folder import SampleRecord


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task: the chance that k of its n samples, drawn without replacement, hold a pass."""
    if k < 1 or k > n:
        raise ValueError(f"pass@k needs 1 <= k <= n (k={k}, n={n})")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def best_state_overall(s: SampleRecord) -> float:
    """A sample's best-state overall; older records (no best state) fall back on the best round's."""
    return s.best_state_overall if s.best_state_overall is not None else s.best_overall


def sample_overall(s: SampleRecord, proto: Protocol) -> float:
    """A sample's coverage as its protocol defines Avg Cov: the best state (llm4cov) or the final round."""
    return best_state_overall(s) if proto.avg_cov == "best" else s.final_overall


PASS_AT_K_LABELS = {
    "pass_at_k": "unbiased estimator: per task 1 - C(n-c, k) / C(n, k), mean over tasks with n >= k",
    "pass_at_k_any": "as the LLM4Cov paper reports pass@n: share of tasks where any of the n samples passed",
}


def _pct(x: float) -> float:
    return round(100.0 * x, 2)


def _at(values: list[float], r: int) -> float:
    return values[min(r, len(values) - 1)] if values else 0.0


def _best_by_round(s: SampleRecord) -> list[float]:
    if s.best_overall_by_round:
        return s.best_overall_by_round
    out, best = [], 0.0  # older records: the running best of the rounds' overall
    for v in s.overall_by_round:
        best = max(best, v)
        out.append(best)
    return out


def _state_after(s: SampleRecord, r: int, proto: Protocol | None = None) -> tuple[bool, float]:
    """(passed, overall) of a sample after round r, carrying its last round forward; overall is the best
    state so far under a protocol whose Avg Cov is the best state, else the round's own."""
    passed = s.passed_round is not None and s.passed_round <= r
    if proto is not None and proto.avg_cov == "best":
        return passed, _at(_best_by_round(s), r)
    return passed, _at(s.overall_by_round, r)


def pass_any_of_n(by_task: dict[str, list[SampleRecord]]) -> float:
    """The paper's pass@k for k = n: the share of tasks with at least one passing sample, in %."""
    if not by_task:
        return 0.0
    return _pct(mean(float(any(s.passed for s in ss)) for ss in by_task.values()))


def sim_pass_cov(samples: list[SampleRecord], proto: Protocol) -> float:
    """The released code's ``mean_sim_pass_cov@1``: per sample index, the mean coverage of the samples
    whose state ran; then the mean over sample indices."""
    by_index: dict[int, list[float]] = defaultdict(list)
    for s in samples:
        if s.syntax_ok:
            by_index[s.sample].append(sample_overall(s, proto))
    return round(mean(mean(v) for v in by_index.values()), 2) if by_index else 0.0


def summarize(samples: list[SampleRecord], max_rounds: int, n_tasks_expected: int | None = None,
              protocol: str | Protocol | None = None, contracts: dict[str, int] | None = None,
              measures_nothing: set[str] | frozenset[str] | None = None) -> dict[str, Any]:
    """summary.json's metrics. Deterministic: the same samples (in any order) give the same dict.

    ``protocol`` defines a sample's coverage (Avg Cov); None takes it from the samples (else the default).
    ``contracts``: the benchmark's tasks that carry a contract, each with its bin count, when the caller
    knows them (the site); None reads them from the samples' records. ``measures_nothing``: the tasks whose
    targets a testbench that drives nothing meets (the benchmark's random-baseline record): the ECov
    headline leaves them out.
    """
    proto = get_protocol(protocol or next((s.protocol for s in samples if s.protocol), None))
    # A sample that ended on a fault (a model server, the harness) is no result: never a 0 in a figure.
    # The run is incomplete until a resume redoes it (build_summary counts and names the faults).
    faulted: dict[str, int] = defaultdict(int)
    for s in samples:
        if s.error:
            faulted[s.task_id] += 1
    samples = [s for s in samples if not s.error]
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
            "best_overall": round(max(sample_overall(s, proto) for s in ss), 2),
            "mean_overall": round(mean(sample_overall(s, proto) for s in ss), 2),
            "mean_overall_final": round(mean(s.final_overall for s in ss), 2),
            "mean_overall_best": round(mean(best_state_overall(s) for s in ss), 2),
            "syntax_ok": sum(s.syntax_ok for s in ss),
            "errors": faulted.get(t, 0),
            "reasks": sum(s.reasks for s in ss),
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
            "avg_overall": task_mean(lambda s, r=r: _state_after(s, r, proto)[1]),
            "avg_overall_final": task_mean(lambda s, r=r: _at(s.overall_by_round, r)),
            "avg_overall_best": task_mean(lambda s, r=r: _at(_best_by_round(s), r)),
        })
    stops: dict[str, int] = defaultdict(int)
    for s in samples:
        stops[s.stop_reason or "unknown"] += 1

    summary = {
        "protocol": proto.name,
        "tasks": len(tasks),
        "tasks_expected": n_tasks_expected if n_tasks_expected is not None else len(tasks),
        "samples": len(samples),
        "samples_passed": sum(s.passed for s in samples),
        "pass_rate": task_mean(lambda s: 100.0 * s.passed),
        "avg_overall": task_mean(lambda s: sample_overall(s, proto)),
        "avg_cov_definition": AVG_COV_TEXT[proto.avg_cov],
        "avg_overall_final": task_mean(lambda s: s.final_overall),
        "avg_overall_best": task_mean(best_state_overall),
        "avg_overall_sim_pass": sim_pass_cov(samples, proto),
        "best_overall": round(mean(per_task[t]["best_overall"] for t in tasks), 2) if tasks else 0.0,
        "syntax_rate": task_mean(lambda s: 100.0 * s.syntax_ok),
        "avg_rounds": round(mean(s.rounds for s in samples), 3) if samples else 0.0,
        "pass_at_k": pass_k,
        "pass_at_k_any": {f"pass@{n_max}": pass_any_of_n(by_task)} if n_max else {},
        "pass_at_k_labels": dict(PASS_AT_K_LABELS),
        "reasks": sum(s.reasks for s in samples),
        "samples_reasked": sum(s.reasks > 0 for s in samples),
        "format_failures": sum(s.stop_reason == "format" for s in samples),
        "stop_reasons": dict(sorted(stops.items())),
        "per_round": per_round,
        "model_errors": sum(faulted.values()),
        # tasks -> samples that ended on a fault (left out of every figure above)
        "faulted_tasks": dict(sorted(faulted.items())),
        "prompt_tokens": sum(s.prompt_tokens for s in samples),
        "completion_tokens": sum(s.completion_tokens for s in samples),
        "cost": round(sum(s.cost for s in samples), 6),
        "per_task": per_task,
    }
    summary["legal"] = legal_summary(by_task, max_rounds, per_task, contracts)
    summary.update(ecov_summary(by_task, summary["per_round"], per_task, contracts, measures_nothing))
    if proto.bughunt:  # other protocols' summaries keep their keys
        summary["bughunt"] = bughunt_summary(by_task, max_rounds, per_task)
    return summary


BUGHUNT_TEXT = ("bug hunt (issue 31): a sample's kill rate is the share of its task's killable mutants its final "
                "testbench caught (0 on a false alarm: a failure on the golden design); it passes when that meets "
                "the task's target; means over the tasks that have mutants, every task weighing the same")


def bughunt_summary(by_task: dict[str, list[SampleRecord]], max_rounds: int,
                    per_task: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``summary["bughunt"]``: kill rate and pass % over the tasks with killable mutants, the mutants they
    hold, the false alarms, each final status's count, per round too. Adds per-task bug-hunt figures."""
    tasks = sorted(t for t, ss in by_task.items() if any(s.bughunt.get("total") for s in ss))

    def task_mean(f) -> float:
        return round(mean(mean(f(s) for s in by_task[t]) for t in tasks), 2) if tasks else 0.0

    def rate_after(s: SampleRecord, r: int) -> float:
        return float(_at(s.bughunt.get("kill_rate_by_round") or [], r))

    statuses: dict[str, int] = defaultdict(int)
    for t in tasks:
        ss = by_task[t]
        for s in ss:
            statuses[s.bughunt.get("status") or "unknown"] += 1
        per_task[t]["bughunt_mutants"] = max(int(s.bughunt.get("total") or 0) for s in ss)
        per_task[t]["bughunt_kill_rate"] = round(mean(float(s.bughunt.get("kill_rate") or 0.0) for s in ss), 2)
        per_task[t]["bughunt_passed"] = sum(bool(s.bughunt.get("passed")) for s in ss)
        per_task[t]["bughunt_false_alarms"] = sum(bool(s.bughunt.get("false_alarm")) for s in ss)
    return {
        "definition": BUGHUNT_TEXT,
        "tasks": len(tasks),
        "mutants": sum(per_task[t]["bughunt_mutants"] for t in tasks),
        "samples": sum(len(by_task[t]) for t in tasks),
        "kill_rate": task_mean(lambda s: float(s.bughunt.get("kill_rate") or 0.0)),
        "pass_rate": task_mean(lambda s: 100.0 * bool(s.bughunt.get("passed"))),
        "false_alarms": sum(bool(s.bughunt.get("false_alarm")) for t in tasks for s in by_task[t]),
        "killed": sum(int(s.bughunt.get("killed") or 0) for t in tasks for s in by_task[t]),
        "statuses": dict(sorted(statuses.items())),
        "per_round": [{"round": r, "kill_rate": task_mean(lambda s, r=r: rate_after(s, r))} for r in range(max_rounds)],
    }


LEGAL_TEXT = ("tasks with an interface contract (issue 22): a sample passes legally when its targets are met "
              "on the coverage reached before its testbench first broke one of the spec's input rules")


def contract_tasks(by_task: dict[str, list[SampleRecord]], contracts: dict[str, int] | None = None) -> list[str]:
    """The run's tasks that carry a contract: those the benchmark names (``contracts``), else those whose
    samples recorded legal figures. A task the benchmark names counts even when its records carry none:
    a run cannot drop its contracts by leaving their figures out."""
    return sorted(t for t, ss in by_task.items() if any(s.contract for s in ss) or t in (contracts or {}))


def legal_summary(by_task: dict[str, list[SampleRecord]], max_rounds: int,
                  per_task: dict[str, dict[str, Any]], contracts: dict[str, int] | None = None) -> dict[str, Any]:
    """``summary["legal"]``: pass % and coverage over the tasks that have a contract, per round too.
    ``tasks`` is 0 (and the rates 0) when none of the run's tasks has one. Adds per-task legal figures."""
    tasks = contract_tasks(by_task, contracts)

    def task_mean(f) -> float:
        return round(mean(mean(f(s) for s in by_task[t]) for t in tasks), 2) if tasks else 0.0

    def passed_by(s: SampleRecord, r: int) -> bool:
        return s.legal_passed_round is not None and s.legal_passed_round <= r

    for t in tasks:
        ss = by_task[t]
        per_task[t]["legal_passed"] = sum(s.legal_passed_round is not None for s in ss)
        per_task[t]["legal_best_overall"] = round(max(max(s.legal_overall_by_round, default=0.0) for s in ss), 2)
    bins = bins_summary({t: by_task[t] for t in tasks}, per_task, contracts)
    return {
        "definition": LEGAL_TEXT,
        "tasks": len(tasks),
        "samples": sum(len(by_task[t]) for t in tasks),
        "samples_passed": sum(s.legal_passed_round is not None for t in tasks for s in by_task[t]),
        "pass_rate": task_mean(lambda s: 100.0 * (s.legal_passed_round is not None)),
        "paper_pass_rate": task_mean(lambda s: 100.0 * s.passed),
        "avg_overall_best": task_mean(lambda s: max(s.legal_overall_by_round, default=0.0)),
        "samples_violating": sum(s.violated for t in tasks for s in by_task[t]),
        "per_round": [{"round": r, "pass_rate": task_mean(lambda s, r=r: 100.0 * passed_by(s, r))}
                      for r in range(max_rounds)],
        **bins,
    }


BINS_TEXT = ("the contract's bins (named stimulus situations) a sample's testbench reached before its first broken "
             "rule, its best round; per task the mean over samples, summed over the contract tasks")


def bins_summary(by_task: dict[str, list[SampleRecord]], per_task: dict[str, dict[str, Any]],
                 contracts: dict[str, int] | None = None) -> dict[str, Any]:
    """``bins_hit`` of ``bins`` over the contract tasks ``by_task`` (a legal pass needs every bin): a
    task's total is its contract's bin count (``contracts``, else the most its samples recorded), its hits
    the mean over samples; samples from before bins were recorded count as unknown, and a task with only
    those is left out (``bins_unknown_tasks``). Adds per-task ``legal_bins_hit`` / ``legal_bins``."""
    hit = total = 0.0
    unknown = 0
    for t, ss in sorted(by_task.items()):
        known = [s for s in ss if s.legal_bins is not None]
        n = (contracts or {}).get(t) or max((s.legal_bins or 0 for s in known), default=0)
        if not known:
            unknown += 1
            continue
        mean_hit = round(mean(float(s.legal_bins_hit or 0) for s in known), 2)
        per_task[t]["legal_bins_hit"], per_task[t]["legal_bins"] = mean_hit, n
        hit, total = hit + mean_hit, total + n
    return {"bins_hit": round(hit, 2), "bins": int(total),
            "bins_pct": round(100.0 * hit / total, 2) if total else None,
            "bins_unknown_tasks": unknown, "bins_definition": BINS_TEXT}


ECOV_TEXT = ("pass % over every task of the run (mean over tasks of each task's pass rate over its samples), where "
             "a task with an interface contract counts only its legal pass: targets met on the coverage reached "
             "before the testbench first broke one of the spec's input rules; a task whose targets a testbench "
             "that drives nothing meets measures nothing and is left out")
PAPER_PASS_TEXT = ("pass % as the LLM4Cov paper defines it (every target met on the whole run's coverage, input "
                   "rules not checked), measured here; not a figure from the paper")


def ecov_passed(s: SampleRecord, contract: bool, r: int | None = None) -> bool:
    """Whether a sample counts as passed in the ECov headline (after round r; None: at any round)."""
    first = s.legal_passed_round if contract else s.passed_round
    return first is not None and (r is None or first <= r)


def ecov_summary(by_task: dict[str, list[SampleRecord]], per_round: list[dict[str, Any]],
                 per_task: dict[str, dict[str, Any]], contracts: dict[str, int] | None = None,
                 measures_nothing: set[str] | frozenset[str] | None = None) -> dict[str, Any]:
    """The headline: ``ecov_pass_rate`` beside the paper's ``pass_rate`` (issue 32), per round and per
    task too; ``contract_tasks`` says how many of the run's tasks count their legal pass, and
    ``measures_nothing`` which of them the headline leaves out (a testbench that drives nothing meets
    their targets: a pass there says nothing of the testbench)."""
    with_contract = set(contract_tasks(by_task, contracts))
    nothing = sorted(set(by_task) & set(measures_nothing or ()))
    tasks = sorted(set(by_task) - set(nothing))

    def rate(t: str, r: int | None = None) -> float:
        ss = by_task[t]
        return 100.0 * mean(ecov_passed(s, t in with_contract, r) for s in ss)

    for t in sorted(by_task):
        per_task[t]["contract"] = t in with_contract
        per_task[t]["ecov_passed"] = sum(ecov_passed(s, t in with_contract) for s in by_task[t])
        per_task[t]["ecov_pass_rate"] = round(rate(t), 2)
        per_task[t]["measures_nothing"] = t in nothing
    for row in per_round:
        row["ecov_pass_rate"] = round(mean(rate(t, row["round"]) for t in tasks), 2) if tasks else 0.0
    return {
        "ecov_pass_rate": round(mean(rate(t) for t in tasks), 2) if tasks else 0.0,
        "ecov_pass_rate_definition": ECOV_TEXT,
        "ecov_tasks": len(tasks),
        "measures_nothing": nothing,
        "pass_rate_definition": PAPER_PASS_TEXT,
        "contract_tasks": len(with_contract),
    }
