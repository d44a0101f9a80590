"""The trusted replay: a DUT-only model, built by the harness, driven from a recorded trace.

Every published figure (coverage, the point set, a contract's legal figures) comes from here, where no
testbench code runs: the model is the task's RTL alone with the DUT as Verilator's top (a parameter set
the task allows, ``--coverage``, the contract monitor and any other harness files bound in), and the
main is harness C++ (mainlib's ``REPLAY_LIB``, prebuilt, and the model's port glue) that reads the trace (ecov.harness.sim.trace) with every read
bounds-checked. A testbench can then change only what reaches the DUT's input ports: a forged trace is
stimulus, scored as what it does.

Replay rule (measured on the shipped references, docs/scoring.md "Trusted replay"): per time step, for
each SAMPLE record set the inputs (clock included) and ``eval()``; then the STEP record's values and
``eval()``. Events of the DUT's own (its delays) between recorded steps run in time order.

A build is made once per (design, parameter set, harness files, defines, backend) and cached under
``<cache>/replay-builds/<key>``, with the model's own trace header (its ports' widths and parameter
values as its recorder reports them) and the edges of its trigger list on input ports (what run 1's
recorder samples at). ``ReplayBuilder.run`` replays a trace (bytes) in the sandbox and returns what the
main wrote, and, on request, the DUT's outputs per time step as a trace of the same format.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ecov.harness.core.records import Design, SourceFile
from ecov.harness.core.safe_read import UnsafeFile, read_bytes
from ecov.harness.sandbox.base import Limits, ProcResult
from ecov.harness.sim import coverage as cov
from ecov.harness.sim import recorder
from ecov.harness.sim import trace as tr
from ecov.harness.sim.integrity import RunOutput
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.jobs import job_folder, run_with_out_dir
from ecov.harness.sim.mainlib import REPLAY_LIB, replay_glue
from ecov.harness.sim.verilator import (
    COVERAGE_FLAGS,
    TB_CONFIG,
    VerilatorBackend,
    _why,
    main_input,
    verilator_command,
)

REPLAY_VERSION = "4"  # bump when the replay build or main changes (2: the recorder reports its header only;
# 4: the main's loop prebuilt, mainlib.REPLAY_LIB)
VERILATOR_FLAGS = (
    "--cc", "--timing", "--flatten", *COVERAGE_FLAGS,
    "-Wno-fatal", "-Wno-lint", "-Wno-style", "--timescale", "1ns/1ps", "--prefix", "Vtop",
    "-fno-inline-funcs-eager",  # as the SV track's build: less C++ for the same model
)
MAIN_CPP = "ecov_replay_main.cpp"
TRACE_IN, TRACE_OUT = "trace.bin", "outputs.bin"
MALFORMED = "ECov replay: malformed trace"  # the main's message (and exit code 3) on a trace it refuses
_PORT = re.compile(r"^\s*VL_(IN|OUT|INOUT)(8|16|64|W)?\(&(\w+),(\d+),(\d+)(?:,\d+)?\);", re.M)
_TRIGGER = re.compile(r"trigger index \d+ is active: (@\(.*?\))\\n")


class ReplayError(RuntimeError):
    """The harness could not build or run the replay (the design's or the machine's problem)."""


@dataclass(frozen=True)
class ReplaySpec:
    """What a DUT-only build is made of. ``params`` are ``-G`` overrides (an allowed set; () = the
    defaults); ``harness_files`` (a contract monitor, a mutation selector) are compiled after the design
    with coverage off; ``defines`` are ``+define+`` pairs."""

    design: Design
    params: tuple[tuple[str, str], ...] = ()
    harness_files: tuple[SourceFile, ...] = ()
    defines: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict:
        d = self.design.to_dict()
        d.pop("contract", None)  # given as a harness file when it is bound
        d.pop("params", None)
        return {"design": d, "params": [list(p) for p in self.params],
                "harness": [f.to_dict() for f in self.harness_files], "defines": [list(d) for d in self.defines]}


@dataclass
class ReplayBuild:
    ok: bool
    stage: str  # plan | verilate | ports | compile | link | info | done
    log: str = ""
    folder: Path | None = None  # holds ``sim``
    header: tr.Header | None = None  # the model's own ports and parameter values
    edges: tuple[str, ...] = ()  # edges of its triggers on input ports
    outputs: tuple[tr.Port, ...] = ()
    seconds: float = 0.0
    cached: bool = False

    @property
    def binary(self) -> Path | None:
        return self.folder / "sim" if self.folder else None


@dataclass
class ReplayRun:
    ran: ProcResult
    got: RunOutput  # points and coverage, hierarchy as the model names it (the DUT module at its root)
    malformed: str = ""  # the main's reason when it refused the trace
    outputs: bytes = b""  # the output trace, when asked for
    extra: dict = field(default_factory=dict)  # what ``on_out`` returned


def read_capped(path: Path, cap: int) -> bytes:
    """A trace's bytes, read as a hostile file (core.safe_read: a regular file with one link, opened
    non-blocking without following links, at most ``cap`` bytes, under a wall clock); raises ``tr.TraceError``."""
    try:
        data = read_bytes(path, cap)
    except UnsafeFile as e:
        if e.errno == errno.EFBIG:
            raise tr.TraceError(f"the recording is over the cap of {cap} bytes") from e
        raise tr.TraceError(f"the trace is unusable: {e.strerror}") from e
    if data is None:
        raise tr.TraceError("the trace is missing")
    return data


def rehome(points: list[cov.CoveragePoint], top: str, path: str) -> list[cov.CoveragePoint]:
    """Points of a model whose top is the DUT module ``top``, renamed so that it sits at ``path``
    (``tb.dut``): the layout of a testbench's run, hierarchy and raw key alike."""
    out = []
    for p in points:
        hier, key = _moved(p.hier, p.key, top, path)
        out.append(cov.CoveragePoint(p.file, p.line, p.column, p.metric, p.detail, hier, p.lines, p.count,
                                     p.module, key))
    return out


@lru_cache(maxsize=1 << 16)
def _moved(hier: str, key: str, top: str, path: str) -> tuple[str, str]:
    """A point's hierarchy and raw key with ``top`` moved to ``path``. Cached: the replay model's points
    (its own, never a testbench's) recur in every replay of it; only the counts differ."""
    new_hier = path + hier[len(top):] if cov.in_subtree(hier, top) else hier
    return new_hier, _top_pattern(top).sub(lambda m: m.group(1) + path, key)


@lru_cache(maxsize=256)
def _top_pattern(top: str) -> re.Pattern:
    return re.compile("(\x01h\x02)" + re.escape(top) + r"(?=[.\x01]|$)")


def ports_of_header(text: str) -> list[tuple[str, str, int]]:
    """(direction, name, width) of each top-level port Verilator declared in ``Vtop.h``."""
    return [(m.group(1).lower(), m.group(3), abs(int(m.group(4)) - int(m.group(5))) + 1) for m in _PORT.finditer(text)]


def triggers_of(obj: Path) -> list[str]:
    """The trigger descriptions of a verilated model (its trigger dump: ``@(posedge clk)``, ...)."""
    out: list[str] = []
    for f in sorted(obj.glob("Vtop*.cpp")):
        out += _TRIGGER.findall(f.read_text(errors="replace"))
    return out


class ReplayBuilder:
    """Builds (once) and runs DUT-only replay models, on the SV track's build path (the prebuilt runtime,
    PCH, object cache and CPU slots of ``backend``)."""

    def __init__(self, backend: VerilatorBackend, build_cache: Path):
        self.backend = backend
        self.sandbox = backend.sandbox
        self.build_cache = Path(build_cache)

    def fingerprint(self) -> str:
        # the backend's whole fingerprint: its compiler and harness mains too (a model built by another is another)
        return "|".join((self.backend.fingerprint(), " ".join(VERILATOR_FLAGS), f"replay={REPLAY_VERSION}",
                         f"sandbox={self.sandbox.name}"))

    def key(self, spec: ReplaySpec) -> str:
        blob = json.dumps({"spec": spec.to_dict(), "backend": self.fingerprint()}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def build(self, spec: ReplaySpec, limits: Limits) -> ReplayBuild:
        """The cached build of ``spec``, made under a lock when missing (failures are not kept)."""
        folder = self.build_cache / self.key(spec)
        if (folder / ".complete").exists():
            return self._load(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        with open(str(folder) + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if (folder / ".complete").exists():
                return self._load(folder)
            with job_folder("replay-build-") as work:
                start = time.monotonic()
                res = self._build(work, spec, limits)
                res.seconds = round(time.monotonic() - start, 3)
                if not res.ok:
                    return res
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                shutil.move(str(work / "sim"), str(folder / "sim"))  # the jobs folder may be another file system
                os.chmod(folder, 0o755)
                assert res.header is not None
                (folder / "header.bin").write_bytes(tr.encode_header(res.header))
                (folder / "info.json").write_text(json.dumps({
                    "edges": list(res.edges), "outputs": [[p.name, p.width] for p in res.outputs]}))
                (folder / ".complete").write_text(self.fingerprint())
                res.folder = folder
                return res

    def _load(self, folder: Path) -> ReplayBuild:
        header, _ = tr.decode_header((folder / "header.bin").read_bytes())
        info = json.loads((folder / "info.json").read_text())
        return ReplayBuild(True, "done", "", folder, header, tuple(info["edges"]),
                           tuple(tr.Port(n, w) for n, w in info["outputs"]), cached=True)

    def _build(self, job: Path, spec: ReplaySpec, limits: Limits) -> ReplayBuild:
        design = spec.design
        try:
            plan = recorder.plan(design)
        except recorder.ReplayUnsupported as e:
            return ReplayBuild(False, "plan", str(e))
        root = self.backend.runtime.root
        sources = write_design(job, ((f.name, f.content) for f in design.files))
        harness = [*spec.harness_files, SourceFile(recorder.FILE, recorder.recorder_sv(plan))]
        for f in harness:
            (job / f.name).write_text(f.content)
        (job / TB_CONFIG).write_text("`verilator_config\n" + "".join(f'coverage_off -file "{f.name}"\n' for f in harness))
        argv = [*verilator_command(root), *VERILATOR_FLAGS, TB_CONFIG,
                *[f"-G{k}={v}" for k, v in spec.params], *[f"+define+{k}={v}" for k, v in spec.defines],
                "--top-module", design.top, "--Mdir", "obj", *sources, *[f.name for f in harness]]
        res = self.sandbox.run(argv, job, limits, untrusted=False, ro_paths=(str(root),),
                               env={"VERILATOR_ROOT": str(root)})
        if res.timed_out or res.returncode != 0:
            return ReplayBuild(False, "verilate", _why(res, "Verilator"))
        obj = job / "obj"
        ports = ports_of_header((obj / "Vtop.h").read_text())
        inputs = {n: w for d, n, w in ports if d == "in"}
        widths = {n: w for d, n, w in ports if d == "out"}
        outputs = tuple(tr.Port(n, widths[n]) for n in plan.outputs if n in widths)
        if ([d for d, _, _ in ports if d == "inout"] or set(inputs) != set(plan.inputs)
                or set(widths) != set(plan.outputs)):
            return ReplayBuild(False, "ports", f"the model's ports {[(d, n) for d, n, _ in ports]} are not the "
                               f"DUT's inputs {list(plan.inputs)} and outputs {list(plan.outputs)}")
        (obj / MAIN_CPP).write_text(replay_main(design.top, [(n, inputs[n]) for n in plan.inputs], outputs))
        compiled = self.backend.compile_generated(job, limits, extra_sources=(MAIN_CPP,))
        if not compiled.ok:
            return ReplayBuild(False, "compile", compiled.log)
        self.backend.runtime.ensure()  # the replay main's prebuilt half
        objects = [*compiled.objects, str(self.backend.runtime.lib_object(REPLAY_LIB))]
        linked = self.backend.link(job, objects, limits)
        if linked.timed_out or linked.returncode != 0:
            return ReplayBuild(False, "link", _why(linked, "linker"))
        edges = recorder.edges_of_triggers(triggers_of(obj), plan.inputs)
        shutil.rmtree(obj, ignore_errors=True)
        info = self._info(job, limits)
        if isinstance(info, str):
            return ReplayBuild(False, "info", info)
        return ReplayBuild(True, "done", "", job, info, edges, outputs)

    def _info(self, job: Path, limits: Limits) -> tr.Header | str:
        """The model's own header: its recorder's report of port widths and parameter values."""
        holder: dict[str, bytes] = {}

        def run(out: Path, nonce: str) -> ProcResult:
            ran = self.sandbox.run(["./sim", "info"], job, limits, untrusted=True, rw_paths=(str(out),),
                                   stdin=main_input(out, nonce))
            if (out / TRACE_IN).is_file():
                holder["trace"] = read_capped(out / TRACE_IN, 1 << 24)
            return ran

        try:
            ran, _ = run_with_out_dir(run)
            return tr.decode(holder["trace"]).header if ran.returncode == 0 and "trace" in holder else (
                f"the replay model did not report its ports (exit {ran.returncode}): {ran.output[-1500:]}")
        except tr.TraceError as e:
            return f"the replay model's own header is unreadable: {e}"

    def run(self, build: ReplayBuild, trace: bytes, limits: Limits, *, seed: int = 1, outputs: bool = False,
            keep_jobs: bool = False, on_out: Callable[[Path], dict] | None = None,
            plusargs: tuple[str, ...] = ()) -> ReplayRun:
        """Replay ``trace`` on ``build`` in the sandbox. ``on_out(folder)`` reads more of what the main
        wrote (a contract's files) before the folder is removed. ``plusargs`` (``+name=value``) reach the
        model's ``$value$plusargs`` (the bug hunt's mutant selector)."""
        if any(not re.fullmatch(r"\+[A-Za-z_]\w*=[\w.]*", p) for p in plusargs):
            raise ReplayError(f"bad plusargs {plusargs!r}")
        if build.binary is None:
            raise ReplayError("the replay build has no binary")
        cap = len(trace)
        holder: dict = {}
        with job_folder("replay-", keep_jobs) as job:
            try:
                os.link(build.binary, job / "sim")
            except OSError:
                shutil.copy2(build.binary, job / "sim")
            (job / TRACE_IN).write_bytes(trace)
            os.chmod(job / TRACE_IN, 0o644)
            argv = ["./sim", "replay", TRACE_IN, str(cap), *([TRACE_OUT] if outputs else []),
                    f"+verilator+seed+{seed}", "+verilator+rand+reset+0", "+verilator+error+limit+1000000", *plusargs]

            def run(out: Path, nonce: str) -> ProcResult:
                ran = self.sandbox.run(argv, job, limits, untrusted=True, rw_paths=(str(out),),
                                       stdin=main_input(out, nonce))
                if outputs and (out / TRACE_OUT).is_file():
                    holder["outputs"] = read_capped(out / TRACE_OUT, limits.file_mb << 20)
                if on_out is not None:
                    holder["extra"] = on_out(out)
                return ran

            ran, got = run_with_out_dir(run)
        m = re.search(re.escape(MALFORMED) + r"[^\n]*", ran.output)
        return ReplayRun(ran, got, m.group(0) if m and ran.returncode == 3 else "", holder.get("outputs", b""),
                         holder.get("extra") or {})




def replay_main(top: str, inputs: list[tuple[str, int]], outputs: tuple[tr.Port, ...]) -> str:
    """The replay main's glue for one model (mainlib.replay_glue: its port table; names checked by the caller
    against Vtop.h, widths from it); the loop itself is the prebuilt ``REPLAY_LIB``."""
    return replay_glue(recorder.scope_name(top), inputs, [(p.name, p.width) for p in outputs])


__all__ = ["REPLAY_VERSION", "ReplayError", "ReplaySpec", "ReplayBuild", "ReplayRun", "ReplayBuilder", "read_capped",
           "rehome", "ports_of_header", "triggers_of", "replay_main", "MALFORMED"]
