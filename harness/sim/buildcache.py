"""Reuse compiled C++ across builds, and share the machine's cores between concurrent builds.

Verilator flattens the design into the testbench's model (``Vtop___024root``), so no generated file is
"the design's" alone: every translation unit includes ``Vtop__Syms.h``, whose layout (and the offsets
compiled into the design's code) depends on the testbench's variables. What is safe to reuse is an
object whose *inputs* are byte-identical: the generated ``.cpp`` files of the unit, every generated
header in ``obj/`` (all of them, conservatively), and the compiler, flags, PCH and Verilator version
(the ``prefix``). ``ObjectCache`` stores objects under that key, so a model compiled before (the same
testbench under another seed, a duplicate sample, a cocotb design) is only linked. ``plan_units``
groups the generated files into as many compile units as there are cores to spare.

``CpuSlots`` is a machine-wide semaphore of token files (one per core) under the runtime folder: a
build takes the tokens that are free (at least its own core) and compiles that many units at once,
and takes none extra when the load average says the machine is busy with other work.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

# A compile unit pays the precompiled header once (~0.3-0.5 s of CPU), so a build is split into more
# units than one only to use idle cores, and never into units of fewer lines than this.
MIN_UNIT_LINES = 3000
MAX_OBJECTS = 4000  # objects kept in the cache; the least recently used go first


@dataclass(frozen=True)
class Unit:
    name: str  # ecov_unitN
    files: tuple[str, ...]  # generated .cpp files, relative to obj/
    key: str  # content key of the object


def _natural(name: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def unit_count(total_lines: int, jobs: int) -> int:
    """How many units to compile at once: one per granted core, none smaller than MIN_UNIT_LINES."""
    return max(1, min(jobs, total_lines // MIN_UNIT_LINES))


def plan_units(obj: Path, prefix: str, jobs: int = 1, extra: tuple[str, ...] = ()) -> list[Unit]:
    """Group ``obj/Vtop*.cpp`` into compile units, each keyed by everything its object depends on.

    Files are cut, in natural name order, into ``unit_count`` contiguous groups of about equal lines (one
    unit when the machine is busy: least CPU). The key of a unit hashes ``prefix`` (compiler, flags,
    PCH, Verilator), every generated header, and the unit's files: equal keys, equal objects.
    ``extra`` names more files of ``obj`` to compile with the model (a caller's own main), last.
    """
    headers = hashlib.sha256(prefix.encode())
    for h in sorted(obj.glob("*.h")):
        headers.update(h.name.encode() + b"\0" + h.read_bytes() + b"\0")
    base = headers.hexdigest()
    files = sorted((p.name for p in obj.glob("Vtop*.cpp")), key=_natural) + [f for f in extra]
    sizes = {f: (obj / f).read_bytes().count(b"\n") for f in files}
    total = sum(sizes.values())
    parts = unit_count(total, jobs)
    groups: list[list[str]] = [[]]
    done = 0
    for f in files:
        # start a new group once this one holds its share of the lines
        if groups[-1] and len(groups) < parts and done >= total * len(groups) / parts:
            groups.append([])
        groups[-1].append(f)
        done += sizes[f]
    units = []
    for i, group in enumerate(g for g in groups if g):
        h = hashlib.sha256(base.encode())
        for f in group:
            h.update(f.encode() + b"\0" + (obj / f).read_bytes() + b"\0")
        units.append(Unit(f"ecov_unit{i}", tuple(group), h.hexdigest()))
    return units


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class ObjectCache:
    """Compiled objects by content key, shared by every build on the machine (atomic writes)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.o"

    def fetch(self, key: str, dest: Path) -> bool:
        """Copy the object for ``key`` to ``dest`` and check it against the digest stored beside it; False
        when it is not cached, has no digest, or does not match (a truncated or edited object is dropped
        and compiled again, never linked)."""
        src = self.path(key)
        try:
            want = src.with_suffix(".sha256").read_text().strip()
            shutil.copyfile(src, dest)
        except OSError:
            return False
        if _file_digest(dest) != want:
            dest.unlink(missing_ok=True)
            src.unlink(missing_ok=True)
            return False
        try:
            os.utime(src)  # recently used: pruned last
        except OSError:
            pass
        return True

    def fetch_model(self, key: str, obj: Path) -> list[str] | None:
        """Every object of a model compiled before (any split), copied into ``obj``; None if any is missing."""
        try:
            units = json.loads((self.folder / "models" / f"{key}.json").read_text())
        except (OSError, ValueError):
            return None
        names = []
        for name, unit_key in units:
            if not self.fetch(unit_key, obj / f"{name}.o"):
                return None
            names.append(f"{name}.o")
        return names

    def store_model(self, key: str, units: list[tuple[str, str]]) -> None:
        """Which unit objects make up the model ``key`` (written after they are stored)."""
        dest = self.folder / "models" / f"{key}.json"
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=dest.parent, suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump(units, f)
            os.replace(tmp, dest)
        except OSError:
            return

    def store(self, key: str, obj: Path) -> None:
        dest = self.path(key)
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=dest.parent, suffix=".tmp")
            os.close(fd)
            shutil.copyfile(obj, tmp)
            digest = _file_digest(Path(tmp))
            fd, side = tempfile.mkstemp(dir=dest.parent, suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                f.write(digest)
            os.replace(side, dest.with_suffix(".sha256"))  # the digest first: an object never lacks one
            os.replace(tmp, dest)
        except OSError:
            return  # a cache that cannot be written only costs speed
        if key.startswith("00"):  # about one store in 256
            self.prune()

    def prune(self, keep: int = MAX_OBJECTS) -> None:
        objs = []
        for p in self.folder.glob("*/*.o"):
            try:
                objs.append((p.stat().st_mtime, p))
            except OSError:
                continue
        objs.sort(reverse=True)
        for _, p in objs[keep:]:
            p.unlink(missing_ok=True)
            p.with_suffix(".sha256").unlink(missing_ok=True)


class CpuSlots:
    """Up to ``want`` machine-wide core tokens, taken without waiting; release() gives them back.

    One core is always granted (a build never waits for a token); the others only when their token is
    free and the 1-minute load average leaves a core idle for each.
    """

    def __init__(self, folder: Path, want: int, cores: int | None = None):
        self.cores = cores or os.cpu_count() or 1
        self.held: list = []
        folder.mkdir(parents=True, exist_ok=True)
        want = max(1, min(want, self.cores))
        try:
            idle = self.cores - os.getloadavg()[0]
        except OSError:
            idle = 0.0
        for i in range(self.cores):
            if len(self.held) >= want or (self.held and len(self.held) + 1 > idle + 1):
                break
            f = open(folder / f"cpu{i}.lock", "w")
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self.held.append(f)
            except OSError:
                f.close()
        self.jobs = max(1, len(self.held))

    def release(self) -> None:
        for f in self.held:
            f.close()  # closing drops the flock
        self.held = []

    def __enter__(self) -> CpuSlots:
        return self

    def __exit__(self, *exc) -> None:
        self.release()
