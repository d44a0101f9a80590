"""llm4cov recipe, step 1: which of the student's direct-inference answers become rollout start states.

The rules are those of the authors' ``scripts/select_direct_infer_samples.py`` (and
``select_direct_infer_samples_ablation.py`` for best / random), applied per task to the samples of
``ecov-eval --mode direct -n N`` run folders:

* **xrun_fail**: the first sample (lowest sample index) whose testbench did not compile or did not run
  to its end (their ``is_pass_xrun`` is false). Infra errors are the harness's failures, not the
  student's, and are never selected.
* candidates: samples that ran and have coverage, with overall coverage below 100%
  (``_select_candidates``: ``overall_coverage < 1.0``).
* **worst**: the candidate with the lowest overall coverage (ties: lowest sample index).
* **median**: the lower median of the *distinct* overall coverages ((n - 1) // 2 of the sorted unique
  values), ties to the lowest sample index.
* with ``prioritize_worst`` (their ``--prioritize-worst``): worst always, median too when
  ``median - worst > spread``; without it (the script's CLI default): median always, worst when the gap
  exceeds ``spread``. Coverage there is a fraction (``actual_cov * 100 < target_percentage`` in
  ``datasets/eval.py``), so ``spread = 0.1`` is 10 points of ECov's overall %.
* ablations: **best** is the maximum of (ran, passed targets, overall, sample) among samples below 100%;
  **random** a seeded draw among them (``per_task`` of each).

A sample whose answer gave no testbench is never a state (the released query re-asks until it parses).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ecov.harness.core.records import INFRA_ERROR
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.tasks import Task
from ecov.trainers.runview import RunView, view_of
from ecov.trainers.synth import State

XRUN_FAIL, WORST, MEDIAN, BEST, RANDOM = "xrun_fail", "worst", "median", "best", "random"


class NotDirectRun(ValueError):
    """A source run folder is not a direct-inference run (the llm4cov recipe selects from those)."""


@dataclass
class DirectStats:
    samples: int = 0
    states: int = 0
    no_testbench: int = 0  # the answer gave no testbench: no state
    infra_error: int = 0  # the harness failed: not the student's state
    unknown_task: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def frac(state: State) -> float:
    """Overall coverage as the fraction the released code compares (ECov stores percent)."""
    return state.coverage / 100.0


def ran(state: State) -> bool:
    """Their is_pass_xrun and has_coverage: compiled and ran to its end (ScoreResult.ran)."""
    return state.status in ("ok", "no_finish")


def require_direct(run: RunFolder) -> None:
    """Refuse a folder that is not a direct-inference run, from its config alone."""
    _require_direct(run.root, run.read_config() if run.exists() else None)


def _require_direct(root, config) -> None:
    if config is None:
        raise FileNotFoundError(f"not an ecov-eval run folder (no config.json): {root}")
    if config.mode != "direct":
        raise NotDirectRun(f"{root} is a {config.mode!r} run; the llm4cov recipe selects states from direct-inference "
                           "runs: ecov-eval --mode direct -n N (or set recipe: ecov)")


def direct_states(run: RunFolder | RunView, tasks: dict[str, Task]) -> tuple[list[State], DirectStats]:
    """One state per finished sample of a direct-inference run: its testbench, feedback and score."""
    if isinstance(run, RunFolder):  # refused before its rounds are read
        require_direct(run)
    view = view_of(run, tasks, "overall", keep_result=True)
    _require_direct(view.root, view.config)
    stats = DirectStats()
    out: list[State] = []
    for (task_id, sample), rounds in view.trajectories.items():
        stats.samples += 1
        if task_id not in tasks:
            stats.unknown_task += 1
            continue
        r = rounds[0]
        if not r.testbench:
            stats.no_testbench += 1
            continue
        if r.status == INFRA_ERROR:
            stats.infra_error += 1
            continue
        out.append(State(task_id, sample, r.round, r.testbench, r.feedback, round(r.coverage, 2), r.status,
                         r.passed, str(view.root), r.result or {}, response=r.response))
        stats.states += 1
    return out, stats


def _run_id(s: State) -> tuple[str, int]:
    return (s.source, s.sample)


def _candidates(entries: list[State]) -> list[State]:
    return [e for e in entries if ran(e) and frac(e) < 1.0]


def _worst(cands: list[State]) -> State:
    low = min(frac(e) for e in cands)
    return min((e for e in cands if frac(e) == low), key=_run_id)


def _median(cands: list[State]) -> State:
    by_cov: dict[float, list[State]] = defaultdict(list)
    for e in cands:
        by_cov[frac(e)].append(e)
    uniq = sorted(by_cov)
    return min(by_cov[uniq[(len(uniq) - 1) // 2]], key=_run_id)


def _tagged(state: State, kind: str) -> State:
    from dataclasses import replace

    return replace(state, selected_as=kind)


def select_released(entries: list[State], prioritize_worst: bool = True, spread: float = 0.1) -> list[State]:
    """The states of ONE task, in the order xrun_fail, then worst/median as the script appends them."""
    entries = sorted(entries, key=_run_id)
    out: list[State] = []
    fails = [e for e in entries if not ran(e)]
    if fails:
        out.append(_tagged(fails[0], XRUN_FAIL))
    cands = _candidates(entries)
    if not cands:
        return out
    worst, median = _worst(cands), _median(cands)
    gap = frac(median) - frac(worst) > spread
    if prioritize_worst:
        out.append(_tagged(worst, WORST))
        if gap:
            out.append(_tagged(median, MEDIAN))
    else:
        out.append(_tagged(median, MEDIAN))
        if gap:
            out.append(_tagged(worst, WORST))
    return out


def _best_key(e: State) -> tuple[Any, ...]:
    return (ran(e), ran(e), e.passed, frac(e), e.source, e.sample)  # CovResult order, then run id


def select_states_llm4cov(states: list[State], strategy: str = "released", prioritize_worst: bool = True,
                          spread: float = 0.1, per_task: int = 1, seed: int = 0) -> list[State]:
    """Selected states of every task (tasks in id order), each tagged with why (``selected_as``)."""
    by_task: dict[str, list[State]] = defaultdict(list)
    for s in states:
        by_task[s.task_id].append(s)
    rng = random.Random(seed)
    out: list[State] = []
    for task_id in sorted(by_task):
        entries = sorted(by_task[task_id], key=_run_id)
        if strategy == "released":
            out.extend(select_released(entries, prioritize_worst, spread))
            continue
        pool = [e for e in entries if frac(e) < 1.0]  # _filter_full_coverage
        if strategy == "best":
            picked = sorted(pool, key=_best_key, reverse=True)[:per_task]
        elif strategy == "random":
            picked = rng.sample(pool, min(per_task, len(pool)))
        else:
            raise ValueError(f"unknown selection strategy {strategy!r} (released | best | random)")
        out.extend(_tagged(e, strategy) for e in picked)
    return out
