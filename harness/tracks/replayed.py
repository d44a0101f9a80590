"""Scoring from the trusted replay, for every track: the recorder a testbench's run carries, and the
figures computed from its trace where no testbench code runs (ecov.harness.sim.replay).

A track's scorer calls ``Replayer.prepare(design)`` before it builds run 1 (the DUT-only builds the task
allows, cached; the recorder's text, sampling at the edges those builds' triggers use), puts the
recorder into run 1, and hands what run 1 left (the trace, the writer's state) to ``Replayer.score``,
which returns the result with the replay's coverage and, with a contract, its legal figures.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from ecov.harness.contracts import bind as contract_bind
from ecov.harness.contracts.spec import Meta
from ecov.harness.core.records import CRASHED, INFRA_ERROR, REJECTED, Design, ScoreResult, SourceFile
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim import coverage as cov
from ecov.harness.sim import integrity, recorder
from ecov.harness.sim import trace as tr
from ecov.harness.sim.replay import ReplayBuild, ReplayBuilder, ReplaySpec, read_capped, rehome
from ecov.harness.sim.verdict import attach_coverage, coverage_problem, stopped_by_sandbox
from ecov.harness.sim.verilator import VerilatorBackend


class Refused(Exception):
    """A result decided before the replay runs (the harness cannot replay this design: ``infra_error``)."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Prepared:
    """What run 1 needs from the replay side, and the builds a trace may be replayed on."""

    plan: recorder.RecorderPlan
    recorder_sv: str
    candidates: list[tuple[tuple[tuple[str, str], ...], ReplayBuild]]  # (parameter set, its DUT-only build)
    meta: Meta | None
    built_seconds: float = 0.0


def trace_of(out: Path, cap: int) -> bytes | tr.TraceError | None:
    """Run 1's trace from its private folder: bytes, the reason it is unreadable, or None when there is none."""
    path = out / recorder.TRACE_FILE
    if not os.path.lexists(path):
        return None
    try:
        return read_capped(path, cap)
    except tr.TraceError as e:
        return e


class Replayer:
    def __init__(self, backend: VerilatorBackend, cache_root: Path, config: EngineConfig):
        self.config = config
        self.builder = ReplayBuilder(backend, Path(cache_root) / "replay-builds")

    def fingerprint(self) -> str:
        return self.builder.fingerprint()

    @property
    def cap(self) -> int:
        return self.config.trace_mb << 20

    def prepare(self, design: Design, meta: Meta | None) -> Prepared:
        """The DUT-only builds of the defaults and of each parameter set the task allows, and the recorder
        run 1 carries. Raises Refused when the design cannot be replayed."""
        harness = (SourceFile(contract_bind.FILE, contract_bind.harness_file(design.contract, meta)),) if (
            design.contract is not None and meta is not None) else ()
        candidates, edges, seconds = [], set(), 0.0
        for params in ((), *design.params):
            built = self.builder.build(ReplaySpec(design, params, harness), self.config.build_limits())
            if not built.ok:
                raise Refused(INFRA_ERROR, f"the design cannot be replayed ({built.stage}): {built.log[-1500:]}")
            seconds += built.seconds
            candidates.append((params, built))
            edges.update(built.edges)
        try:
            plan = recorder.plan(design, tuple(edges))
        except recorder.ReplayUnsupported as e:
            raise Refused(INFRA_ERROR, f"the design cannot be replayed: {e}") from e
        words = max(b.header.record_words for _, b in candidates if b.header is not None)
        return Prepared(plan, recorder.recorder_sv(plan, recorder.record_capacity(words)), candidates, meta,
                        round(seconds, 3))

    def score(self, result: ScoreResult, prep: Prepared, trace: bytes | tr.TraceError | None, state: str,
              design: Design, path: str, seed: int, legal: bool = True) -> ScoreResult:
        """The figures of run 1's trace, from the replay. ``result`` carries run 1's status; ``path`` is the
        scored instance's place in run 1 (``tb.dut``), the hierarchy the figures are reported under;
        ``legal``: whether the contract's figures are reported (the SV track's)."""
        if trace is None or state == "none":
            result.errors.append(f"the testbench does not instantiate the DUT as '{design.instance}' (the module "
                                 f"'{design.top}', directly in its top module); coverage counts only that instance")
            result.coverage = {}
            return result
        over = state == "over" or (isinstance(trace, tr.TraceError) and "over the cap" in str(trace))
        if isinstance(trace, tr.TraceError) and not over:
            return _integrity(result, f"the recording of the DUT's inputs is unreadable ({trace})")
        header = None
        if isinstance(trace, bytes):
            try:
                header, _ = tr.decode_header(trace)
            except tr.TraceError as e:
                return _integrity(result, f"the recording of the DUT's inputs is unreadable ({e})")
        build = next((b for _, b in prep.candidates if header is not None and b.header is not None
                      and b.header.design_bytes() == header.design_bytes()), None)
        if header is not None and build is None:
            return _parameters(result, header, prep, design)
        if over:
            return replace(result, status=CRASHED, errors=[
                f"the recording of the DUT's inputs passed its cap of {self.config.trace_mb} MB: the run is too "
                "long to be scored (fewer cycles, or fewer input changes per cycle)"])
        if state == "write-error":
            return replace(result, status=INFRA_ERROR, errors=["harness failure: the recording could not be written"])
        if state != "ok" or build is None or not isinstance(trace, bytes):
            return _integrity(result, f"the recording of the DUT's inputs is unreadable (the writer: {state})")
        ran = self.builder.run(build, trace, self.config.run_limits(), seed=seed, keep_jobs=self.config.keep_jobs,
                               on_out=(lambda out: {"contract": contract_bind.read_contract_run(out)})
                               if prep.meta is not None else None)
        result.phases["replay"] = round(ran.ran.seconds, 3)
        if ran.malformed:
            return _integrity(result, ran.malformed.removeprefix("ECov replay: "))
        stopped = stopped_by_sandbox(ran.ran, self.config.run_limits(), "the replay of the recorded inputs")
        if stopped is not None:
            return replace(result, status=stopped[0], errors=stopped[1])
        if ran.ran.returncode != 0 or not ran.got.ended:
            return replace(result, status=INFRA_ERROR, errors=[
                f"harness failure: the replay ended with code {ran.ran.returncode}: {ran.ran.output[-600:]}"])
        got = replace(ran.got, points=rehome(ran.got.points, design.top, path),
                      coverage=rehome(ran.got.coverage, design.top, path))
        problem = coverage_problem(got, design)
        if problem is not None:
            return replace(result, status=INFRA_ERROR, errors=[f"harness failure: the replay's coverage: {problem}"])
        attach_coverage(result, got.coverage, design, self.config.max_uncovered)
        if legal and prep.meta is not None and result.coverage:
            run = ran.extra.get("contract") or contract_bind.ContractRun()
            snapshot = rehome(cov.parse_coverage_dat(run.snapshot or ""), design.top, path)
            try:
                result.legal = legal_of(run, prep.meta, got.points, snapshot, design, result)
            except RuntimeError as exc:
                return replace(result, status=INFRA_ERROR, errors=[f"harness failure: {exc}"])
        return result


def legal_of(run: contract_bind.ContractRun, meta: Meta, points: list[cov.CoveragePoint],
             snapshot: list[cov.CoveragePoint], design: Design, result: ScoreResult) -> dict:
    """``ScoreResult.legal``: the contract's figures, with the DUT's coverage up to the first violation
    (``snapshot``, the coverage the main wrote then, checked like the final coverage against the model's
    ``points``) or of the whole run."""
    legal = contract_bind.legal_figures(run, meta)
    if run.first_rule is None:
        legal["coverage"], legal["overall"] = result.coverage, result.overall
        return legal
    problem = integrity.check_point_set(points, snapshot) if snapshot else integrity.IntegrityError(
        "coverage-integrity", "no coverage snapshot at the first violation")
    if problem is not None:
        raise RuntimeError(f"contract snapshot unusable: {problem}")
    table = cov.coverage_table(snapshot, design.instance) if cov.dut_points(snapshot, design.instance) else {}
    legal["coverage"] = table
    legal["overall"] = table.get(design.instance, {}).get("overall", {}).get("percent", 0.0)
    return legal


def _integrity(result: ScoreResult, message: str) -> ScoreResult:
    return replace(result, status=REJECTED, errors=[str(integrity.IntegrityError("trace-integrity", message))])


def _parameters(result: ScoreResult, header: tr.Header, prep: Prepared, design: Design) -> ScoreResult:
    """Run 1's DUT instance is not one the task allows: its ports or parameter values differ from every
    DUT-only build (a parameter decoy: the rules read one instance, the testbench scores another)."""
    own = prep.candidates[0][1].header
    if own is None or [p.name for p in header.ports] != [p.name for p in own.ports]:
        return _integrity(result, "its ports are not the DUT's")
    got = ", ".join(f"{p.name}={p.value}" for p in header.params) or "(none)"
    allowed = " | ".join(", ".join(f"{p.name}={p.value}" for p in b.header.params) for _, b in prep.candidates
                         if b.header is not None)
    return replace(result, status=REJECTED, errors=[
        f"rule 'parameter-override': the DUT instance '{design.instance}' ran with parameters {got} (as recorded "
        f"at that instance), which the task does not allow: {allowed}"])


__all__ = ["Replayer", "Prepared", "Refused", "trace_of", "legal_of"]
