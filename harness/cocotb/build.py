"""One Verilator build per design for the cocotb track, cached and reused by every Python testbench.

A cocotb testbench does not change the compiled model: the binary is the design verilated with
``--vpi``, cocotb's Verilator main (patched, see ``patch_main``) and cocotb's VPI library. It is built
with the engine's own fast path (harness.sim.verilator: the prebuilt runtime objects and PCH, one unity
file at -O0) instead of cocotb's Makefile flow, and kept under ``<cache>/cocotb-builds/<key>/sim``.

VPI visibility is the first trust boundary: a Verilator config file makes the toplevel's input ports
public read-write and its output ports public read-only, and nothing else public at all. Internal
signals do not exist for VPI, so a testbench cannot write (or read) inside the design, and Verilator
itself refuses writes to the outputs.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from harness.records import Design
from harness.sim.sandbox import Limits, Sandbox
from harness.sim.verilator import (
    COVERAGE_FLAGS,
    PCH_HEADER,
    BuildOptions,
    Runtime,
    _mk_list,
    _why,
    cxx,
    verilator_version,
)

# Bump when the build (flags, main patch, port config) changes in a way that changes figures.
BUILD_VERSION = "3"
VERILATOR_FLAGS = (
    # --flatten for the reason the SV track uses it: identical instances must not share counters.
    "--cc", "--vpi", "--timing", "--flatten", *COVERAGE_FLAGS,
    "-Wno-fatal", "-Wno-lint", "-Wno-style", "--timescale", "1ns/1ps", "--prefix", "Vtop",
)
RTL_DIR = "rtl"
HEADER_SUFFIXES = (".vh", ".svh", ".h", ".inc")
PORTS_VLT = "ecov_ports.vlt"
MAIN_CPP = "ecov_cocotb_main.cpp"
COVERAGE_ENV = "ECOV_COVERAGE_FILE"


class CocotbUnavailable(RuntimeError):
    """cocotb is not installed, or its Verilator glue is missing."""


@dataclass(frozen=True)
class CocotbPaths:
    version: str
    libs_dir: Path  # libcocotbvpi_verilator.so, libgpi.so
    main_cpp: Path  # cocotb's share/lib/verilator/verilator.cpp
    entry: str  # the PyGPI entry point (cocotb/simulator*.so,initialize)
    libpython: str


@lru_cache(maxsize=1)
def cocotb_paths() -> CocotbPaths:
    try:
        import cocotb
        import cocotb_tools.config as cfg
    except ImportError as e:  # pragma: no cover - cocotb is a core dependency
        raise CocotbUnavailable(f"cocotb is not installed ({e}); pip install 'cocotb==2.1.*'") from e
    libs = Path(cfg.libs_dir)
    main = Path(cfg.share_dir) / "lib" / "verilator" / "verilator.cpp"
    if not (libs / "libcocotbvpi_verilator.so").exists() or not main.exists():
        raise CocotbUnavailable(f"cocotb {cocotb.__version__} has no Verilator glue under {libs} / {main}")
    return CocotbPaths(cocotb.__version__, libs, main, cfg.pygpi_entry_point(), _libpython())


def _libpython() -> str:
    import sysconfig

    name = sysconfig.get_config_var("INSTSONAME") or sysconfig.get_config_var("LDLIBRARY") or ""
    for d in (sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LIBPL")):
        if d and name and (Path(d) / name).exists():
            return str(Path(d) / name)
    try:
        import find_libpython

        found = find_libpython.find_libpython()
    except ImportError:
        found = None
    if not found:
        raise CocotbUnavailable("cannot find libpython (Python built without --enable-shared?)")
    return found


def patch_main(text: str) -> str:
    """cocotb's Verilator main, with coverage written per instance to a harness-chosen file.

    - Identical sub-instances keep separate counters (``forcePerInstance(true)`` always; cocotb 2.1 only
      does it with ``--coverage-per-instance`` on the command line, the fix of cocotb issue #5684).
    - Time is kept in the Verilated context (the engine's runtime is built with ``VL_TIME_CONTEXT``).
    - The coverage file name comes from ``ECOV_COVERAGE_FILE``, read and removed from the environment
      before Python starts, so the testbench never sees where coverage goes.
    """
    per_inst = re.compile(r"if \(coverage_per_instance\) \{\s*(Verilated::threadContextp\(\)->coveragep\(\)"
                          r"->forcePerInstance\(true\);)\s*\}")
    if not per_inst.search(text) or "VerilatedCov::write();" not in text or "int main(int argc" not in text:
        raise CocotbUnavailable("unexpected cocotb Verilator main: cannot patch coverage handling")
    text = per_inst.sub(r"\1", text)
    if "main_time = next_time;" not in text:
        raise CocotbUnavailable("unexpected cocotb Verilator main: cannot patch the time keeping")
    # The engine's runtime is built with VL_TIME_CONTEXT: time lives in the context, not sc_time_stamp().
    text = text.replace("main_time = next_time;",
                        "main_time = next_time;\n            Verilated::threadContextp()->time(main_time);")
    text = text.replace("VerilatedCov::write();", "VerilatedCov::write(ecov_coverage_file);")
    text = text.replace("static vluint64_t main_time = 0;",
                        "static vluint64_t main_time = 0;\nstatic std::string ecov_coverage_file = \"coverage.dat\";",
                        1)
    hook = (f'    if (const char* f = getenv("{COVERAGE_ENV}")) {{ ecov_coverage_file = f; unsetenv("{COVERAGE_ENV}"); }}\n')
    text = re.sub(r"(int main\(int argc, char \*\*argv\) \{\n)", lambda m: m.group(1) + hook, text, count=1)
    return "#include <cstdlib>\n" + text


def ports_config(module: str, inputs: list[str], outputs: list[str]) -> str:
    """Inputs read-write, outputs (and inouts) read-only, nothing else visible to VPI."""
    lines = ["`verilator_config"]
    lines += [f'public_flat_rw -module "{module}" -var "{n}"' for n in inputs]
    lines += [f'public_flat_rd -module "{module}" -var "{n}"' for n in outputs]
    return "\n".join(lines) + "\n"


@dataclass
class CocotbBuild:
    ok: bool
    stage: str  # ports | verilate | compile | link | done
    log: str
    folder: Path | None = None  # holds ``sim``
    seconds: float = 0.0
    cached: bool = False

    @property
    def binary(self) -> Path | None:
        return self.folder / "sim" if self.folder else None


class CocotbBuilder:
    """Builds (once) and finds the simulator binary of a design for cocotb testbenches."""

    def __init__(self, sandbox: Sandbox, runtime_cache: Path, build_cache: Path, options: BuildOptions | None = None):
        self.sandbox = sandbox
        self.options = options or BuildOptions()
        self.runtime = Runtime(runtime_cache, self.options.opt_level)
        self.build_cache = Path(build_cache)

    def fingerprint(self) -> str:
        paths = cocotb_paths()
        return "|".join((verilator_version(), " ".join(VERILATOR_FLAGS), self.options.fingerprint(), cxx(),
                         f"cocotb={paths.version}", f"build={BUILD_VERSION}"))

    def key(self, design: Design) -> str:
        blob = json.dumps({"design": design.to_dict(), "backend": self.fingerprint()}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def build(self, design: Design, inputs: list[str], outputs: list[str], limits: Limits) -> CocotbBuild:
        """The cached build of ``design``, building it under a lock when missing (failures are not kept)."""
        folder = self.build_cache / self.key(design)
        done = folder / ".complete"
        if done.exists():
            return CocotbBuild(True, "done", "", folder, cached=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
        with open(str(folder) + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if done.exists():
                return CocotbBuild(True, "done", "", folder, cached=True)
            work = Path(tempfile.mkdtemp(prefix="cocotb-build-", dir=self.build_cache))
            try:
                res = self._build(work, design, inputs, outputs, limits)
                if not res.ok:
                    return res
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                os.replace(work / "sim", folder / "sim")
                os.chmod(folder, 0o755)
                (folder / ".complete").write_text(self.fingerprint())
                res.folder = folder
                return res
            finally:
                shutil.rmtree(work, ignore_errors=True)

    def _build(self, job: Path, design: Design, inputs: list[str], outputs: list[str], limits: Limits) -> CocotbBuild:
        start = time.monotonic()
        paths = cocotb_paths()
        root = self.runtime.root
        env = {"VERILATOR_ROOT": str(root)}
        rtl = job / RTL_DIR
        rtl.mkdir()
        sources = [f"-I{RTL_DIR}"]
        for f in design.files:
            name = Path(f.name).name
            (rtl / name).write_text(f.content)
            if not name.endswith(HEADER_SUFFIXES):
                sources.append(f"{RTL_DIR}/{name}")
        (job / PORTS_VLT).write_text(ports_config(design.top, inputs, outputs))
        ro = [str(root)]
        argv = [str(root / "bin" / "verilator"), *VERILATOR_FLAGS, "--top-module", design.top, "--Mdir", "obj",
                PORTS_VLT, *sources]
        res = self.sandbox.run(argv, job, limits, untrusted=False, ro_paths=tuple(ro), env=env)
        if res.timed_out or res.returncode != 0:
            return CocotbBuild(False, "verilate", _why(res, "Verilator"), seconds=time.monotonic() - start)
        obj = job / "obj"
        classes = (obj / "Vtop_classes.mk").read_text()
        globals_ = _mk_list(classes, "VM_GLOBAL_FAST") + _mk_list(classes, "VM_GLOBAL_SLOW")
        units = sorted(p.name for p in obj.glob("Vtop*.cpp"))
        (obj / MAIN_CPP).write_text(patch_main(paths.main_cpp.read_text()))
        rt = self.runtime.ensure()
        extra = self._extra_runtime(rt, [g for g in globals_ if not (rt / f"{g}.o").exists()])
        ro += [str(rt), str(paths.libs_dir)]
        cflags = [self.options.opt_level, *self.runtime.cflags(), "-Iobj"]
        lines = []
        if self.options.use_pch:
            cflags += [f"-I{rt}", "-Winvalid-pch"]
            lines.append(f'#include "{PCH_HEADER}"\n')
        lines += [f'#include "{u}"\n' for u in [*units, MAIN_CPP]]
        (obj / "ecov_unity.cpp").write_text("".join(lines))
        compile_ = [cxx(), *cflags, "-c", "obj/ecov_unity.cpp", "-o", "obj/ecov_unity.o"]
        res = self.sandbox.run(compile_, job, limits, untrusted=False, ro_paths=tuple(ro), env=env)
        if res.timed_out or res.returncode != 0:
            return CocotbBuild(False, "compile", _why(res, "C++ compiler"), seconds=time.monotonic() - start)
        objects = ["obj/ecov_unity.o"] + [str(rt / f"{g}.o") if (rt / f"{g}.o").exists() else str(extra[g])
                                          for g in globals_]
        link = [cxx(), *objects, "-o", "sim", "-pthread", "-latomic", f"-L{paths.libs_dir}",
                "-lcocotbvpi_verilator"]  # found at run time through LD_LIBRARY_PATH (harness.cocotb.pyview)
        res = self.sandbox.run(link, job, limits, untrusted=False, ro_paths=tuple(ro), env=env)
        if res.timed_out or res.returncode != 0:
            return CocotbBuild(False, "link", _why(res, "linker"), seconds=time.monotonic() - start)
        return CocotbBuild(True, "done", "", job, seconds=time.monotonic() - start)

    def _extra_runtime(self, rt: Path, names: list[str]) -> dict[str, Path]:
        """Runtime objects the SV track does not need (verilated_vpi), built once next to the others."""
        out = {}
        for name in names:
            obj = rt / "cocotb" / f"{name}.o"
            out[name] = obj
            if obj.exists():
                continue
            obj.parent.mkdir(exist_ok=True)
            with open(obj.parent / ".lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if obj.exists():
                    continue
                tmp = obj.with_suffix(".tmp.o")
                import subprocess

                src = self.runtime.root / "include" / f"{name}.cpp"
                cmd = [cxx(), *self.runtime.cflags(), "-Os", "-c", str(src), "-o", str(tmp)]
                proc = subprocess.run(cmd, capture_output=True, text=True)
                if proc.returncode:
                    raise RuntimeError(f"building Verilator runtime object {name} failed:\n{proc.stderr[-2000:]}")
                os.replace(tmp, obj)
        return out
