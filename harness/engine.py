"""Score one testbench against one design: rules -> build -> run -> coverage, cached.

The engine knows nothing of models or agents. Its result depends only on the design, the testbench,
the seed, the Verilator version and the flags, which together form the cache key.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from harness.atomic import write_text_atomic
from harness.records import (
    COMPILE_ERROR,
    CRASHED,
    INFRA_ERROR,
    NO_FINISH,
    OK,
    REJECTED,
    TIMEOUT,
    Design,
    ScoreResult,
)
from harness.sim import coverage as cov
from harness.sim import integrity
from harness.sim.rules import Violation, check_design, module_names
from harness.sim.sandbox import Limits, Sandbox, make_sandbox
from harness.sim.verilator import BuildOptions, VerilatorBackend, find_top

# Bump when anything that changes figures for the same inputs changes (parsing, aggregation, flags).
SCORING_VERSION = "4"  # 3: --flatten; 4: integrity layer (preprocessed rules, harness main, point-set/DUT checks)
TB_FILE = "testbench.sv"
RTL_DIR = "rtl"
HEADER_SUFFIXES = (".vh", ".svh", ".h", ".inc")
MAX_ERRORS = 12


def default_cache_dir() -> Path:
    return Path(os.environ.get("ECOV_CACHE_DIR") or Path.home() / ".cache" / "ecov")


@dataclass
class EngineConfig:
    sandbox: str = "auto"  # auto | bwrap | rlimit | docker
    compile_seconds: float = 300.0
    run_seconds: float = 60.0
    memory_mb: int = 4096
    output_bytes: int = 1_000_000
    processes: int = 64
    max_uncovered: int = 200
    cache_dir: Path | None = None
    use_cache: bool = True
    keep_jobs: bool = False
    build: BuildOptions = field(default_factory=BuildOptions)


class Engine:
    def __init__(self, config: EngineConfig | None = None, sandbox: Sandbox | None = None):
        self.config = config or EngineConfig()
        self.cache_root = Path(self.config.cache_dir or default_cache_dir())
        self.sandbox = sandbox or make_sandbox(self.config.sandbox)
        # The runtime objects do not depend on the score cache: share them across cache folders.
        self.backend = VerilatorBackend(self.sandbox, default_cache_dir(), self.config.build)

    @property
    def isolation(self) -> str:
        return self.sandbox.name

    def cache_key(self, design: Design, testbench: str, seed: int) -> str:
        payload = {
            "design": design.to_dict(),
            "tb": testbench,
            "seed": seed,
            "backend": self.backend.fingerprint(),
            "scoring": SCORING_VERSION,
            "max_uncovered": self.config.max_uncovered,
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    def _cache_path(self, key: str) -> Path:
        return self.cache_root / "scores" / key[:2] / f"{key}.json"

    def score(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        start = time.monotonic()
        result = self._score(design, testbench, seed)
        result.seconds = round(time.monotonic() - start, 3)
        return result

    def _score(self, design: Design, testbench: str, seed: int) -> ScoreResult:
        known, violations = self._lookup(design, testbench, seed)
        if known is not None:
            return known
        base = ScoreResult(status=OK, instance=design.instance, isolation=self.isolation, seed=seed,
                           isolated=self.sandbox.isolated, key=self.cache_key(design, testbench, seed))
        result = self._build_and_run(design, testbench, seed, base, violations)
        self.remember(design, testbench, seed, result)
        return result

    def lookup(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult | None:
        """The result without building: a rule rejection or a score-cache hit; None when the testbench
        must be built and run. (harness.executor asks this before sending a job to another machine.)"""
        return self._lookup(design, testbench, seed)[0]

    def _lookup(self, design: Design, testbench: str, seed: int) -> tuple[ScoreResult | None, list[Violation]]:
        violations = check_design(design, testbench, self.sandbox)
        if any(not v.deferred for v in violations):
            return ScoreResult(status=REJECTED, instance=design.instance, isolation=self.isolation, seed=seed,
                               isolated=self.sandbox.isolated,
                               errors=[str(v) for v in violations if not v.deferred]), violations
        path = self._cache_path(self.cache_key(design, testbench, seed))
        if self.config.use_cache and path.exists():
            try:
                hit = ScoreResult.from_dict(json.loads(path.read_text()))
                hit.cached = True
                hit.isolation = self.isolation
                hit.isolated = self.sandbox.isolated
                return hit, violations
            except (json.JSONDecodeError, TypeError, KeyError):
                path.unlink(missing_ok=True)
        return None, violations

    def remember(self, design: Design, testbench: str, seed: int, result: ScoreResult) -> None:
        """Cache a result (computed here or by a worker with the same backend), unless it is transient."""
        if self.config.use_cache and result.status not in (INFRA_ERROR, TIMEOUT):
            path = self._cache_path(self.cache_key(design, testbench, seed))
            write_text_atomic(path, json.dumps(result.to_dict(timing=False), sort_keys=True))

    def _build_and_run(self, design: Design, testbench: str, seed: int, base: ScoreResult,
                       deferred: list[Violation] | None = None) -> ScoreResult:
        tb_modules = module_names(testbench)
        if not tb_modules:
            return replace(base, status=COMPILE_ERROR,
                           errors=["the testbench defines no module: expected `module tb; ... endmodule`"])
        top = find_top(testbench, tb_modules) or tb_modules[0]
        jobs = jobs_dir()
        job = Path(tempfile.mkdtemp(prefix="job-", dir=jobs))
        try:
            sources = _write_job(job, design, testbench)
            cfg = self.config
            build_limits = Limits(wall_seconds=cfg.compile_seconds, cpu_seconds=int(cfg.compile_seconds) + 10,
                                  memory_mb=max(cfg.memory_mb, 4096), output_bytes=cfg.output_bytes, processes=256)
            try:
                built = self.backend.build(job, sources, top, build_limits, tb_file=TB_FILE)
            except (OSError, RuntimeError) as exc:
                return replace(base, status=INFRA_ERROR, errors=[f"harness failure while building: {exc}"])
            warnings = _warnings(built.log)
            base.phases = dict(built.phases)
            if not built.ok:
                errors = _compile_errors(built.log, job) or [_relative(built.log[-2000:], job) or built.stage + " failed"]
                return replace(base, status=COMPILE_ERROR, errors=errors, warnings=warnings,
                               log_tail=_relative(built.log[-3000:], job))
            if deferred:  # Verilator accepted what the rules could not read: refused, never run
                return replace(base, status=REJECTED, errors=[str(v) for v in deferred], warnings=warnings)
            run_limits = Limits(wall_seconds=cfg.run_seconds, cpu_seconds=int(cfg.run_seconds) + 5,
                                memory_mb=cfg.memory_mb, output_bytes=cfg.output_bytes, processes=cfg.processes)
            out, nonce = integrity.new_run_dir(jobs)
            try:
                ran = self.backend.run(job, seed, run_limits, out, nonce)
                base.phases["run"] = round(ran.seconds, 3)
                got = integrity.read_run(out, nonce)
            finally:
                integrity.remove_run_dir(out)
            return self._judge_run(base, ran, got, design, warnings)
        finally:
            if not self.config.keep_jobs:
                shutil.rmtree(job, ignore_errors=True)

    def _judge_run(self, base: ScoreResult, ran, got: integrity.RunOutput, design: Design,
                   warnings: list[str]) -> ScoreResult:
        """Status from the process and the harness main's end marker; coverage only when it can be trusted."""
        cfg = self.config
        out = _clean_sim_log(ran.output)
        status, errors = OK, []
        if ran.timed_out:
            status, errors = TIMEOUT, [f"simulation did not finish within {cfg.run_seconds:.0f} s of wall time "
                                       "(missing $finish, or an endless loop?)"]
        elif ran.output_capped:
            status, errors = CRASHED, [f"simulation printed more than {cfg.output_bytes} bytes and was stopped"]
        elif ran.output.startswith("bwrap:"):
            status, errors = INFRA_ERROR, [f"sandbox failed to start: {ran.output.strip()[:300]}"]
        elif ran.returncode != 0:
            status, errors = CRASHED, [_crash_reason(ran.returncode, out)]
        elif not got.ended:
            status, errors = CRASHED, [str(got.error)]
        elif not got.finished:
            status, errors = NO_FINISH, ["simulation ended without $finish (it ran out of events)"]
        result = replace(base, status=status, errors=errors, warnings=warnings, log_tail=out[-3000:])
        if status not in (OK, NO_FINISH):
            return result
        # Files, not module names, decide what is design below the instance (names found by regex could
        # miss a macro-built module); the instance itself must be the DUT module.
        problem = got.error or integrity.check_point_set(got.points, got.coverage) or integrity.check_dut(
            got.coverage, design.instance, design.top, None, {Path(f.name).name for f in design.files})
        if problem is not None:
            return replace(result, status=REJECTED, errors=[str(problem)])
        self._attach_coverage(result, got.coverage, design)
        return result

    def _attach_coverage(self, result: ScoreResult, points: list[cov.CoveragePoint], design: Design) -> None:
        result.coverage = cov.coverage_table(points, design.instance)
        mine = cov.dut_points(points, design.instance)
        if not mine:
            found = ", ".join(sorted({i.split(".")[0] for i in cov.instances_of(points)})) or "none"
            result.errors.append(f"the testbench does not instantiate the DUT as '{design.instance}' "
                                 f"(top-level instances found: {found}); coverage counts only that instance")
            result.coverage = {}
            return
        result.overall = result.coverage[design.instance]["overall"]["percent"]
        sources = {f.name: f.content.splitlines() for f in design.files}
        uncovered = cov.uncovered_points(points, design.instance, sources)
        result.uncovered_total = len(uncovered)
        result.uncovered = uncovered[: self.config.max_uncovered]


def score(design: Design, testbench: str, seed: int = 1, config: EngineConfig | None = None) -> ScoreResult:
    return Engine(config).score(design, testbench, seed)


def jobs_dir() -> Path:
    """Job folders live under the system temp dir: the simulation, run as nobody, must reach its own."""
    jobs = Path(os.environ.get("ECOV_JOBS_DIR") or Path(tempfile.gettempdir()) / f"ecov-jobs-{os.getuid()}")
    jobs.mkdir(parents=True, exist_ok=True)
    os.chmod(jobs, 0o711)
    return jobs


def _write_job(job: Path, design: Design, testbench: str) -> list[str]:
    rtl = job / RTL_DIR
    rtl.mkdir()
    sources = [f"-I{RTL_DIR}"]
    for f in design.files:
        name = Path(f.name).name
        (rtl / name).write_text(f.content)
        if not name.endswith(HEADER_SUFFIXES):
            sources.append(f"{RTL_DIR}/{name}")
    # Batch semantics: $stop ends the run like $finish (Verilator would abort and lose the coverage).
    (job / TB_FILE).write_text(re.sub(r"\$stop\b", "$finish", testbench))
    sources.append(TB_FILE)
    return sources


def _relative(text: str, job: Path) -> str:
    return text.replace(str(job) + "/obj/", "").replace(str(job) + "/", "").replace(str(job), ".")


_ERROR_START = re.compile(r"^(%Error|.*\berror:|.*\bfatal error:)")


def _compile_errors(log: str, job: Path) -> list[str]:
    """The first errors, each with the few context lines Verilator prints under it."""
    errors: list[str] = []
    current: list[str] | None = None
    for line in _relative(log, job).splitlines():
        if _ERROR_START.match(line) and "%Error: Exiting due to" not in line:
            if current is not None:
                errors.append("\n".join(current))
            if len(errors) >= MAX_ERRORS:
                current = None
                break
            current = [line.rstrip()]
        elif current is not None and (line.startswith(" ") or line.startswith("\t")) and len(current) < 4:
            current.append(line.rstrip())
        elif current is not None:
            errors.append("\n".join(current))
            current = None
    if current is not None:
        errors.append("\n".join(current))
    return errors[:MAX_ERRORS]


def _warnings(log: str) -> list[str]:
    out = []
    if "COVERIGN" in log:
        out.append("covergroups/coverpoints are ignored by Verilator (COVERIGN): they add no coverage here; "
                   "ECov scores line, branch, toggle and expression coverage of the design")
    return out


_REPORT_LINE = re.compile(r"^- (Verilator: |S i m u l a t i o n)")


def _clean_sim_log(text: str) -> str:
    """Drops Verilator's closing report (wall times, speeds) so the log is the same on every run."""
    return "\n".join(line for line in text.splitlines() if not _REPORT_LINE.match(line))


def _crash_reason(returncode: int, out: str) -> str:
    if returncode < 0:
        sig = -returncode
        names = {9: "SIGKILL: CPU or memory limit", 11: "SIGSEGV", 6: "SIGABRT", 24: "SIGXCPU: CPU limit",
                 25: "SIGXFSZ: file size limit"}
        return f"simulation killed by signal {sig} ({names.get(sig, 'signal')})"
    stop = re.search(r"(%Error|%Fatal)[^\n]*", out)
    if stop:
        return f"simulation exited with code {returncode}: {stop.group(0)[:300]}"
    return f"simulation exited with code {returncode}"


__all__ = ["Engine", "EngineConfig", "score", "default_cache_dir", "jobs_dir", "SCORING_VERSION"]
