"""Bug-hunt runs: the harness main of a mutant-schema build, one run per key, what each run left behind.

The schema build (ecov.harness.hdl.schema) holds the testbench and the design with every mutant behind
a selector. Its main (``bughunt_main``; the C++ is in ecov.harness.sim.mainlib) differs from the coverage
main (ECOV_MAIN) in what it reads and writes, not in how it keeps the channel private:

- its standard input (``main_input``: output folder, then one line ``<nonce> <key> <max time> <stop>``)
  is read first, then replaced by /dev/null and cleared; the key answers the design's selector getter;
- after every time step it calls the DUT's port probe and appends each changed 32-bit word to
  ``ports.bin`` in the private output folder: 16 bytes, ``<time u64><port << 8 | word u32><value u32>``
  little-endian (ecov.harness.sim.porttrace reads it), at most ``TRACE_CAP`` bytes;
- it also carries the replay's recorder (ecov.harness.sim.recorder: ``trace.bin``, the DUT's inputs as
  its flops sampled them), so the trusted replay computes the golden run's coverage and confirms kills;
- it records the first failure of the run: the context's error count or ``$fatal`` (``fatalOnError``
  off, so ``$fatal`` returns here instead of exiting), and its time; with ``stop`` (mutant runs) it stops
  there; ``final`` blocks run and may fail too; past ``max time`` (0: none) it stops as ``capped``;
- last, on its normal exit path only, the end marker with the nonce and those facts.

Each run gets a fresh, empty working folder of its own and a fresh output folder: the binary stays in
the build's job folder, named by absolute path (a testbench may only name relative paths), so no run
reads the build or leaves anything for the next run.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ecov.harness.core.paths import jobs_dir
from ecov.harness.sandbox.base import Limits, ProcResult, Sandbox
from ecov.harness.sim import integrity, recorder
from ecov.harness.sim import trace as tr
from ecov.harness.sim.mainlib import BUGHUNT_LIB, TRACE_CAP, bughunt_glue
from ecov.harness.sim.replay import read_capped
from ecov.harness.sim.verilator import HarnessMain, main_input

TRACE_FILE, END_FILE = "ports.bin", "end"
END_CAP = 4096


_END_RE = re.compile(r"^ecov-bughunt (\S+) finish=([01]) fail=([01]) fail_t=(\d+) capped=([01]) scope=([01]) "
                     r"overflow=([01]) end_t=(\d+) prec=(-?\d+) rec=([\w-]+)\s*$")


def bughunt_main(scope: str, getter: str, put: str, probe: str, rec_cap: int) -> HarnessMain:
    """The main of one schema build (its C++: ecov.harness.sim.mainlib, BUGHUNT_LIB_CPP and the glue): its
    DPI names, the DUT's scope (``<tb top>.<instance>``) and the recorder's byte cap."""
    if not re.fullmatch(r"[A-Za-z_][\w.]*", scope):
        raise ValueError(f"not a scope name: {scope!r}")
    return HarnessMain(bughunt_glue(scope, getter, put, probe, recorder.scope_name(scope), rec_cap), BUGHUNT_LIB)


@dataclass
class KeyRun:
    """One run of a schema build under one key."""

    proc: ProcResult
    ended: bool  # the end marker is there with this run's nonce
    finished: bool = False  # $finish reached without a failure
    failed: bool = False
    fail_time: int = 0
    capped: bool = False  # stopped past the maximum time
    scope: bool = False  # the DUT's probe scope was found (the DUT sits at <tb top>.<instance>)
    overflow: bool = False  # the trace reached TRACE_CAP
    end_time: int = 0
    precision: int = -12  # the model's time precision, a power of ten in seconds
    rec_state: str = "none"  # the replay recorder's state (recorder.STATES)
    trace: bytes = b""  # the port probe's trace (porttrace)
    recording: bytes | tr.TraceError | None = None  # the recorder's trace (the replay's input)
    error: str = ""

    def ns(self, t: int | None) -> float | None:
        return None if t is None else round(t * 10.0 ** (self.precision + 9), 6)


def read_regular(path: Path, cap: int) -> bytes | None:
    """A file the simulation wrote, read as replay.read_capped reads a recording (no links, no FIFOs, never
    blocking, capped): None when it is not such a file."""
    try:
        return read_capped(path, cap)
    except tr.TraceError:
        return None


def read_key_run(proc: ProcResult, out: Path, nonce: str, rec_cap: int) -> KeyRun:
    raw = read_regular(out / END_FILE, END_CAP)
    m = _END_RE.match(raw.decode(errors="replace")) if raw is not None else None
    if not m or m.group(1) != nonce:
        return KeyRun(proc, False, error="the simulation did not end through the harness's exit path (no end "
                      "marker with this run's nonce): it was stopped, crashed or left some other way")
    run = KeyRun(proc, True, m.group(2) == "1", m.group(3) == "1", int(m.group(4)), m.group(5) == "1",
                 m.group(6) == "1", m.group(7) == "1", int(m.group(8)), int(m.group(9)), m.group(10))
    trace = read_regular(out / TRACE_FILE, TRACE_CAP)
    if trace is None or len(trace) % 16:
        run.ended, run.error = False, "the port trace is missing or malformed"
    else:
        run.trace = trace
    if os.path.lexists(out / recorder.TRACE_FILE):
        try:
            run.recording = read_capped(out / recorder.TRACE_FILE, rec_cap)
        except tr.TraceError as e:
            run.recording = e
    return run


def run_key(sandbox: Sandbox, job: Path, key: int, max_time: int, seed: int, limits: Limits, *, stop: bool = True,
            rec_cap: int = 1 << 27) -> KeyRun:
    """Run ``job/sim`` under ``key`` in a fresh working folder with a fresh private output folder; with
    ``stop``, the run ends at its first failure (mutant runs), else at its end (the golden run)."""
    work = Path(tempfile.mkdtemp(prefix="bhrun-", dir=jobs_dir()))
    out, nonce = integrity.new_run_dir(jobs_dir())
    try:
        argv = [str(job / "sim"), f"+verilator+seed+{seed}", "+verilator+rand+reset+0"]
        proc = sandbox.run(argv, work, limits, untrusted=True, ro_paths=(str(job),), rw_paths=(str(out),),
                           stdin=main_input(out, f"{nonce} {key} {max_time} {int(stop)}"))
        return read_key_run(proc, out, nonce, rec_cap)
    finally:
        integrity.remove_run_dir(out)
        shutil.rmtree(work, ignore_errors=True)


def seal(job: Path) -> None:
    """After the build: the job folder and binary executable by the simulation's user, not readable,
    listable or writable by it (it runs elsewhere; this is the second wall after the relative-path rule)."""
    for p in (job / "sim", job):
        if p.exists():
            os.chmod(p, 0o711)


__all__ = ["KeyRun", "TRACE_CAP", "bughunt_main", "read_key_run", "read_regular", "run_key", "seal"]
