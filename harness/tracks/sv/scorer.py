"""The SystemVerilog track's scorer: rules -> build -> run -> coverage, cached (ecov.harness.scoring.cached).

The engine knows nothing of models or agents. Its result depends only on the design, the testbench,
the seed, the Verilator version and the flags, which together form the cache key.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path

from ecov.harness.contracts import bind as contract_bind
from ecov.harness.contracts.spec import ContractError
from ecov.harness.contracts.spec import check as check_contract
from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.paths import default_cache_dir
from ecov.harness.core.records import (
    COMPILE_ERROR,
    CRASHED,
    INFRA_ERROR,
    NO_FINISH,
    OK,
    REJECTED,
    Design,
    ScoreResult,
)
from ecov.harness.hdl.text import TESTBENCH_UNITS, declared_names, find_top
from ecov.harness.sandbox.base import Sandbox
from ecov.harness.sandbox.factory import make_sandbox
from ecov.harness.scoring.cached import CachedScorer, key_of
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim import coverage as cov
from ecov.harness.sim import integrity, recorder
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.jobs import job_folder, run_with_out_dir
from ecov.harness.sim.rules import RULES_VERSION, Violation, check_design
from ecov.harness.sim.verdict import attach_coverage, coverage_problem, stopped_by_sandbox
from ecov.harness.sim.verilator import GENERATED_CODE, VerilatorBackend, record_main
from ecov.harness.tracks.replayed import Refused, Replayer, legal_of, trace_of

# Bump when anything that changes figures for the same inputs changes (parsing, aggregation, flags).
SCORING_VERSION = "7"  # 3: --flatten; 4: integrity layer (rules, harness main, point-set/DUT checks); 5: #() copies;
# 6: integrity round 3 (DUT-output writes, parameter overrides, generated-C++ check, channel on stdin);
# 7: figures from the trusted replay of the DUT's recorded inputs (ecov.harness.sim.replay)
TB_FILE = "testbench.sv"
MAX_ERRORS = 12


class Engine(CachedScorer):
    """Scores a SystemVerilog testbench: its run records the DUT's inputs, the figures come from the
    trusted replay (ecov.harness.tracks.replayed). ``direct=True`` is the former path, coverage counted in
    the testbench's own process: internal, for the fidelity comparison (scripts/replay_fidelity.py), not
    a scoring mode."""

    def __init__(self, config: EngineConfig | None = None, sandbox: Sandbox | None = None, *, direct: bool = False):
        self.config = config or EngineConfig()
        self.cache_root = Path(self.config.cache_dir or default_cache_dir())
        self.sandbox = sandbox or make_sandbox(self.config.sandbox)
        # The runtime objects do not depend on the score cache: share them across cache folders.
        self.backend = VerilatorBackend(self.sandbox, default_cache_dir(), self.config.build)
        self.direct = direct
        # DUT-only builds do not depend on the score cache either.
        self.replayer = Replayer(self.backend, default_cache_dir(), self.config)

    def _mode(self) -> dict[str, str]:
        return {"mode": "direct"} if self.direct else {"replay": self.replayer.fingerprint(),
                                                       "trace_mb": str(self.config.trace_mb)}

    def cache_key(self, design: Design, testbench: str, seed: int) -> str:
        return key_of({
            "design": design.to_dict(),
            "tb": testbench,
            "seed": seed,
            "backend": self.backend.fingerprint(),
            "scoring": SCORING_VERSION,
            "rules": RULES_VERSION,
            "max_uncovered": self.config.max_uncovered,
            **({"contract_harness": contract_bind.harness_digest()} if design.contract is not None else {}),
            **self._mode(),
            **self.trust(),
        })

    def _score(self, design: Design, testbench: str, seed: int) -> ScoreResult:
        base = self._base(design, seed)
        rejected, violations = self._rules(base, design, testbench)
        if rejected is not None:
            return rejected
        return self._cached(base, self.cache_key(design, testbench, seed),
                            lambda: self._build_and_run(design, testbench, seed, base, violations))

    def _rules(self, base: ScoreResult, design: Design, testbench: str) -> tuple[ScoreResult | None, list[Violation]]:
        """(the rejection, if a rule refuses the testbench before anything runs; every violation found)."""
        violations = check_design(design, testbench, self.sandbox)
        if any(not v.deferred for v in violations):
            return replace(base, status=REJECTED, errors=[str(v) for v in violations if not v.deferred]), violations
        return None, violations

    def _precheck(self, base: ScoreResult, design: Design, testbench: str) -> ScoreResult | None:
        return self._rules(base, design, testbench)[0]

    def identity(self) -> dict[str, str]:
        """What makes two engines score alike (remote workers, the site's verification cache), the harness
        file that binds contracts included."""
        return {"backend": self.backend.fingerprint(), "scoring": SCORING_VERSION,
                "contract_harness": contract_bind.harness_digest(), **self._mode()}

    def _build_and_run(self, design: Design, testbench: str, seed: int, base: ScoreResult,
                       deferred: list[Violation] | None = None) -> ScoreResult:
        tb_modules = declared_names(testbench, TESTBENCH_UNITS)
        if not tb_modules:
            return replace(base, status=COMPILE_ERROR,
                           errors=["the testbench defines no module: expected `module tb; ... endmodule`"])
        top = find_top(testbench, tb_modules) or tb_modules[0]
        try:
            meta = check_contract(design.contract, design) if design.contract is not None else None
        except ContractError as exc:  # never applied silently, never silently ignored
            return replace(base, status=INFRA_ERROR, errors=[f"harness failure: {exc}"])
        if self.direct:
            return self._direct(design, testbench, seed, base, deferred, top, meta)
        try:
            prep = self.replayer.prepare(design, meta)
        except Refused as exc:
            return replace(base, status=exc.status, errors=[str(exc)])
        except (OSError, RuntimeError) as exc:
            return replace(base, status=INFRA_ERROR, errors=[f"harness failure while building the replay: {exc}"])
        with job_folder("job-", self.config.keep_jobs) as job:
            sources = _write_job(job, design, testbench)
            (job / recorder.FILE).write_text(prep.recorder_sv)  # after the rules, never seen by them
            sources.append(recorder.FILE)
            main = record_main(recorder.scope_name(f"{top}.{design.instance}"), self.replayer.cap)
            failed, built, warnings = self._build(job, sources, top, base, deferred, (recorder.FILE,), main, False)
            if failed is not None:
                return failed
            if prep.built_seconds:
                base.phases["replay_build"] = prep.built_seconds
            holder: dict = {}

            def run(out: Path, nonce: str):
                ran = self.backend.run(job, seed, self.config.run_limits(), out, nonce)
                holder["trace"] = trace_of(out, self.replayer.cap)
                return ran

            ran, got = run_with_out_dir(run)
            base.phases["run"] = round(ran.seconds, 3)
            result = self._run_status(base, ran, got, warnings)
        if not result.ran:
            return result
        return self.replayer.score(result, prep, holder.get("trace"), got.trace, design, f"{top}.{design.instance}",
                                   seed)

    def _build(self, job: Path, sources: list[str], top: str, base: ScoreResult, deferred: list[Violation] | None,
               harness_files: tuple[str, ...], main: str | None = None, coverage: bool = True):
        """(the result when the build refused or failed, the build, its warnings)."""
        try:
            built = self.backend.build(job, sources, top, self.config.build_limits(), tb_file=TB_FILE,
                                       harness_files=harness_files, main=main, coverage=coverage)
        except (OSError, RuntimeError) as exc:
            return replace(base, status=INFRA_ERROR, errors=[f"harness failure while building: {exc}"]), None, []
        warnings = _warnings(built.log)
        base.phases.update(built.phases)
        if not built.ok and built.stage == GENERATED_CODE:
            return replace(base, status=REJECTED, errors=[
                "rule 'generated-code': the C++ Verilator generated from the testbench holds code it did not "
                "write (testbench text copied unescaped into the model; see docs/scoring.md, Threat model): "
                + _relative(built.log, job)[:600]], warnings=warnings), built, warnings
        if not built.ok:
            errors = _compile_errors(built.log, job) or [_relative(built.log[-2000:], job) or built.stage + " failed"]
            log_tail = _relative(built.log[-3000:], job)
            if harness_files:
                errors, log_tail = _hide_harness(errors, log_tail, harness_files)
            return replace(base, status=COMPILE_ERROR, errors=errors, warnings=warnings, log_tail=log_tail), built, warnings
        if deferred:  # Verilator accepted what the rules could not read: refused, never run
            return replace(base, status=REJECTED, errors=[str(v) for v in deferred], warnings=warnings), built, warnings
        return None, built, warnings

    def _direct(self, design: Design, testbench: str, seed: int, base: ScoreResult, deferred: list[Violation] | None,
                top: str, meta) -> ScoreResult:
        """The direct path (diagnostic only: the fidelity script compares it with the replay): coverage
        counted in the testbench's own process."""
        with job_folder("job-", self.config.keep_jobs) as job:
            sources = _write_job(job, design, testbench)
            harness_files: tuple[str, ...] = ()
            if design.contract is not None and meta is not None:  # after the rules check, never seen by them or the testbench
                (job / contract_bind.FILE).write_text(contract_bind.harness_file(design.contract, meta))
                sources.append(contract_bind.FILE)
                harness_files = (contract_bind.FILE,)
            failed, built, warnings = self._build(job, sources, top, base, deferred, harness_files)
            if failed is not None:
                return failed
            contract_run = contract_bind.ContractRun()

            def run(out: Path, nonce: str):
                nonlocal contract_run
                ran = self.backend.run(job, seed, self.config.run_limits(), out, nonce)
                if meta is not None:
                    contract_run = contract_bind.read_contract_run(out)
                return ran

            ran, got = run_with_out_dir(run)
            base.phases["run"] = round(ran.seconds, 3)
            result = self._judge_run(base, ran, got, design, warnings)
            if meta is not None and result.ran and result.coverage:
                snapshot = cov.parse_coverage_dat(contract_run.snapshot or "")
                try:
                    result.legal = legal_of(contract_run, meta, got.points, snapshot, design, result)
                except RuntimeError as exc:
                    return replace(result, status=INFRA_ERROR, errors=[f"harness failure: {exc}"])
            return result

    def _run_status(self, base: ScoreResult, ran, got: integrity.RunOutput, warnings: list[str]) -> ScoreResult:
        """Status from the process and the harness main's end marker."""
        cfg = self.config
        out = _clean_sim_log(ran.output)
        status, errors = OK, []
        stopped = stopped_by_sandbox(ran, cfg.run_limits(), "missing $finish, or an endless loop?")
        if stopped is not None:
            status, errors = stopped
        elif ran.returncode != 0:
            status, errors = CRASHED, [_crash_reason(ran.returncode, out)]
        elif not got.ended:
            status, errors = CRASHED, [str(got.error)]
        elif not got.finished:
            status, errors = NO_FINISH, ["simulation ended without $finish (it ran out of events)"]
        return replace(base, status=status, errors=errors, warnings=warnings, log_tail=out[-3000:])

    def _judge_run(self, base: ScoreResult, ran, got: integrity.RunOutput, design: Design,
                   warnings: list[str]) -> ScoreResult:
        """Status from the process and the harness main's end marker; coverage only when it can be trusted."""
        result = self._run_status(base, ran, got, warnings)
        if not result.ran:
            return result
        problem = coverage_problem(got, design) or self._canonical_problem(got, design)
        if problem is not None:
            return replace(result, status=REJECTED, errors=[str(problem)])
        missing = None
        if not cov.dut_points(got.coverage, design.instance):
            found = ", ".join(sorted({i.split(".")[0] for i in cov.instances_of(got.coverage)})) or "none"
            missing = (f"the testbench does not instantiate the DUT as '{design.instance}' "
                       f"(top-level instances found: {found}); coverage counts only that instance")
        attach_coverage(result, got.coverage, design, self.config.max_uncovered, missing)
        return result


    def _canonical_problem(self, got: integrity.RunOutput, design: Design) -> integrity.IntegrityError | None:
        """When Verilator built a parameterized copy of the DUT (a ``#(...)`` was given), its points must
        equal those of the task's canonical build (the rules already refuse changed values; this is the
        check on what Verilator actually built)."""
        own = {p.module for p in got.coverage if cov.relative_instance(p.hier) == design.instance}
        if not own or own == {design.top}:
            return None
        problem = None
        for params in ((), *design.params):  # the defaults, then each parameter set the task allows
            canonical = self.canonical_points(design, params)
            if canonical is None:
                problem = problem or integrity.IntegrityError(
                    "dut-identity", "the task's canonical build failed: the DUT's point set cannot be checked")
                continue
            problem = integrity.check_canonical(got.coverage, design.instance, canonical)
            if problem is None:
                return None
        return problem

    def canonical_points(self, design: Design, params: tuple[tuple[str, str], ...] = ()) -> list[list] | None:
        """The DUT's point signature in the task's canonical build (the design alone under
        ``<top>.<instance>``, with its defaults or one parameter set the task allows), built once per design,
        parameter set and backend, and kept under the cache."""
        key = hashlib.sha256(json.dumps({"design": design.to_dict(), "params": params,
                                         "backend": self.backend.fingerprint(), "scoring": SCORING_VERSION},
                                        sort_keys=True).encode()).hexdigest()
        path = self.cache_root / "canonical" / key[:2] / f"{key}.json"
        if path.exists():
            return json.loads(path.read_text())
        assign = f" #({', '.join(f'.{k}({v})' for k, v in params)})" if params else ""
        tb = f"module ecov_canonical;\n  {design.top}{assign} {design.instance} ();\nendmodule\n"
        with job_folder("canon-", self.config.keep_jobs) as job:
            sources = _write_job(job, design, tb)
            built = self.backend.build(job, sources, "ecov_canonical", self.config.build_limits(), tb_file=TB_FILE)
            if not built.ok:
                return None
            ran, got = run_with_out_dir(lambda out, nonce: self.backend.run(job, 1, self.config.run_limits(), out,
                                                                            nonce))
        if not got.points:
            return None
        signature = integrity.point_signature(got.points, design.instance)
        write_text_atomic(path, json.dumps(signature))
        return signature


def _hide_harness(errors: list[str], log_tail: str, files: tuple[str, ...]) -> tuple[list[str], str]:
    """Compile errors located in the harness's own files (the contract monitor, the recorder) would quote
    their code: replaced by one plain line."""
    mine = [e for e in errors if not any(f in e for f in files)]
    if len(mine) == len(errors) and not any(f in log_tail for f in files):
        return errors, log_tail
    note = ("the harness's own modules (bound into the DUT) did not compile after the testbench: "
            "close every module and construct the testbench opens, and do not redefine the DUT's ports")
    return [*mine, note], "\n".join([*mine, note])


def score(design: Design, testbench: str, seed: int = 1, config: EngineConfig | None = None) -> ScoreResult:
    return Engine(config).score(design, testbench, seed)


def _write_job(job: Path, design: Design, testbench: str) -> list[str]:
    sources = write_design(job, ((f.name, f.content) for f in design.files))
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


__all__ = ["Engine", "score", "SCORING_VERSION", "TB_FILE"]
