"""Port traces of bug-hunt runs (ecov.harness.sim.mutantrun) and where two of them first differ.

A trace is a sequence of 16-byte records ``<time u64><port << 8 | word u32><value u32>`` (little-endian),
one per 32-bit word of a DUT port that changed in a time step, in time order; a run's first step
writes every word. Two runs of one build under one testbench see the same inputs until the DUT's
outputs differ (the testbench is deterministic and sees the DUT only through its ports), so the first
step at which the traces differ tells whether a mutant showed itself at the ports: an output word
differs there (``output_time``), or only inputs do (``input_time``: the testbench changed its stimulus
with no output to tell it, so it learned the mutant some other way).

Pure functions of bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

RECORD = struct.Struct("<QII")
SIZE = RECORD.size
_CHUNK = 1 << 16  # bytes compared at once while looking for the first difference


@dataclass(frozen=True)
class Divergence:
    output_time: int | None = None  # first step at which a DUT output differs
    input_time: int | None = None  # first step at which inputs, and no output, differ

    @property
    def diverged(self) -> bool:
        return self.output_time is not None


def _first_difference(a: bytes, b: bytes) -> int:
    """Index of the first record at which ``a`` and ``b`` differ (the shorter length when one is a prefix)."""
    n = min(len(a), len(b))
    lo = 0
    while lo < n:
        hi = min(n, lo + _CHUNK)
        if a[lo:hi] != b[lo:hi]:
            for i in range(lo, hi, SIZE):
                if a[i:i + SIZE] != b[i:i + SIZE]:
                    return i // SIZE
        lo = hi
    return n // SIZE


def _step(trace: bytes, index: int, t: int) -> dict[int, int]:
    """The words the records from ``index`` on change at time ``t``."""
    out: dict[int, int] = {}
    for i in range(index * SIZE, len(trace), SIZE):
        rt, key, value = RECORD.unpack_from(trace, i)
        if rt != t:
            break
        out[key] = value
    return out


def first_divergence(golden: bytes, mutant: bytes, outputs: set[int], golden_end: int, mutant_end: int) -> Divergence:
    """Where ``mutant``'s trace first leaves ``golden``'s, compared up to the earlier of the two runs' end
    times (``*_end``: the time each run stopped). ``outputs``: the port indices that are DUT outputs."""
    r = _first_difference(golden, mutant)
    g = RECORD.unpack_from(golden, r * SIZE) if r * SIZE < len(golden) else None
    m = RECORD.unpack_from(mutant, r * SIZE) if r * SIZE < len(mutant) else None
    times = [x[0] for x in (g, m) if x is not None]
    if not times:
        return Divergence()
    t = min(times)
    if t > min(golden_end, mutant_end):
        return Divergence()  # past the end of one run: nothing to compare with
    a, b = _step(golden, r, t), _step(mutant, r, t)
    differing = {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
    if any((k >> 8) in outputs for k in differing):
        return Divergence(output_time=t)
    return Divergence(input_time=t)


def records(trace: bytes) -> list[tuple[int, int, int]]:
    """Every record as (time, port << 8 | word, value): for tests and inspection."""
    return [RECORD.unpack_from(trace, i) for i in range(0, len(trace) - len(trace) % SIZE, SIZE)]


__all__ = ["Divergence", "RECORD", "first_divergence", "records"]
