"""The trusted replay: a DUT-only model, built by the harness, driven from a recorded trace.

Every published figure (coverage, the point set, a contract's legal figures) comes from here, where no
testbench code runs: the model is the task's RTL alone with the DUT as Verilator's top (a parameter set
the task allows, ``--coverage``, the contract monitor and any other harness files bound in), and the
main is harness C++ (``REPLAY_MAIN``) that reads the trace (ecov.harness.sim.trace) with every read
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
from ecov.harness.sim.mainlib import CONTRACT_CPP, MAIN_INPUT_CPP, MAIN_PROLOGUE_CPP
from ecov.harness.sim.verilator import (
    COVERAGE_FLAGS,
    TB_CONFIG,
    VerilatorBackend,
    _why,
    main_input,
    verilator_command,
)

REPLAY_VERSION = "3"  # bump when the replay build or main changes (2: the recorder reports its header only)
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
        linked = self.backend.link(job, compiled.objects, limits)
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


# The replay main. ``ecov_apply``/``ecov_outputs`` are generated per model (its ports, from Vtop.h); the
# rest is fixed. Modes: ``info`` (write the model's own header as a trace and stop) and ``replay TRACE CAP
# [OUTPUTS]``. Anything in the trace it cannot read exactly is refused: exit code 3 and MALFORMED.
_REPLAY_TEMPLATE = r"""// ECov replay main (harness/sim/replay.py): the DUT alone, driven from a recorded trace.
#include "verilated.h"
#include "verilated_cov.h"
#include "Vtop.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include <sys/stat.h>
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the trace is little-endian");
@@INPUT@@
@@CONTRACT@@
@@RECORDER@@
template <typename T> static inline void ecov_set(T& port, const uint32_t* w, uint32_t width) {
    unsigned long long v = w[0];
    if (width > 32) v |= static_cast<unsigned long long>(w[1]) << 32;
    port = static_cast<T>(v);
}
template <std::size_t N> static inline void ecov_set(VlWide<N>& port, const uint32_t* w, uint32_t width) {
    const uint32_t n = (width + 31) / 32;
    for (std::size_t i = 0; i < N; ++i) port[i] = i < n ? w[i] : 0u;
}
template <typename T> static inline void ecov_get(const T& port, std::vector<uint32_t>& out, uint32_t width) {
    const unsigned long long v = static_cast<unsigned long long>(port);
    out.push_back(static_cast<uint32_t>(v));
    if (width > 32) out.push_back(static_cast<uint32_t>(v >> 32));
}
template <std::size_t N> static inline void ecov_get(const VlWide<N>& port, std::vector<uint32_t>& out, uint32_t width) {
    for (uint32_t i = 0; i < (width + 31) / 32; ++i) out.push_back(port[i]);
}
static const char* const ECOV_SCOPE = "@@SCOPE@@";
static const uint32_t ecov_in_widths[] = {@@IN_WIDTHS@@};
static const size_t ecov_n_in = @@N_IN@@;
static const char* const ecov_out_names[] = {@@OUT_NAMES@@};
static const uint32_t ecov_out_widths[] = {@@OUT_WIDTHS@@};
static const size_t ecov_n_out = @@N_OUT@@;
static void ecov_apply(Vtop* t, const uint32_t* w) {
@@APPLY@@}
static void ecov_outputs(Vtop* t, std::vector<uint32_t>& out) {
    out.clear();
@@OUTPUTS@@}

[[noreturn]] static void ecov_malformed(const char* why, size_t at) {
    std::fprintf(stderr, "ECov replay: malformed trace: %s (byte %zu)\n", why, at);
    std::fflush(stderr);
    std::_Exit(3);
}

struct EcovBytes {
    std::vector<unsigned char> d;
    size_t pos = 0;
    const unsigned char* take(size_t n, const char* what) {
        if (n > d.size() - pos) ecov_malformed(what, pos);
        const unsigned char* p = d.data() + pos;
        pos += n;
        return p;
    }
    unsigned long long u(int n, const char* what) {
        const unsigned char* p = take(static_cast<size_t>(n), what);
        unsigned long long v = 0;
        for (int i = 0; i < n; ++i) v |= static_cast<unsigned long long>(p[i]) << (8 * i);
        return v;
    }
};

static void ecov_read_file(const char* path, unsigned long long cap, std::vector<unsigned char>& out) {
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) ecov_malformed("cannot open the trace", 0);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) ecov_malformed("not a regular file", 0);
    if (static_cast<unsigned long long>(st.st_size) > cap) ecov_malformed("over the cap", 0);
    out.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < out.size()) {
        const ssize_t n = read(fd, out.data() + got, out.size() - got);
        if (n <= 0) ecov_malformed("short read", got);
        got += static_cast<size_t>(n);
    }
    close(fd);
}

static FILE* ecov_out_trace = nullptr;
static std::vector<uint32_t> ecov_out_last, ecov_out_now;
static bool ecov_out_any = false;
static void ecov_out_put(const std::string& s) {
    if (ecov_out_trace && std::fwrite(s.data(), 1, s.size(), ecov_out_trace) != s.size()) {
        std::fclose(ecov_out_trace);
        ecov_out_trace = nullptr;
    }
}
static void ecov_out_flush(Vtop* t, unsigned long long now) {
    if (!ecov_out_trace) return;
    ecov_outputs(t, ecov_out_now);
    if (ecov_out_any && ecov_out_now == ecov_out_last) return;
    std::string s;
    ecov_rec_u(s, 2, 1);
    ecov_rec_u(s, now, 8);
    for (uint32_t w : ecov_out_now) ecov_rec_u(s, w, 4);
    ecov_out_put(s);
    ecov_out_last = ecov_out_now;
    ecov_out_any = true;
}

int main(int argc, char** argv, char**) {
@@PROLOGUE@@    if (argc >= 2 && std::strcmp(argv[1], "info") == 0) {  // the model's own header, as a trace with no steps
        ecov_rec_open(contextp.get(), ecov_out, ECOV_SCOPE, 1ULL << 24);
        std::printf("%s\n", ecov_rec_close(false));
        return ecov_rec_state == 1 ? 0 : 2;
    }
    if (argc < 4 || std::strcmp(argv[1], "replay") != 0) {
        std::fprintf(stderr, "usage: sim info | sim replay TRACE CAP [OUTPUTS]\n");
        return 2;
    }
    const std::string own = ecov_rec_design(ECOV_SCOPE);
    ecov_rec_scope = nullptr;  // the model's recorder stays silent in the replay
    if (own.empty()) { std::fprintf(stderr, "ECov replay: the model has no recorder\n"); return 2; }
    EcovBytes in;
    ecov_read_file(argv[2], std::strtoull(argv[3], nullptr, 10), in.d);
    if (std::memcmp(in.take(8, "magic"), "ECOVTRC1", 8) != 0) ecov_malformed("bad magic", 0);
    const long long prec = static_cast<int32_t>(static_cast<uint32_t>(in.u(4, "precision")));
    const size_t design_at = in.pos;
    if (in.d.size() - in.pos < own.size() || std::memcmp(in.take(own.size(), "header"), own.data(), own.size()) != 0)
        ecov_malformed("its ports or parameters are not this model's", design_at);
    const long long mine = contextp->timeprecision();
    if (prec < -18 || prec > 2) ecov_malformed("bad time precision", 8);
    unsigned long long scale = 1;
    for (long long i = 0; i < (prec > mine ? prec - mine : mine - prec); ++i) scale *= 10ULL;
    auto conv = [&](unsigned long long t) -> unsigned long long {
        if (prec >= mine) {
            if (scale && t > ~0ULL / scale) ecov_malformed("time out of range", in.pos);
            return t * scale;
        }
        return t / scale;
    };
    if (argc >= 5 && argv[4][0] != '+') {
        ecov_out_trace = std::fopen((ecov_out + "/" + argv[4]).c_str(), "wb");
        std::string h("ECOVTRC1");
        ecov_rec_u(h, static_cast<uint32_t>(static_cast<int32_t>(mine)), 4);
        ecov_rec_u(h, ecov_n_out, 4);
        for (size_t i = 0; i < ecov_n_out; ++i) {
            ecov_rec_name(h, ecov_out_names[i]);
            ecov_rec_u(h, ecov_out_widths[i], 4);
        }
        ecov_rec_u(h, ecov_rec_nparams, 4);
        h += ecov_rec_params;
        ecov_out_put(h);
    }
    size_t words = 0, n_wide = 0;
    std::vector<size_t> wide_at(ecov_n_in + 1);
    std::vector<uint32_t> wide_rem(ecov_n_in + 1);
    for (size_t i = 0; i < ecov_n_in; ++i) {
        words += (ecov_in_widths[i] + 31) / 32;
        if (ecov_in_widths[i] % 32) { wide_at[n_wide] = words - 1; wide_rem[n_wide++] = ecov_in_widths[i] % 32; }
    }
    std::vector<uint32_t> w(words + 1, 0u);
    if (!ecov_out.empty()) contextp->coveragep()->write(ecov_out + "/points.dat");
    unsigned long long last = 0, flags = 0;
    bool final_seen = false;
    auto advance = [&](unsigned long long t, bool inclusive) {
        while (!contextp->gotFinish() && topp->eventsPending()) {
            const unsigned long long next = topp->nextTimeSlot();
            if (next > t || (!inclusive && next == t)) break;
            if (next > contextp->time()) { ecov_out_flush(topp.get(), contextp->time()); contextp->time(next); }
            topp->eval();
        }
    };
    while (in.pos < in.d.size() && !contextp->gotFinish()) {
        const size_t at = in.pos;
        const unsigned kind = static_cast<unsigned>(in.u(1, "record kind"));
        const unsigned long long t = in.u(8, "record time");
        if (t < last) ecov_malformed("time goes back", at);
        last = t;
        const unsigned long long now = conv(t);
        if (kind == 3) {
            flags = in.u(4, "final flags");
            if (in.pos != in.d.size()) ecov_malformed("bytes after the final record", in.pos);
            final_seen = true;
            advance(now, true);
            break;
        }
        if (kind != 1 && kind != 2) ecov_malformed("unknown record kind", at);
        std::memcpy(w.data(), in.take(4 * words, "record values"), 4 * words);  // little-endian, as written
        for (size_t i = 0; i < n_wide; ++i)
            if (w[wide_at[i]] >> wide_rem[i]) ecov_malformed("a value wider than its port", at);
        advance(now, false);
        if (now > contextp->time()) { ecov_out_flush(topp.get(), contextp->time()); contextp->time(now); }
        ecov_apply(topp.get(), w.data());
        topp->eval();
    }
    if (!final_seen && !contextp->gotFinish()) ecov_malformed("no final record: the recording was cut short", in.pos);
    ecov_out_flush(topp.get(), contextp->time());
    if (ecov_out_trace) {
        std::string s;
        ecov_rec_u(s, 3, 1);
        ecov_rec_u(s, contextp->time(), 8);
        ecov_rec_u(s, flags & 1ULL, 4);
        ecov_out_put(s);
        if (ecov_out_trace) std::fclose(ecov_out_trace);
    }
    topp->final();
    if (!ecov_out.empty()) {
        contextp->coveragep()->write(ecov_out + "/coverage.dat");
        ecov_contract_write();
        if (FILE* f = std::fopen((ecov_out + "/end").c_str(), "w")) {
            std::fprintf(f, "ecov-end %s finish=%d trace=ok\n", ecov_nonce.c_str(), (flags & 1ULL) ? 1 : 0);
            std::fclose(f);
        }
    }
    return 0;
}
"""


def replay_main(top: str, inputs: list[tuple[str, int]], outputs: tuple[tr.Port, ...]) -> str:
    """The replay main of one model: the fixed loop plus its port table (names checked by the caller
    against Vtop.h, widths from it)."""
    apply, off = [], 0
    for name, width in inputs:
        apply.append(f"    ecov_set(t->{name}, w + {off}, {width}u);\n")
        off += (width + 31) // 32
    subs = {
        "INPUT": MAIN_INPUT_CPP, "CONTRACT": CONTRACT_CPP, "PROLOGUE": MAIN_PROLOGUE_CPP, "RECORDER": recorder.RECORDER_CPP,
        "SCOPE": recorder.scope_name(top),
        "IN_WIDTHS": ", ".join(f"{w}u" for _, w in inputs) or "0u", "N_IN": str(len(inputs)),
        "OUT_NAMES": ", ".join(f'"{p.name}"' for p in outputs) or "nullptr",
        "OUT_WIDTHS": ", ".join(f"{p.width}u" for p in outputs) or "0u", "N_OUT": str(len(outputs)),
        "APPLY": "".join(apply),
        "OUTPUTS": "".join(f"    ecov_get(t->{p.name}, out, {p.width}u);\n" for p in outputs),
    }
    text = _REPLAY_TEMPLATE
    for k, v in subs.items():
        text = text.replace(f"@@{k}@@", v)
    return text


__all__ = ["REPLAY_VERSION", "ReplayError", "ReplaySpec", "ReplayBuild", "ReplayRun", "ReplayBuilder", "read_capped",
           "rehome", "ports_of_header", "triggers_of", "replay_main", "MALFORMED"]
