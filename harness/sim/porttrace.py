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

from ecov.harness.sim import trace as tr

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


def _first_difference(a: bytes, b: bytes, start: int = 0, size: int = SIZE) -> int:
    """Index of the first ``size``-byte record from ``start`` at which ``a`` and ``b`` differ (the shorter
    one's record count when one is a prefix of the other)."""
    n = min(len(a), len(b))
    lo = start
    while lo < n:
        hi = min(n, lo + _CHUNK)
        if a[lo:hi] != b[lo:hi]:
            for i in range(lo, hi, size) if (lo - start) % size == 0 else range(lo - (lo - start) % size, hi, size):
                if a[i:i + size] != b[i:i + size]:
                    return (i - start) // size
        lo = hi
    return (n - start) // size


def first_record_difference(a: bytes, b: bytes) -> int | None:
    """For two traces of one DUT build in the replay's format (ecov.harness.sim.trace: same header, records
    of one size), the time of the first record at which they differ, None when one is a prefix of the
    other. For output traces (a STEP record only when an output changed) that is the first time the
    outputs differ; for input recordings, the first time the inputs did. Byte-level: no decoding."""
    header, start = tr.decode_header(a)
    if a[:start] != b[:start]:
        raise tr.TraceError("the two traces have different headers")
    size = 1 + 8 + 4 * header.record_words
    i = _first_difference(a, b, start, size)
    at = start + i * size
    if at + 9 > len(a) or at + 9 > len(b):
        return None
    (ka, ta), (kb, tb) = ((t[at], struct.unpack_from("<Q", t, at + 1)[0]) for t in (a, b))
    if ka == tr.FINAL and kb == tr.FINAL:
        return None  # the same records, then one run ended earlier
    if ka == tr.FINAL or kb == tr.FINAL:  # one run ended: a change of the other's counts only until then
        end, t = (ta, tb) if ka == tr.FINAL else (tb, ta)
        return t if t <= end else None
    return min(ta, tb)


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


__all__ = ["Divergence", "RECORD", "first_divergence", "first_record_difference", "records"]
