"""Score one cocotb testbench against one design: policy -> cached design build -> simulation -> coverage.

The same contract as ``harness.engine.Engine`` (a ScoreResult, cached by design, testbench, seed and
backend), so the agent loop, run folders and leaderboard take either. Only the simulation is paid per
testbench: the compiled model is built once per design (harness.cocotb.build).

Coverage comes back with the DUT as the HDL toplevel; its hierarchy is renamed so that the toplevel is
the task's instance (``sync_fifo.u_x`` -> ``<tb>.u_fifo.u_x``), and every figure, target and uncovered
listing then reads exactly as in the SystemVerilog track.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from harness.atomic import write_text_atomic
from harness.cocotb import TB_FILE, TB_MODULE
from harness.cocotb.build import COVERAGE_ENV, CocotbBuilder, CocotbUnavailable, cocotb_paths
from harness.cocotb.policy import check_python_testbench
from harness.cocotb.pyview import python_view, view_paths
from harness.engine import EngineConfig, default_cache_dir, jobs_dir
from harness.records import (
    COMPILE_ERROR,
    CRASHED,
    INFRA_ERROR,
    OK,
    REJECTED,
    TIMEOUT,
    Design,
    ScoreResult,
)
from harness.sim import coverage as cov
from harness.sim.sandbox import Limits, Sandbox, make_sandbox

SCORING_VERSION = "cocotb-1"
GUARD_MODULE = "ecov_guard"
TB_ROOT = "tb"  # the testbench root the DUT hierarchy is renamed under
MAX_ERRORS = 8


class RlimitRefused(ValueError):
    """The rlimit sandbox cannot contain Python code: cocotb testbenches need bwrap or docker."""


def require_isolating_sandbox(kind: str) -> None:
    if kind == "rlimit":
        raise RlimitRefused("--tb-lang cocotb runs the testbench's Python inside the simulator: it needs the bwrap "
                            "or docker sandbox (no network, read-only host, unprivileged user); rlimit gives none of that")


class CocotbEngine:
    """The cocotb counterpart of harness.engine.Engine (same config, same result records)."""

    tb_lang = "cocotb"

    def __init__(self, config: EngineConfig | None = None, sandbox: Sandbox | None = None):
        self.config = config or EngineConfig()
        require_isolating_sandbox(self.config.sandbox)
        self.sandbox = sandbox or make_sandbox(self.config.sandbox)
        if self.sandbox.name == "rlimit":
            raise RlimitRefused("--tb-lang cocotb needs bubblewrap (bwrap) or docker; neither is usable here, and "
                                "the rlimit fallback cannot contain Python code")
        cocotb_paths()  # fail early with a clear error when cocotb is missing
        self.cache_root = Path(self.config.cache_dir or default_cache_dir())
        self.builder = CocotbBuilder(self.sandbox, default_cache_dir(), self.cache_root / "cocotb-builds",
                                     self.config.build)

    @property
    def isolation(self) -> str:
        return self.sandbox.name

    def cache_key(self, design: Design, testbench: str, seed: int) -> str:
        payload = {"design": design.to_dict(), "tb": testbench, "seed": seed, "tb_lang": "cocotb",
                   "backend": self.builder.fingerprint(), "scoring": SCORING_VERSION,
                   "max_uncovered": self.config.max_uncovered}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    def score(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        start = time.monotonic()
        result = self._score(design, testbench, seed)
        result.seconds = round(time.monotonic() - start, 3)
        return result

    def _score(self, design: Design, testbench: str, seed: int) -> ScoreResult:
        base = ScoreResult(status=OK, instance=design.instance, isolation=self.isolation, seed=seed)
        check = check_python_testbench(testbench)
        if check.syntax_error:
            return replace(base, status=COMPILE_ERROR, errors=[check.syntax_error])
        if check.violations:
            return replace(base, status=REJECTED, errors=[str(v) for v in check.violations])
        if not check.tests:
            return replace(base, status=COMPILE_ERROR,
                           errors=[f"{TB_FILE} defines no test: decorate at least one `async def` with @cocotb.test()"])
        key = self.cache_key(design, testbench, seed)
        base.key = key
        path = self.cache_root / "scores" / key[:2] / f"{key}.json"
        if self.config.use_cache and path.exists():
            try:
                hit = ScoreResult.from_dict(json.loads(path.read_text()))
                hit.cached, hit.isolation = True, self.isolation
                return hit
            except (json.JSONDecodeError, TypeError, KeyError):
                path.unlink(missing_ok=True)
        result = self._build_and_run(design, testbench, seed, base)
        if self.config.use_cache and result.status not in (INFRA_ERROR, TIMEOUT):
            write_text_atomic(path, json.dumps(result.to_dict(timing=False), sort_keys=True))
        return result

    def build(self, design: Design):
        """The design's cached build (built now when missing)."""
        from harness.models.ports import INPUT, PortParseError, parse_ports

        try:
            ports = parse_ports(design.files, design.top)
        except PortParseError as e:
            raise CocotbUnavailable(f"cannot read the ports of {design.top}: {e}") from e
        inputs = [p.name for p in ports.ports if p.direction == INPUT]
        outputs = [p.name for p in ports.ports if p.direction != INPUT]
        cfg = self.config
        limits = Limits(wall_seconds=cfg.compile_seconds, cpu_seconds=int(cfg.compile_seconds) + 10,
                        memory_mb=max(cfg.memory_mb, 4096), output_bytes=cfg.output_bytes, processes=256)
        return self.builder.build(design, inputs, outputs, limits)

    def _build_and_run(self, design: Design, testbench: str, seed: int, base: ScoreResult) -> ScoreResult:
        try:
            built = self.build(design)
        except (OSError, RuntimeError) as exc:
            return replace(base, status=INFRA_ERROR, errors=[f"harness failure while building: {exc}"])
        if not built.ok:
            # The design is the benchmark's, not the model's: a failing build is the harness's problem.
            return replace(base, status=INFRA_ERROR, errors=[f"the design failed to build for cocotb ({built.stage}):\n"
                                                               + built.log[-2000:]])
        job = Path(tempfile.mkdtemp(prefix="cocotb-", dir=jobs_dir()))
        try:
            return self._run(job, built.binary, design, testbench, seed, base)
        finally:
            if not self.config.keep_jobs:
                shutil.rmtree(job, ignore_errors=True)

    def _run(self, job: Path, binary: Path, design: Design, testbench: str, seed: int,
             base: ScoreResult) -> ScoreResult:
        cfg = self.config
        try:
            os.link(binary, job / "sim")
        except OSError:
            shutil.copy2(binary, job / "sim")
        (job / f"{GUARD_MODULE}.py").write_text((Path(__file__).parent / "guard.py").read_text())
        (job / TB_FILE).write_text(testbench)
        # Coverage goes to a folder whose name the testbench never sees (the main reads and unsets it).
        covdir = job / f"cov-{secrets.token_hex(16)}"
        covdir.mkdir()
        dat = covdir / "coverage.dat"
        limits = Limits(wall_seconds=cfg.run_seconds, cpu_seconds=int(cfg.run_seconds) + 5,
                        memory_mb=cfg.memory_mb, output_bytes=cfg.output_bytes, processes=cfg.processes)
        argv = ["./sim", f"+verilator+seed+{seed}", "+verilator+rand+reset+0", "+verilator+error+limit+1000000"]
        view = python_view(str(jobs_dir()))
        ran = self.sandbox.run(argv, job, limits, untrusted=True, ro_paths=(str(view),),
                               env=self._env(job, design, seed, dat, view_paths(view)))
        # Paths of this job and of the Python view differ between runs: the log must not.
        out = clean_log(ran.output).replace(str(job) + "/", "").replace(str(job), ".").replace(str(view), "<python>")
        status, errors = OK, []
        failures = test_failures(out)
        if ran.timed_out:
            status, errors = TIMEOUT, [f"simulation did not finish within {cfg.run_seconds:.0f} s of wall time "
                                       "(a test that never returns, or a clock that runs forever without the tests ending?)"]
        elif ran.output_capped:
            status, errors = CRASHED, [f"simulation printed more than {cfg.output_bytes} bytes and was stopped"]
        elif ran.output.startswith("bwrap:"):
            status, errors = INFRA_ERROR, [f"sandbox failed to start: {ran.output.strip()[:300]}"]
        elif failures.crashed:
            status, errors = CRASHED, failures.messages
        elif ran.returncode != 0:
            status, errors = CRASHED, [f"simulation exited with code {ran.returncode}"] + failures.messages
        else:
            errors = failures.messages
        result = replace(base, status=status, errors=errors[:MAX_ERRORS], log_tail=out[-3000:])
        if failures.rejected:
            result.status = REJECTED
        if dat.exists():
            attach_coverage(result, dat.read_text(errors="replace"), design, cfg.max_uncovered)
        elif status == OK:
            result.errors.append("the simulation wrote no coverage file")
        return result

    def _env(self, job: Path, design: Design, seed: int, dat: Path, view: dict[str, str]) -> dict[str, str]:
        return {
            "PYGPI_PYTHON_BIN": view["python"],
            "PYTHONHOME": view["home"],
            "LD_LIBRARY_PATH": view["libs"],
            "GPI_USERS": f"{view['libpython']};{view['entry']}",
            "PYGPI_USERS": ",".join(("cocotb.logging:_configure", "cocotb._init:init_package_from_simulation",
                                     f"{GUARD_MODULE}:install", "cocotb.regression:_run_regression")),
            "COCOTB_TEST_MODULES": TB_MODULE,
            "COCOTB_TOPLEVEL": design.top,
            "TOPLEVEL_LANG": "verilog",
            "COCOTB_RANDOM_SEED": str(seed),
            "COCOTB_RESULTS_FILE": "/dev/null",
            "COCOTB_ANSI_OUTPUT": "0",
            "NO_COLOR": "1",
            "PYTHONPATH": str(job),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            "PYTHONHASHSEED": "0",
            COVERAGE_ENV: str(dat),
        }


# --------------------------------------------------------------------------------------------
# Coverage


def rename_hierarchy(dat: str, top: str, instance: str) -> str:
    """``h`` fields rooted at the HDL toplevel move under ``tb.<instance>`` (the SV track's layout)."""
    pat = re.compile("(\x01h\x02)" + re.escape(top) + r"(?=[.\x01'])")
    return pat.sub(lambda m: m.group(1) + f"{TB_ROOT}.{instance}", dat)


def attach_coverage(result: ScoreResult, dat: str, design: Design, max_uncovered: int) -> None:
    points = cov.parse_coverage_dat(rename_hierarchy(dat, design.top, design.instance))
    names = {Path(f.name).name for f in design.files}
    stray = sorted({p.file for p in points if Path(p.file).name not in names})
    if stray or any(not cov.in_subtree(cov.relative_instance(p.hier), design.instance) for p in points):
        result.errors.append("the coverage file names code outside the design: it was not counted")
        result.status = REJECTED if result.status == OK else result.status
        return
    mine = cov.dut_points(points, design.instance)
    if not mine:
        result.errors.append("the simulation wrote no coverage points for the design")
        return
    result.coverage = cov.coverage_table(points, design.instance)
    result.overall = result.coverage[design.instance]["overall"]["percent"]
    sources = {f.name: f.content.splitlines() for f in design.files}
    uncovered = cov.uncovered_points(points, design.instance, sources)
    result.uncovered_total = len(uncovered)
    result.uncovered = uncovered[:max_uncovered]


# --------------------------------------------------------------------------------------------
# The simulator log


_TIMING = re.compile(r"(\*\*.*?)\s+\d+\.\d+\s+\S+\s+\*\*$")
_SUMMARY_HEAD = re.compile(r"REAL TIME \(s\)|RATIO \(ns/s\)")


def clean_log(text: str) -> str:
    """Drops wall-clock figures (cocotb's summary columns, Verilator's report) so logs repeat exactly."""
    out = []
    for line in text.splitlines():
        if line.startswith("- ") and ("Verilator:" in line or "S i m u l a t i o n" in line):
            continue
        if re.match(r"^\s*-\.--ns INFO\s+(gpi|pygpi)\s", line):  # the simulator loading cocotb
            continue
        if _SUMMARY_HEAD.search(line):
            line = re.sub(r"\s*REAL TIME \(s\)\s+RATIO \(ns/s\)", "", line)
        else:
            line = re.sub(r"(\*\*\s.*?\s[\d.]+)\s+[\d.]+\s+[\d.]+(\s+\*\*)$", r"\1\2", line)
        out.append(line)
    return "\n".join(out)


class Failures:
    def __init__(self):
        self.messages: list[str] = []
        self.crashed = False
        self.rejected = False


_TEST_FAIL = re.compile(r"^\s*[\d.]+\w*\s+(?:WARNING|ERROR)\s+\S+\s+(\S+) failed\s*$")
_REFUSED = "ECov: "


def test_failures(log: str) -> Failures:
    """Failed tests with their tracebacks trimmed to the testbench file; Python errors mark a crash.

    A failing ``assert`` is a result of the testbench (like $error in SystemVerilog: the run still
    counts); any other exception, an import error or no test run at all is a crash of the testbench.
    """
    f = Failures()
    lines = log.splitlines()
    for i, line in enumerate(lines):
        m = _TEST_FAIL.match(line)
        if not m:
            continue
        block = []
        for nxt in lines[i + 1:]:
            if re.match(r"^\s*[\d.]+\w*\s+(INFO|WARNING|ERROR|CRITICAL)\s", nxt) or nxt.startswith("*"):
                break
            block.append(nxt)
        # cocotb indents continuation lines under its log prefix: cut that column off.
        indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
        trimmed = trim_traceback([b[indent:] for b in block])
        kinds = [ln.split(":")[0] for ln in trimmed.splitlines() if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Exit)\b", ln)]
        if not kinds or kinds[-1] != "AssertionError":
            f.crashed = True
        if _REFUSED in trimmed:
            f.rejected = True
        f.messages.append(f"test {m.group(1)} failed:\n{trimmed}".rstrip())
    for i, line in enumerate(lines):
        if "Traceback (most recent call last)" in line and not any("failed:" in m for m in f.messages):
            f.crashed = True
            f.messages.append("the testbench raised while loading:\n" + trim_traceback(lines[i:i + 60]))
            if _REFUSED in "\n".join(lines[i:i + 60]):
                f.rejected = True
            break
    if not f.messages and re.search(r"\bFAIL=\d*[1-9]", log):
        f.crashed = True
        f.messages.append("a test failed (see the simulation output)")
    if "TESTS=0" in log and not f.messages:
        f.crashed = True
        f.messages.append("no test ran: cocotb found no @cocotb.test() in the module")
    return f


def trim_traceback(block: list[str]) -> str:
    """Keep the frames in the testbench file (as ``test_dut.py``) and the exception line; drop cocotb's."""
    out: list[str] = []
    keep_next = False
    for line in block:
        s = line.rstrip()
        frame = re.match(r'^\s*File "([^"]+)", line (\d+)(.*)$', s)
        if frame:
            keep_next = Path(frame.group(1)).name == TB_FILE
            if keep_next:
                out.append(f'  File "{TB_FILE}", line {frame.group(2)}{frame.group(3)}')
            continue
        if s.startswith("Traceback"):
            out.append(s)
            continue
        if s.startswith("    ") or s.strip().startswith(("^", "~")):
            if keep_next:
                out.append(s)
            continue
        keep_next = False
        if s.strip():
            out.append(s.strip())
    return "\n".join(out[-30:])
