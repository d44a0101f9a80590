"""Score one cocotb testbench against one design: policy -> cached design build -> simulation -> replay.

The same contract as ``ecov.harness.tracks.sv.scorer.Engine`` (a ScoreResult, cached by design, testbench, seed and
backend), so the agent loop, run folders and leaderboard take either. Only the simulation is paid per
testbench: the compiled model is built once per design (ecov.harness.tracks.cocotb.build).

The figures never come from the cocotb process: its build carries the harness recorder, which writes
what the DUT (the HDL toplevel) saw at its inputs into a private folder outside the job folder, with an
end marker carrying the run's nonce, written last and on the main's normal exit path only. A run
without that marker crashed. Otherwise its trace is replayed on the DUT-only build the SV track uses
(ecov.harness.tracks.replayed), where no Python runs, and the replay's coverage, renamed so that the
toplevel is the task's instance (``sync_fifo.u_x`` -> ``tb.u_fifo.u_x``), gives every figure, target and
uncovered listing, read exactly as in the SystemVerilog track.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

from ecov.harness.contracts.spec import ContractError
from ecov.harness.contracts.spec import check as check_contract
from ecov.harness.core.paths import default_cache_dir, jobs_dir
from ecov.harness.core.records import (
    COMPILE_ERROR,
    CRASHED,
    INFRA_ERROR,
    OK,
    REJECTED,
    Design,
    ScoreResult,
)
from ecov.harness.hdl.ports import INPUT, PortParseError, parse_ports
from ecov.harness.sandbox.base import Sandbox
from ecov.harness.sandbox.factory import make_sandbox
from ecov.harness.scoring.cached import CachedScorer, key_of
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.jobs import job_folder, run_with_out_dir
from ecov.harness.sim.verdict import stopped_by_sandbox
from ecov.harness.sim.verilator import main_input
from ecov.harness.tracks.cocotb import TB_FILE, TB_MODULE
from ecov.harness.tracks.cocotb.build import CocotbBuilder, CocotbUnavailable, cocotb_paths
from ecov.harness.tracks.cocotb.policy import check_python_testbench
from ecov.harness.tracks.cocotb.pyview import python_view, view_paths
from ecov.harness.tracks.replayed import Prepared, Refused, Replayer, trace_of

SCORING_VERSION = "cocotb-4"  # 2: the SV track's integrity contract (harness main, nonce, point-set/DUT checks);
# 3: channel on stdin, no ctypes in the view, frozen guard, policy for attrgetter/partial and getattr(dut, name);
# 4: figures from the trusted replay of the DUT's recorded inputs (ecov.harness.tracks.replayed)
GUARD_MODULE = "ecov_guard"
TB_ROOT = "tb"  # the testbench root the DUT hierarchy is renamed under
MAX_ERRORS = 8


class RlimitRefused(ValueError):
    """The rlimit sandbox cannot contain Python code: cocotb testbenches need bwrap or docker."""


def require_isolating_sandbox(kind: str) -> None:
    if kind == "rlimit":
        raise RlimitRefused("--tb-lang cocotb runs the testbench's Python inside the simulator: it needs the bwrap "
                            "or docker sandbox (no network, read-only host, unprivileged user); rlimit gives none of that")


class CocotbEngine(CachedScorer):
    """The cocotb counterpart of ecov.harness.tracks.sv.scorer.Engine (same config, same result records, same cache)."""

    tb_lang = "cocotb"
    guard_file = Path(__file__).parent / "guard.py"  # the runtime guard (tests swap it to test the layer below)

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
        # The same DUT-only builds as the SV track's (cached machine-wide, shared by both tracks).
        self.replayer = Replayer(self.builder.backend, default_cache_dir(), self.config)

    def cache_key(self, design: Design, testbench: str, seed: int) -> str:
        return key_of({"design": design.to_dict(), "tb": testbench, "seed": seed, "tb_lang": "cocotb",
                       "backend": self.builder.fingerprint(), "scoring": SCORING_VERSION,
                       "max_uncovered": self.config.max_uncovered, "replay": self.replayer.fingerprint(),
                       "trace_mb": self.config.trace_mb, **self.trust()})

    def identity(self) -> dict[str, str]:
        return {"backend": self.builder.fingerprint(), "scoring": SCORING_VERSION,
                "replay": self.replayer.fingerprint()}

    def _precheck(self, base: ScoreResult, design: Design, testbench: str) -> ScoreResult | None:
        """The AST policy and the test count: settled before anything is built, never cached."""
        check = check_python_testbench(testbench)
        if check.syntax_error:
            return replace(base, status=COMPILE_ERROR, errors=[check.syntax_error])
        if check.violations:
            return replace(base, status=REJECTED, errors=[str(v) for v in check.violations])
        if not check.tests:
            return replace(base, status=COMPILE_ERROR,
                           errors=[f"{TB_FILE} defines no test: decorate at least one `async def` with @cocotb.test()"])
        return None

    def _score(self, design: Design, testbench: str, seed: int) -> ScoreResult:
        base = self._base(design, seed)
        rejected = self._precheck(base, design, testbench)
        if rejected is not None:
            return rejected
        return self._cached(base, self.cache_key(design, testbench, seed),
                            lambda: self._build_and_run(design, testbench, seed, base))

    def prepare(self, design: Design) -> Prepared:
        """The replay side of ``design`` (its DUT-only builds, shared with the SV track, contract monitor
        included when it has one; the recorder its cocotb build carries)."""
        try:
            meta = check_contract(design.contract, design) if design.contract is not None else None
        except ContractError as e:
            raise Refused(INFRA_ERROR, f"harness failure: {e}") from e
        return self.replayer.prepare(design, meta)

    def build(self, design: Design, prep: Prepared | None = None):
        """The design's cached build (built now when missing)."""
        prep = prep or self.prepare(design)
        try:
            ports = parse_ports(design.files, design.top)
        except PortParseError as e:
            raise CocotbUnavailable(f"cannot read the ports of {design.top}: {e}") from e
        inputs = [p.name for p in ports.ports if p.direction == INPUT]
        outputs = [p.name for p in ports.ports if p.direction != INPUT]
        return self.builder.build(design, inputs, outputs, self.config.build_limits(), prep.recorder_sv,
                                  self.replayer.cap)

    def _build_and_run(self, design: Design, testbench: str, seed: int, base: ScoreResult) -> ScoreResult:
        try:
            prep = self.prepare(design)
            built = self.build(design, prep)
        except Refused as exc:
            return replace(base, status=exc.status, errors=[str(exc)])
        except (OSError, RuntimeError) as exc:
            return replace(base, status=INFRA_ERROR, errors=[f"harness failure while building: {exc}"])
        if not built.ok:
            # The design is the benchmark's, not the model's: a failing build is the harness's problem.
            return replace(base, status=INFRA_ERROR, errors=[f"the design failed to build for cocotb ({built.stage}):\n"
                                                               + built.log[-2000:]])
        with job_folder("cocotb-", self.config.keep_jobs) as job:
            return self._run(job, built.binary, design, testbench, seed, base, prep)

    def _run(self, job: Path, binary: Path, design: Design, testbench: str, seed: int,
             base: ScoreResult, prep: Prepared) -> ScoreResult:
        cfg = self.config
        try:
            os.link(binary, job / "sim")
        except OSError:
            shutil.copy2(binary, job / "sim")
        (job / f"{GUARD_MODULE}.py").write_text(self.guard_file.read_text())
        (job / TB_FILE).write_text(testbench)
        argv = ["./sim", f"+verilator+seed+{seed}", "+verilator+rand+reset+0", "+verilator+error+limit+1000000"]
        view = python_view(str(jobs_dir()))
        env = self._env(job, design, seed, view_paths(view))
        holder: dict = {}

        # The harness main writes the trace only into a fresh folder outside the job folder, named (with
        # the nonce) on its standard input, read before Python starts (integrity.new_run_dir).
        # ``rw_paths`` shows it at its own path: the guard keeps Python from the mount table and the listing.
        def run(out: Path, nonce: str):
            ran = self.sandbox.run(argv, job, cfg.run_limits(), untrusted=True, ro_paths=(str(view),),
                                   rw_paths=(str(out),), env=env, stdin=main_input(out, nonce))
            holder["trace"] = trace_of(out, self.replayer.cap)
            return ran

        ran, got = run_with_out_dir(run)
        # Paths of this job and of the Python view differ between runs: the log must not.
        out = clean_log(ran.output).replace(str(job) + "/", "").replace(str(job), ".").replace(str(view), "<python>")
        status, errors = OK, []
        failures = test_failures(out)
        stopped = stopped_by_sandbox(
            ran, cfg.run_limits(), "a test that never returns, or a clock that runs forever without the tests ending?")
        if stopped is not None:
            status, errors = stopped
        elif failures.crashed:
            status, errors = CRASHED, failures.messages
        elif ran.returncode != 0:
            status, errors = CRASHED, [f"simulation exited with code {ran.returncode}"] + failures.messages
        elif not got.ended:
            status, errors = CRASHED, [str(got.error)] + failures.messages
        else:
            errors = failures.messages
        result = replace(base, status=status, errors=errors[:MAX_ERRORS], log_tail=out[-3000:])
        result.phases["run"] = round(ran.seconds, 3)
        if failures.rejected:
            result.status = REJECTED
        if not got.ended:  # stopped, crashed or left some other way: its recording is not replayed
            return result
        # A test that raised still ran through the harness's exit path: its stimulus counts (as $error would).
        # The figures come from the replay; the contract's legal figures are the SV track's only.
        return self.replayer.score(result, prep, holder.get("trace"), got.trace, design,
                                   f"{TB_ROOT}.{design.instance}", seed, legal=False)

    def _env(self, job: Path, design: Design, seed: int, view: dict[str, str]) -> dict[str, str]:
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
            "PYTHONPATH": os.pathsep.join((str(job), view["site"])),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            "PYTHONHASHSEED": "0",
        }


# --------------------------------------------------------------------------------------------
# Coverage


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
