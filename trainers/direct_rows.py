"""Direct-inference rows for llm4cov stage 1: the student's own best single-pass answers.

Paper, Appendix B: stage 1 trains on 9k agentic rows and 8k direct-inference rows picked from the
stage-0 student's 55k direct answers (11k long designs x 5). The rule that picked the 8k is not stated
and not in the released code; ECov keeps each task's best answer (highest overall coverage, ties by
sample) when it reaches ``min_coverage``, the stage-0 absolute bound.
"""

from __future__ import annotations

from ecov.harness.core.run_folder import RunFolder
from ecov.harness.tasks import Task
from ecov.trainers.runview import RunView, view_of
from ecov.trainers.synth import Row, SynthStats, iter_trajectory_rows


def _rank(row: Row) -> tuple[float, int]:
    return -float(row.meta.get("coverage") or 0.0), int(row.state.get("sample", 0))


def best_direct_rows(runs: list[RunFolder | RunView], tasks: dict[str, Task], stage: int, min_coverage: float = 50.0,
                     per_task: int = 1) -> list[Row]:
    """Round-0 rows of the runs (the prompt with no testbench), the best ``per_task`` of each task; only
    the best so far of each task are held (ties: the earlier run, then the earlier sample)."""
    by_task: dict[str, list[Row]] = {}
    for run in runs:
        for row in iter_trajectory_rows(view_of(run, tasks), tasks, SynthStats(), stage):
            if int(row.meta.get("round", 0)) != 0 or row.meta.get("parse_error"):
                continue
            if float(row.meta.get("coverage") or 0.0) < min_coverage:
                continue
            row.meta["direct_row"] = True
            best = by_task.setdefault(row.task_id, [])
            best.append(row)
            best.sort(key=_rank)  # stable: an equal rank keeps the earlier row first
            del best[per_task:]
    return [row for task_id in sorted(by_task) for row in by_task[task_id]]
