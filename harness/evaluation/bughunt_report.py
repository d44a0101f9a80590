"""The bug hunt's lines (issue 31) in a run's printed summary (``ecov-eval`` and ``ecov-eval report``),
from ``summary["bughunt"]`` and its per-task figures; nothing for a run of another protocol."""

from __future__ import annotations

from typing import Any


def _row(label: str, value: str) -> str:
    return f"  {label:<22}{value}"


def bughunt_lines(summary: dict[str, Any]) -> list[str]:
    """Kill rate, bug-hunt pass %, mutants, false alarms and final statuses, per round when agentic."""
    bh = summary.get("bughunt")
    if not bh:
        return []
    if not bh.get("tasks"):
        return [_row("kill %", "–   (no task of this run has killable mutants)")]
    statuses = ", ".join(f"{k} {v}" for k, v in (bh.get("statuses") or {}).items())
    lines = [
        _row("kill %", f"{bh['kill_rate']:.1f}   (mutants caught by the final testbench, mean over {bh['tasks']} "
                       f"tasks holding {bh['mutants']} killable mutants)"),
        _row("bug-hunt pass %", f"{bh['pass_rate']:.1f}   (kill rate at or above each task's target)"),
        _row("false alarms", f"{bh['false_alarms']} of {bh['samples']} samples   (failed on the golden design: "
                             "kill rate 0)"),
        _row("final statuses", statuses),
    ]
    if len(bh.get("per_round") or []) > 1:
        lines.append(_row("kill % by round", "  ".join(f"r{r['round']} {r['kill_rate']:.1f}" for r in bh["per_round"])))
    return lines


def bughunt_task_lines(summary: dict[str, Any]) -> list[str]:
    """One row per task with mutants: kill %, passes, mutants, false alarms."""
    rows = {t: d for t, d in (summary.get("per_task") or {}).items() if "bughunt_kill_rate" in d}
    if not summary.get("bughunt") or not rows:
        return []
    width = max(12, *(len(t) for t in rows))
    lines = ["", f"  {'task':<{width}}  kill %  passed  mutants  false alarms"]
    for t, d in rows.items():
        lines.append(f"  {t:<{width}}  {d['bughunt_kill_rate']:>6.1f}  {d['bughunt_passed']:>2}/{d['samples']:<3}  "
                     f"{d['bughunt_mutants']:>7}  {d['bughunt_false_alarms']:>12}")
    return lines
