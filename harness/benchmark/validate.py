"""Task records are checked when loaded: a bad record is an error naming the task and the field.

Without this, duplicate ids, a target of -1% or NaN, ``targets: []``, an unknown metric or an instance
outside the design load silently, and a 70% testbench "passes" (issue 24).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from ecov.harness.core.records import METRICS
from ecov.harness.hdl.text import module_names
from ecov.harness.tasks import Task

TARGET_METRICS = (*METRICS, "overall")


class TaskError(ValueError):
    """A task record is malformed; the message names the task and the field."""


def task_problems(task: Task) -> list[str]:
    where = f"task {task.id!r}"
    out = []
    if not str(task.id).strip():
        out.append("a task has an empty id")
    if not task.rtl_files:
        out.append(f"{where}: rtl_files is empty")
    elif task.dut_module not in {m for f in task.rtl_files for m in module_names(f.content)}:
        out.append(f"{where}: dut_module {task.dut_module!r} is not a module of its rtl_files")
    if not str(task.dut_instance).strip():
        out.append(f"{where}: dut_instance is empty")
    if not task.targets:
        out.append(f"{where}: targets is empty (at least one target is needed)")
    for i, t in enumerate(task.targets):
        field = f"{where}: targets[{i}]"
        if t.metric not in TARGET_METRICS:
            out.append(f"{field}.metric {t.metric!r} is not one of {', '.join(TARGET_METRICS)}")
        p = t.percent
        if not isinstance(p, int | float) or math.isnan(p) or not 0 < p <= 100:
            out.append(f"{field}.percent {p!r} is not in (0, 100]")
        if t.instance != task.dut_instance and not str(t.instance).startswith(task.dut_instance + "."):
            out.append(f"{field}.instance {t.instance!r} is not the design instance {task.dut_instance!r} "
                       "or below it")
    return out


def validate_tasks(tasks: Iterable[Task], source: str = "") -> list[Task]:
    """The tasks unchanged, or TaskError listing every problem (duplicate ids included)."""
    tasks = list(tasks)
    problems = [p for t in tasks for p in task_problems(t)]
    dups = sorted(i for i, n in Counter(t.id for t in tasks).items() if n > 1)
    if dups:
        problems.insert(0, f"duplicate task id(s): {', '.join(map(repr, dups[:5]))}")
    if problems:
        head = f"{source}: " if source else ""
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise TaskError(head + "; ".join(problems[:10]) + more)
    return tasks
