"""One Verilator build per design for the cocotb track, cached and reused by every Python testbench.

A cocotb testbench does not change the compiled model: the binary is the design verilated with
``--vpi``, cocotb's Verilator main (patched, see ``patch_main``) and cocotb's VPI library. It is built
with the SV track's build path (``VerilatorBackend.compile_generated``/``link``: the prebuilt runtime
objects and PCH, the object cache, -O0) instead of cocotb's Makefile flow, and kept under
``<cache>/cocotb-builds/<key>/sim``.

The model is not instrumented for coverage: it carries the harness recorder (ecov.harness.sim.recorder),
and the figures come from the trusted replay of its trace (ecov.harness.tracks.replayed).

VPI visibility is a trust boundary for feedback, not for figures: a Verilator config file makes the
toplevel's input ports public read-write and its output ports public read-only, and nothing else
public at all. Internal signals do not exist for VPI, and Verilator itself refuses writes to the outputs.
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

from ecov.harness.core.records import Design
from ecov.harness.sandbox.base import Limits, Sandbox
from ecov.harness.sim import recorder
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.mainlib import MAIN_INPUT_CPP
from ecov.harness.sim.runtime_patches import runtime_source
from ecov.harness.sim.verilator import (
    BuildOptions,
    VerilatorBackend,
    _mk_list,
    _why,
    cxx_std,
    verilator_command,
    verilator_version,
)

# Bump when the build (flags, main patch, port config) changes.
BUILD_VERSION = "7"  # 4: the harness's output folder, nonce, point list and end marker; 5: on stdin;
# 6: the recorder bound into the DUT, no coverage (the figures come from the replay); 7: stripped binary,
# channel buffer cleared, bounds-checked $fread in the runtime
VERILATOR_FLAGS = (
    # --flatten for the reason the SV track uses it: identical instances must not share counters.
    "--cc", "--vpi", "--timing", "--flatten",
    "-Wno-fatal", "-Wno-lint", "-Wno-style", "--timescale", "1ns/1ps", "--prefix", "Vtop",
)
PORTS_VLT = "ecov_ports.vlt"
MAIN_CPP = "ecov_cocotb_main.cpp"


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


def patch_main(text: str, scope: str, cap_bytes: int) -> str:
    """cocotb's Verilator main, on the SV track's integrity contract (ecov.harness.sim.verilator.ECOV_MAIN),
    recording the DUT's inputs for the trusted replay (ecov.harness.sim.recorder).

    - The output folder and nonce come on standard input (``verilator.main_input``), read first thing in
      ``main``, before the VPI bootstrap starts Python; standard input is then /dev/null and the process
      non-dumpable (its /proc files unreadable to its own uid): never in an environment, which the
      sandbox's /proc would show.
    - Right after the model is built, before Python starts, the recorder's writer opens the trace on the
      scored instance's DPI scope (``scope``) and writes its header; after the last eval of every time
      step (cocotb's writes included) it records the end-of-step inputs; the recorder module records
      the inputs at the DUT's own edges. The trace is capped at ``cap_bytes``.
    - Only the normal end of ``main`` (after the loop, ``final`` and cocotb's end-of-simulation
      callbacks, the last Python that runs) closes the trace and writes, last, the end marker with the
      nonce and the writer's state.
    - Time is kept in the Verilated context (the engine's runtime is built with ``VL_TIME_CONTEXT``).
    """
    anchors = ("int main(int argc, char **argv) {\n", "main_time = next_time;",
               'std::unique_ptr<Vtop> top(new Vtop(""));\n', "    top->final();\n\n    wrap_up();\n",
               "static vluint64_t main_time = 0;", "        top->eval_end_step();\n")
    if any(text.count(a) != 1 for a in anchors) or not re.fullmatch(r"[A-Za-z0-9_.]+", scope):
        raise CocotbUnavailable("unexpected cocotb Verilator main: cannot install the harness's recorder")
    # The engine's runtime is built with VL_TIME_CONTEXT: time lives in the context, not sc_time_stamp().
    text = text.replace("main_time = next_time;",
                        "main_time = next_time;\n            Verilated::threadContextp()->time(main_time);")
    text = re.sub(r"^static vluint64_t main_time = 0;.*\n", lambda m: m.group(0) + _MAIN_GLOBALS, text, count=1,
                  flags=re.M)
    text = text.replace("int main(int argc, char **argv) {\n", "int main(int argc, char **argv) {\n" + _MAIN_START)
    text = text.replace('std::unique_ptr<Vtop> top(new Vtop(""));\n', 'std::unique_ptr<Vtop> top(new Vtop(""));\n'
                        + f'    ecov_rec_open(Verilated::threadContextp(), ecov_out, "{scope}", {int(cap_bytes)}ULL);\n')
    text = text.replace("        top->eval_end_step();\n", "        ecov_rec_after_eval();\n        top->eval_end_step();\n")
    text = text.replace("    top->final();\n\n    wrap_up();\n", _MAIN_END)
    return "#include <algorithm>\n#include <cstdlib>\n#include <cstring>\n#include <string>\n" + text


_MAIN_GLOBALS = """static std::string ecov_out;  // ECov: the harness's private output folder
static std::string ecov_nonce;
""" + MAIN_INPUT_CPP + recorder.RECORDER_CPP
_MAIN_START = """    ecov_read_input(ecov_out, ecov_nonce);
"""
_MAIN_END = """    const bool ecov_finished = Verilated::gotFinish();
    top->final();

    wrap_up();
    const char* ecov_trace = ecov_rec_close(ecov_finished);
    if (!ecov_out.empty()) {  // ECov: the end marker, written last and on this path only
        if (FILE* f = fopen((ecov_out + "/end").c_str(), "w")) {
            fprintf(f, "ecov-end %s finish=%d trace=%s\\n", ecov_nonce.c_str(), ecov_finished ? 1 : 0, ecov_trace);
            fclose(f);
        }
    }
"""


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
    """Builds (once) and finds the simulator binary of a design for cocotb testbenches.

    Compiling and linking go through the SV track's ``VerilatorBackend.compile_generated``/``link``: the
    same prebuilt runtime, PCH, object cache and CPU slots; only the Verilator flags (``--vpi``, no
    ``--main``), the patched cocotb main and cocotb's VPI library differ.
    """

    def __init__(self, sandbox: Sandbox, runtime_cache: Path, build_cache: Path, options: BuildOptions | None = None):
        self.sandbox = sandbox
        self.options = options or BuildOptions()
        self.backend = VerilatorBackend(sandbox, runtime_cache, self.options)
        self.runtime = self.backend.runtime
        self.build_cache = Path(build_cache)

    def fingerprint(self) -> str:
        paths = cocotb_paths()
        return "|".join((verilator_version(), " ".join(VERILATOR_FLAGS), self.options.fingerprint(),
                         self.runtime.cxx, " ".join(cxx_std(self.runtime.cxx)), f"cocotb={paths.version}", f"build={BUILD_VERSION}", f"sandbox={self.sandbox.name}"))

    def key(self, design: Design, recorder_sv: str = "", cap_bytes: int = 0) -> str:
        blob = json.dumps({"design": design.to_dict(), "backend": self.fingerprint(), "recorder": recorder_sv,
                           "cap": cap_bytes}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def build(self, design: Design, inputs: list[str], outputs: list[str], limits: Limits, recorder_sv: str,
              cap_bytes: int) -> CocotbBuild:
        """The cached build of ``design`` with its recorder (``recorder_sv``, from the replay side; the trace
        capped at ``cap_bytes``), building it under a lock when missing (failures are not kept)."""
        folder = self.build_cache / self.key(design, recorder_sv, cap_bytes)
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
                res = self._build(work, design, inputs, outputs, limits, recorder_sv, cap_bytes)
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

    def _build(self, job: Path, design: Design, inputs: list[str], outputs: list[str], limits: Limits,
               recorder_sv: str, cap_bytes: int) -> CocotbBuild:
        start = time.monotonic()
        paths = cocotb_paths()
        root = self.runtime.root
        sources = write_design(job, ((f.name, f.content) for f in design.files))
        (job / PORTS_VLT).write_text(ports_config(design.top, inputs, outputs))
        (job / recorder.FILE).write_text(recorder_sv)
        argv = [*verilator_command(root), *VERILATOR_FLAGS, "--top-module", design.top, "--Mdir", "obj",
                PORTS_VLT, *sources, recorder.FILE]
        res = self.sandbox.run(argv, job, limits, untrusted=False, ro_paths=(str(root),),
                               env={"VERILATOR_ROOT": str(root)})
        if res.timed_out or res.returncode != 0:
            return CocotbBuild(False, "verilate", _why(res, "Verilator"), seconds=time.monotonic() - start)
        obj = job / "obj"
        (obj / MAIN_CPP).write_text(patch_main(paths.main_cpp.read_text(), recorder.scope_name(design.top), cap_bytes))
        classes = (obj / "Vtop_classes.mk").read_text()
        globals_ = _mk_list(classes, "VM_GLOBAL_FAST") + _mk_list(classes, "VM_GLOBAL_SLOW")
        rt = self.runtime.ensure()
        extra = self._extra_runtime(rt, [g for g in globals_ if not (rt / f"{g}.o").exists()])
        compiled = self.backend.compile_generated(job, limits, extra_sources=(MAIN_CPP,), runtime_objects=extra)
        if not compiled.ok:
            return CocotbBuild(False, "compile", compiled.log, seconds=time.monotonic() - start)
        # libcocotbvpi_verilator is found at run time through LD_LIBRARY_PATH (ecov.harness.tracks.cocotb.pyview).
        # cocotb's main writes coverage (of nothing: the model is not instrumented) through verilated_cov.
        linked = self.backend.link(job, [*compiled.objects, str(rt / "verilated_cov.o")], limits,
                                   extra=(f"-L{paths.libs_dir}", "-lcocotbvpi_verilator"),
                                   ro_paths=(str(paths.libs_dir),))
        if linked.timed_out or linked.returncode != 0:
            return CocotbBuild(False, "link", _why(linked, "linker"), seconds=time.monotonic() - start)
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
                # the same command as the prebuilt runtime's own objects (Runtime.ensure)
                src = runtime_source(self.runtime.root, name, obj.parent)
                self.runtime._cc(["-Os", "-c", str(src), "-o", str(tmp)])
                os.replace(tmp, obj)
        return out
