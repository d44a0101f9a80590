"""Resize the rows of several sources to one total, as ``scripts/upload_to_hub.py`` does.

Released (``resize_dataframes``, ``mode: proportional``): each source keeps its share of the total
(``len * total / sum``, floored, the remainder given to the largest fractional parts); a source is
down-sampled without replacement, or up-sampled by whole copies plus a sample of the rest; then all
rows are shuffled (``random_state=42``). ``total: -1`` (their ``--exp-size`` default) leaves the rows
as they are. The draws use pandas and numpy exactly as the script does, so a seed gives their choice.

``mode: equal`` is ECov's alternative, not in the released code: every source contributes
``total / sources`` rows (remainder to the first sources), so one large source cannot dominate.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from ecov.trainers.synth import Row


@dataclass
class Resampled:
    rows: list[Row]
    before: dict[str, int] = field(default_factory=dict)
    after: dict[str, int] = field(default_factory=dict)


def source_of(row: Row) -> str:
    """The group a row is resampled in: the run folder its state came from (stage 0: its run folder)."""
    return str(row.state.get("source") or row.source)


def _sizes(lengths: list[int], total: int, mode: str) -> list[int]:
    import numpy as np

    if mode == "equal":
        base, rem = divmod(total, len(lengths))
        return [base + (1 if i < rem else 0) for i in range(len(lengths))]
    ratio = total / sum(lengths)
    sizes_float = [n * ratio for n in lengths]
    sizes = [int(np.floor(x)) for x in sizes_float]
    remainder = total - sum(sizes)
    for i in np.argsort([x - int(x) for x in sizes_float])[::-1][:remainder]:
        sizes[i] += 1
    return sizes


def resample(rows: list[Row], total: int = -1, mode: str = "proportional", seed: int = 42) -> Resampled:
    groups: OrderedDict[str, list[Row]] = OrderedDict()
    for r in rows:
        groups.setdefault(source_of(r), []).append(r)
    before = {k: len(v) for k, v in groups.items()}
    if total == -1 or not rows:
        return Resampled(list(rows), before, dict(before))
    if total <= 0:
        raise ValueError("total must be positive (or -1 for no resizing)")
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    frames = []
    for (_, members), target in zip(groups.items(), _sizes(list(before.values()), total, mode), strict=True):
        df = pd.DataFrame({"i": range(len(members))})
        n = len(df)
        if target <= n:
            sampled = df.sample(n=target, replace=False, random_state=rng.integers(1e9))
        else:
            k, r = divmod(target, n)
            sampled = pd.concat([df] * k + [df.sample(n=r, replace=False, random_state=rng.integers(1e9))],
                                ignore_index=True).sample(frac=1.0, random_state=rng.integers(1e9))
        frames.append([members[i] for i in sampled["i"]])
    flat = pd.DataFrame({"g": [g for g, f in enumerate(frames) for _ in f],
                         "i": [i for f in frames for i in range(len(f))]})
    flat = flat.sample(frac=1, random_state=42).reset_index(drop=True)  # their final shuffle
    out = [frames[g][i] for g, i in zip(flat["g"], flat["i"], strict=True)]
    after: dict[str, int] = {}
    for r in out:
        after[source_of(r)] = after.get(source_of(r), 0) + 1
    return Resampled(out, before, after)
