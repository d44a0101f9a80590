"""Summary views beyond the metrics: pass % on the random-hard tasks of a benchmark (its random-baseline
record, ecov.harness.evaluation.baseline) and pass % per difficulty level. ecov.harness.evaluation.runner
adds them to summary.json."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ecov.harness.benchmark.store import EMBEDDED, load_benchmark
from ecov.harness.evaluation.baseline import load_random_baseline, random_hard_tasks


def random_hard_summary(benchmark: str | os.PathLike | None, per_task: dict[str, dict[str, Any]]) -> dict | None:
    """{"pass_rate", "tasks", "of"}: pass % over the run's random-hard tasks (summary ``per_task`` rows);
    None without a record, pass_rate None when the run has none of those tasks."""
    hard = random_hard_tasks(benchmark)
    if hard is None:
        return None
    rates = [float(d["pass_rate"]) for t, d in per_task.items() if t in hard and d.get("samples")]
    return {"pass_rate": round(sum(rates) / len(rates), 2) if rates else None, "tasks": len(rates),
            "of": len(hard)}


def difficulty_of(benchmark: str | os.PathLike | None) -> dict[str, str]:
    """task -> difficulty, from the benchmark's record, else from the benchmark itself when it is the
    embedded suite or a local folder (never the hub: a summary must not wait on the network)."""
    rec = load_random_baseline(benchmark)
    if rec and any(b.difficulty for b in rec.tasks.values()):
        return {t: b.difficulty for t, b in rec.tasks.items() if b.difficulty}
    name = EMBEDDED if benchmark is None else str(benchmark)
    if name != EMBEDDED and not Path(name).exists():
        return {}
    try:
        return {t.id: t.difficulty for t in load_benchmark(name) if t.difficulty}
    except Exception:  # noqa: BLE001 - difficulty is a view; the summary stands without it
        return {}


def difficulty_summary(difficulty: dict[str, str], per_task: dict[str, dict[str, Any]]) -> dict[str, dict]:
    """{level: {"pass_rate", "tasks"}} over the run's tasks (task-level mean of summary ``per_task`` rates)."""
    import pandas as pd

    rows = [{"difficulty": difficulty[t], "pass_rate": float(d["pass_rate"])} for t, d in per_task.items()
            if difficulty.get(t) and d.get("samples")]
    if not rows:
        return {}
    g = pd.DataFrame(rows).groupby("difficulty")["pass_rate"].agg(["mean", "size"])
    order = [d for d in ("easy", "medium", "hard") if d in g.index] + sorted(set(g.index) - {"easy", "medium", "hard"})
    return {d: {"pass_rate": round(float(g.loc[d, "mean"]), 2), "tasks": int(g.loc[d, "size"])} for d in order}


def summary_views(benchmark: str | os.PathLike | None, per_task: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The keys ecov.harness.evaluation.runner adds to summary.json: ``random_hard`` and ``by_difficulty`` (when known)."""
    out: dict[str, Any] = {}
    hard = random_hard_summary(benchmark, per_task)
    if hard is not None:
        out["random_hard"] = hard
    by = difficulty_summary(difficulty_of(benchmark), per_task)
    if by:
        out["by_difficulty"] = by
    return out


