"""The bug-hunt scorer (issue 31): which of a task's mutants a self-checking SV testbench catches.

``BughuntEngine.score_bughunt(design, mutants, testbench, seed)``:

1. the golden coverage score (the track's ``Engine``: rules, build, run, coverage) — a rejection, compile
   error or harness failure there is the result's status;
2. the bug hunt's own refusals: hierarchical references to names the RTL does not declare
   (rules.foreign_names) and a testbench that embeds a design file (hdl.similarity);
3. one build of the testbench with the mutant schema (hdl.schema: every mutant behind a selector whose
   name is random per build, whose value arrives on the run's private channel), no coverage;
4. the golden run (a key no mutant has): if the testbench fails there, the status is ``false_alarm`` and
   the kill rate 0; then one run per mutant, each in its own empty folder, stopped at its first failure or
   past twice the golden run's simulated time;
5. per mutant, where its port trace first leaves the golden run's (sim.porttrace): a mutant is killed
   only when the testbench failed at or after the first time a DUT output differed. A failure before
   that, or after the testbench's own stimulus changed with no output to tell it, is not a kill.

The result is cached under a key naming the design, the mutants, the testbench, the seed, the backend
and ``BUGHUNT_VERSION`` (with the coverage score's own key inside). SystemVerilog only: see
docs/scoring.md, "Bug hunt".
"""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.records import (
    COMPILE_ERROR,
    CRASHED,
    EARLY,
    FALSE_ALARM,
    HANG,
    INFRA_ERROR,
    KILLED,
    MUTANT_CRASHED,
    MUTANT_TIMEOUT,
    NOT_EXCITED,
    OK,
    REJECTED,
    SURVIVED,
    TIMEOUT,
    UNOBSERVED,
    BughuntResult,
    Design,
    Mutant,
    MutantOutcome,
    ScoreResult,
)
from ecov.harness.hdl.ports import INPUT, PortParseError, parse_ports
from ecov.harness.hdl.schema import ProbePort, SchemaError, build_schema
from ecov.harness.hdl.similarity import embedded_design
from ecov.harness.hdl.text import TESTBENCH_UNITS, declared_names, find_top
from ecov.harness.sandbox.base import Limits
from ecov.harness.scoring.cached import entry_digest, key_of
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.jobs import job_folder
from ecov.harness.sim.mutantrun import KeyRun, bughunt_main, run_key, seal
from ecov.harness.sim.porttrace import first_divergence
from ecov.harness.sim.rules import RULES_VERSION, foreign_names
from ecov.harness.sim.verilator import COVERAGE_FLAGS, VERILATOR_FLAGS
from ecov.harness.tracks.sv.scorer import SCORING_VERSION, TB_FILE, Engine

BUGHUNT_VERSION = "1"
# A mutant run may simulate this many times the golden run's time (plus a margin) before it is stopped.
TIME_FACTOR = 2
TIME_MARGIN = 1_000_000  # in the model's precision (1 us at 1 ps)
_FAILURE = re.compile(r"%(?:Error|Fatal)[^:\n]*:\s*([\w./-]+):(\d+)")


class BughuntError(ValueError):
    """A call the scorer cannot answer (no mutants, mutants of another design)."""


class BughuntEngine:
    """Scores SV testbenches against mutants; built on (and sharing the sandbox of) the track's Engine."""

    def __init__(self, config: EngineConfig | None = None, engine: Engine | None = None, jobs: int = 0):
        self.engine = engine or Engine(config)
        self.config = self.engine.config
        self.sandbox = self.engine.sandbox
        self.backend = self.engine.backend
        self.cache_root = self.engine.cache_root
        self.jobs = jobs or int(os.environ.get("ECOV_BUGHUNT_JOBS") or 0) or min(2, os.cpu_count() or 1)

    # -- keys and cache
    def cache_key(self, design: Design, mutants: tuple[Mutant, ...], testbench: str, seed: int) -> str:
        return key_of({"bughunt": BUGHUNT_VERSION, "coverage": self.engine.cache_key(design, testbench, seed),
                       "mutants": [m.to_dict() for m in mutants], "scoring": SCORING_VERSION,
                       "rules": RULES_VERSION, "time": [TIME_FACTOR, TIME_MARGIN]})

    def identity(self) -> dict[str, str]:
        return {**self.engine.identity(), "bughunt": BUGHUNT_VERSION}

    def _path(self, key: str) -> Path:
        return self.cache_root / "bughunt" / key[:2] / f"{key}.json"

    def _hit(self, key: str) -> BughuntResult | None:
        path = self._path(key)
        if not self.config.use_cache or not path.exists():
            return None
        try:
            entry = json.loads(path.read_text())
            if entry.get("key") != key or entry.get("digest") != entry_digest(key, entry["result"]):
                path.unlink(missing_ok=True)
                return None
            hit = BughuntResult.from_dict(entry["result"])
        except (json.JSONDecodeError, TypeError, KeyError, AttributeError, ValueError):
            path.unlink(missing_ok=True)
            return None
        hit.cached = True
        return hit

    def _store(self, key: str, result: BughuntResult) -> None:
        if not self.config.use_cache or result.status in (INFRA_ERROR, TIMEOUT):
            return
        d = result.to_dict(timing=False)
        write_text_atomic(self._path(key), json.dumps({"key": key, "result": d, "digest": entry_digest(key, d)},
                                                      sort_keys=True))

    # -- scoring
    def score_bughunt(self, design: Design, mutants, testbench: str, seed: int = 1,
                      refuse_embedded: bool = True) -> BughuntResult:
        """Score ``testbench`` against ``mutants`` (a sequence of Mutant, or a MutantSet) of ``design``.

        ``refuse_embedded=False`` skips the embedded-design refusal: only for harness-owned oracle rows
        (VerilogEval's tests compare against a copy of the reference), never for a submission."""
        start = time.monotonic()
        muts = tuple(getattr(mutants, "mutants", mutants))
        if not muts:
            raise BughuntError("no mutants to score against")
        testbench = testbench.removeprefix("\ufeff")
        result = self._score(design, muts, testbench, seed, refuse_embedded)
        result.total = len(muts)
        result.seed = seed
        result.seconds = round(time.monotonic() - start, 3)
        return result

    def _score(self, design: Design, muts: tuple[Mutant, ...], testbench: str, seed: int,
               refuse_embedded: bool) -> BughuntResult:
        if refuse_embedded:
            emb = embedded_design([(f.name, f.content) for f in design.files], testbench)
            if emb is not None:
                return BughuntResult(REJECTED, errors=[
                    f"rule 'embeds-design': the testbench holds {emb.containment:.0%} of the design file "
                    f"{emb.file} (in order, by tokens): a bug-hunt testbench checks the DUT against the "
                    "specification, not against a copy of the design"])
        rejected = self.engine.lookup(design, testbench, seed)  # the rules (or a cached score), no build
        if rejected is not None and rejected.status == REJECTED:
            return BughuntResult(REJECTED, rejected, errors=list(rejected.errors))
        names = foreign_names(design, testbench, self.sandbox)
        if names:
            return BughuntResult(REJECTED, errors=[str(v) for v in names])
        golden = self.engine.score(design, testbench, seed)
        if golden.status in (REJECTED, COMPILE_ERROR, INFRA_ERROR):
            return BughuntResult(golden.status, golden, errors=list(golden.errors))
        key = self.cache_key(design, muts, testbench, seed)
        hit = self._hit(key)
        if hit is not None:
            hit.golden = golden
            return hit
        result, deterministic = self.hunt(design, muts, testbench, seed, golden)
        result.key = key
        if deterministic:
            self._store(key, result)
        return result

    def hunt(self, design: Design, muts: tuple[Mutant, ...], testbench: str, seed: int = 1,
             golden: ScoreResult | None = None) -> tuple[BughuntResult, bool]:
        """The schema build and its runs alone, uncached, no rule or refusal: for trusted testbenches (the
        mutant generator's stimuli) and for ``score_bughunt`` once those passed. Returns (the result,
        whether it is the same on any machine: no run was stopped by the wall clock)."""
        tb_modules = declared_names(testbench, TESTBENCH_UNITS)
        top = find_top(testbench, tb_modules) or (tb_modules[0] if tb_modules else "")
        try:
            ports = probe_ports(design)
            schema = build_schema(design.files, design.top, muts, ports)
        except (SchemaError, PortParseError) as exc:
            return BughuntResult(INFRA_ERROR, golden, errors=[f"harness failure: the mutant schema: {exc}"]), False
        outputs = {i for i, p in enumerate(ports) if p.direction != INPUT}
        phases: dict[str, float] = {}
        with job_folder("bh-", self.config.keep_jobs) as job:
            sources = write_design(job, ((f.name, f.content) for f in schema.files))
            (job / TB_FILE).write_text(re.sub(r"\$stop\b", "$finish", testbench))
            sources.append(TB_FILE)
            main = bughunt_main(f"{top}.{design.instance}", schema.getter, schema.put, schema.probe)
            try:
                built = self.backend.build(job, sources, top, self.config.build_limits(), tb_file=TB_FILE,
                                           coverage=False, main=main)
            except (OSError, RuntimeError) as exc:
                return BughuntResult(INFRA_ERROR, golden, errors=[f"harness failure while building: {exc}"]), False
            phases.update({f"schema_{k}": v for k, v in built.phases.items()})
            if not built.ok:  # the testbench built alone (the coverage score): the schema's own text failed
                return BughuntResult(INFRA_ERROR, golden, errors=[
                    "harness failure: the testbench compiled with the design but not with its mutant schema "
                    f"({built.stage}); report it with the task id"], phases=phases), False
            seal(job)
            t0 = time.monotonic()
            g = run_key(self.sandbox, job, schema.golden_key, 0, seed, self.config.run_limits())
            phases["golden_run"] = round(time.monotonic() - t0, 3)
            early = self._golden_verdict(g, golden, design)
            if early is not None:
                early.phases = phases
                return early, not g.proc.timed_out
            limits = _mutant_limits(self.config.run_limits(), g.proc.seconds)
            max_time = TIME_FACTOR * g.end_time + TIME_MARGIN

            def one(m: Mutant) -> tuple[MutantOutcome, bool]:
                run = run_key(self.sandbox, job, schema.keys[m.id], max_time, seed, limits)
                return outcome(m.id, g, run, outputs), run.proc.timed_out

            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=max(1, min(self.jobs, len(muts)))) as pool:
                done = list(pool.map(one, muts))
            phases["mutant_runs"] = round(time.monotonic() - t0, 3)
        outcomes = [o for o, _ in done]
        killed = sum(o.killed for o in outcomes)
        return BughuntResult(OK, golden, outcomes, killed, len(muts), phases=phases), not any(t for _, t in done)

    def lint(self, design: Design, muts: tuple[Mutant, ...]) -> str:
        """Verilator's lint of the design's schema with ``muts`` (the DUT as top, no testbench): "" when it
        is clean of errors, else the log. The mutant generator's compile filter: fast (no C++)."""
        schema = build_schema(design.files, design.top, muts, probe_ports(design))
        with job_folder("bhlint-", self.config.keep_jobs) as job:
            sources = write_design(job, ((f.name, f.content) for f in schema.files))
            argv = [*lint_argv(self.backend.runtime.root), "--top-module", design.top, *sources]
            res = self.sandbox.run(argv, job, self.config.build_limits(), untrusted=False,
                                   ro_paths=(str(self.backend.runtime.root),),
                                   env={"VERILATOR_ROOT": str(self.backend.runtime.root)})
        if res.timed_out:
            return "verilator --lint-only timed out"
        return res.output if res.returncode != 0 else ""

    def _golden_verdict(self, g: KeyRun, golden: ScoreResult, design: Design) -> BughuntResult | None:
        """The result when the golden run settles it (a false alarm, a crash); None when the mutants run."""
        if not g.ended:
            status = TIMEOUT if g.proc.timed_out else CRASHED
            return BughuntResult(status, golden, errors=[g.error or "the golden run did not end"])
        if not g.scope:
            return BughuntResult(REJECTED, golden, errors=[
                f"the testbench does not instantiate the DUT as '{design.instance}' under its top module: the bug "
                "hunt watches that instance's ports"])
        if g.overflow:
            return BughuntResult(REJECTED, golden, errors=[
                "the DUT's ports changed more than the bug hunt records (64 MiB of port trace): shorten the test"])
        if g.failed:
            where = failure_location(g.proc.output)
            when = g.ns(g.fail_time)
            return BughuntResult(FALSE_ALARM, golden, failure=where, errors=[
                f"the testbench failed on the golden design at {when:g} ns"
                + (f" ({where})" if where else "") + ": a false alarm scores 0"])
        return None


def outcome(mutant_id: str, golden: KeyRun, run: KeyRun, outputs: set[int]) -> MutantOutcome:
    """One mutant's verdict from its run and the golden run (docs/scoring.md, "Bug hunt")."""
    if not run.ended:
        return MutantOutcome(mutant_id, False, MUTANT_TIMEOUT if run.proc.timed_out else MUTANT_CRASHED)
    end = run.fail_time if run.failed else run.end_time
    div = first_divergence(golden.trace, run.trace, outputs, golden.end_time, end)
    diverged = run.ns(div.output_time)
    failed = run.ns(run.fail_time) if run.failed else None
    if run.failed:
        if div.input_time is not None:
            reason = UNOBSERVED
        elif div.output_time is None or run.fail_time < div.output_time:
            reason = EARLY
        else:
            reason = KILLED
    elif run.capped:
        reason = HANG
    else:
        reason = SURVIVED if div.diverged else NOT_EXCITED
    return MutantOutcome(mutant_id, reason == KILLED, reason, diverged, failed)


def lint_argv(root: Path) -> list[str]:
    """``verilator --lint-only`` with the build's language flags (no C++, no coverage)."""
    drop = {"--cc", "--exe", "--main", *COVERAGE_FLAGS}
    return [str(root / "bin" / "verilator"), "--lint-only", *(f for f in VERILATOR_FLAGS if f not in drop)]


def failure_location(log: str) -> str:
    """``file:line`` of the first failing check Verilator printed (``%Error: testbench.sv:42: ...``)."""
    m = _FAILURE.search(log or "")
    return f"{m.group(1)}:{m.group(2)}" if m else ""


def probe_ports(design: Design) -> tuple[ProbePort, ...]:
    """The DUT's ports in the probe's order (outputs and inouts are what a kill must be seen on)."""
    mp = parse_ports(design.files, design.top)
    return tuple(ProbePort(p.name, p.direction, p.is_array) for p in mp.ports)


def _mutant_limits(base: Limits, golden_seconds: float) -> Limits:
    """A mutant run's wall clock: the simulated-time cap stops most runaway mutants; this catches the ones
    that loop within one time step."""
    wall = min(base.wall_seconds, max(10.0, 5.0 * golden_seconds + 5.0))
    return replace(base, wall_seconds=wall, cpu_seconds=int(wall) + 5)


def score_bughunt(design: Design, mutants, testbench: str, seed: int = 1,
                  config: EngineConfig | None = None) -> BughuntResult:
    return BughuntEngine(config).score_bughunt(design, mutants, testbench, seed)


__all__ = ["BUGHUNT_VERSION", "BughuntEngine", "BughuntError", "failure_location", "outcome", "probe_ports",
           "score_bughunt"]
