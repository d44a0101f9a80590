"""Which student states get revisions: worst-state-prioritized sampling, or uniform as the ablation.

Simulation is the expensive part of the recipe, so the budget goes where the student is weakest: per
task, its states sorted by coverage ascending (lowest first). Ties break on (sample, round) so the
choice is deterministic. ``uniform`` draws the same number of states at random with a fixed seed.
Identical testbenches of a task count once (the lowest-round copy is kept): revising the same text
twice only spends simulations.
"""

from __future__ import annotations

import random
from collections import defaultdict

from ecov.trainers.synth import State


def dedupe_states(states: list[State]) -> list[State]:
    seen: set[tuple[str, str]] = set()
    out = []
    for s in sorted(states, key=lambda s: (s.task_id, s.round, s.sample, s.source)):
        k = (s.task_id, s.testbench)
        if k not in seen:
            seen.add(k)
            out.append(s)
    return out


def _worst_first(states: list[State]) -> list[State]:
    return sorted(states, key=lambda s: (s.coverage, s.sample, s.round, s.source))


def select_states(states: list[State], budget: int, strategy: str = "worst", scope: str = "per_task",
                  seed: int = 1, include_passed: bool = False) -> list[State]:
    """Pick states to revise.

    budget: states per task (scope ``per_task``) or in all (scope ``global``); 0 keeps every state.
    A global worst-state budget is filled rank by rank across tasks (each task's worst state, then
    each task's second worst, ...), lowest coverage first within a rank, so that one hard task cannot
    take the whole budget.
    """
    if strategy not in ("worst", "uniform"):
        raise ValueError(f"unknown strategy {strategy!r} (worst | uniform)")
    if scope not in ("per_task", "global"):
        raise ValueError(f"unknown scope {scope!r} (per_task | global)")
    pool = [s for s in dedupe_states(states) if include_passed or not s.passed]
    by_task: dict[str, list[State]] = defaultdict(list)
    for s in pool:
        by_task[s.task_id].append(s)
    rng = random.Random(seed)
    ordered: dict[str, list[State]] = {}
    for task_id in sorted(by_task):
        group = _worst_first(by_task[task_id])
        if strategy == "uniform":
            rng.shuffle(group)
        ordered[task_id] = group
    if budget == 0:
        return [s for t in ordered for s in ordered[t]]
    if scope == "per_task":
        return [s for t in ordered for s in ordered[t][:budget]]
    if strategy == "uniform":
        flat = [s for t in ordered for s in ordered[t]]
        return rng.sample(flat, min(budget, len(flat)))
    picked: list[State] = []
    rank = 0
    while len(picked) < budget and any(rank < len(g) for g in ordered.values()):
        tier = _worst_first([g[rank] for g in ordered.values() if rank < len(g)])
        picked.extend(tier[: budget - len(picked)])
        rank += 1
    return picked
