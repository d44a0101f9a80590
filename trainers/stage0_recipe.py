"""Stage 0 of the paper's recipe: which of the teacher's recorded answers become rows, and how many.

Paper, Section 4.2 and Appendix C.2: the teacher's traces go through coverage-guided rejection with a
1% improvement threshold plus a minimum absolute coverage of 50% ("to remove outlier designs"); then,
"to mitigate short-context domination", one third of the short direct-inference datapoints and one half
of the short agentic datapoints are kept (short: len(R) <= 1k tokens); Appendix B: 30k rows selected,
20k direct-inference + 10k agentic.

Released code (``scripts/synthetic_data_filter.py`` ``has_absolute_improvement``): a round counts as an
improvement when the previous testbench had no coverage (a fix), or when overall coverage rises by MORE
than 0.01 (a fraction: 1 point) and no DUT metric decreases. ECov follows that (strictly more than
``min_gain`` points); a row whose previous state had no testbench (a direct-inference answer) has nothing
to improve on and is judged by the absolute bound alone.

A row is ``direct`` when its prompt showed no testbench (round 0 of any run) and ``agentic`` otherwise.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ecov.harness.tasks import Task
from ecov.trainers.curate import Curation, Dropped
from ecov.trainers.synth import Row

DIRECT, AGENTIC = "direct", "agentic"


def kind_of(row: Row) -> str:
    return DIRECT if int(row.state.get("round", -1)) < 0 else AGENTIC


def keep_reason(row: Row, min_gain: float, min_coverage: float) -> tuple[str, str]:
    """("", "") when the row passes the stage-0 coverage filters, else (reason, detail)."""
    cov = float(row.meta.get("coverage") or 0.0)
    if cov < min_coverage:
        return "below_min_coverage", f"coverage {cov:.2f} < {min_coverage:g}"
    if kind_of(row) == AGENTIC and float(row.state.get("coverage") or 0.0) > 0.0:
        gain = float(row.meta.get("gain") or 0.0)
        if gain <= min_gain:
            return "below_min_gain", f"gain {gain:+.2f} points, not above {min_gain:g}"
    return "", ""


def is_short(task: Task | None, short_tokens: int, counts: dict[str, int] | None = None) -> bool:
    """Short design: the builder's label (``difficulty`` short/long from the RTL token count), else the
    count in ``counts`` (task id -> RTL tokens), else whitespace tokens of the RTL."""
    if task is None:
        return False
    if task.difficulty in ("short", "long"):
        return task.difficulty == "short"
    if counts and task.id in counts:
        return counts[task.id] <= short_tokens
    return sum(len(f.content.split()) for f in task.rtl_files) <= short_tokens


@dataclass
class Stage0Report:
    before: dict[str, int] = field(default_factory=dict)
    after_filters: dict[str, int] = field(default_factory=dict)
    after_rebalance: dict[str, int] = field(default_factory=dict)
    after_mix: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"before": self.before, "after_filters": self.after_filters,
                "after_rebalance": self.after_rebalance, "after_mix": self.after_mix}


def _by_kind(rows: list[Row]) -> dict[str, int]:
    c = Counter(kind_of(r) for r in rows)
    return {DIRECT: c.get(DIRECT, 0), AGENTIC: c.get(AGENTIC, 0)}


def _sample(rows: list[Row], n: int, rng: random.Random) -> tuple[list[Row], list[Row]]:
    """(kept, dropped): ``n`` rows drawn without replacement, kept in their input order."""
    if n >= len(rows):
        return list(rows), []
    pick = set(rng.sample(range(len(rows)), n))
    return [r for i, r in enumerate(rows) if i in pick], [r for i, r in enumerate(rows) if i not in pick]


def apply_stage0(cur: Curation, tasks: dict[str, Task], cfg, counts: dict[str, int] | None = None) -> Stage0Report:
    """Filters, short-design rebalancing and the direct/agentic mix, on ``cur.kept``; every dropped row
    goes to ``cur.dropped`` with its reason. ``cfg`` is a ``Stage0Config``."""
    rep = Stage0Report(before=_by_kind(cur.kept))
    kept = []
    for row in cur.kept:
        reason, detail = keep_reason(row, cfg.min_gain, cfg.min_coverage)
        if reason:
            cur.dropped.append(Dropped(row.key, row.task_id, reason, detail))
        else:
            kept.append(row)
    rep.after_filters = _by_kind(kept)
    rng = random.Random(cfg.seed)
    out: list[Row] = []
    for kind in (DIRECT, AGENTIC):
        rows = [r for r in kept if kind_of(r) == kind]
        frac = float(cfg.keep_short.get(kind, 1.0))
        short = [r for r in rows if is_short(tasks.get(r.task_id), cfg.short_tokens, counts)]
        short_kept, short_dropped = _sample(short, math.floor(len(short) * frac + 0.5), rng)  # half up
        for r in short_dropped:
            cur.dropped.append(Dropped(r.key, r.task_id, "rebalance_short", f"{kind}: kept {frac:.4g} of short designs"))
        drop_ids = {id(r) for r in short_dropped}
        rows = [r for r in rows if id(r) not in drop_ids]
        out.extend(rows)
    rep.after_rebalance = _by_kind(out)
    final: list[Row] = []
    for kind in (DIRECT, AGENTIC):
        rows = [r for r in out if kind_of(r) == kind]
        cap = int(cfg.mix.get(kind, -1))
        if cap >= 0:
            rows, dropped = _sample(rows, cap, rng)
            for r in dropped:
                cur.dropped.append(Dropped(r.key, r.task_id, "mix_cap", f"{kind}: at most {cap} rows"))
        final.extend(rows)
    cur.kept = final
    rep.after_mix = _by_kind(final)
    return rep
