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

from ecov.harness.contracts.spec import ContractError
from ecov.harness.contracts.spec import check as check_contract
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
    NO_FINISH,
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
from ecov.harness.hdl.schema import REPLAY_SELECTOR, ProbePort, SchemaError, build_schema, replay_schema
from ecov.harness.hdl.similarity import embedded_design
from ecov.harness.hdl.text import TESTBENCH_UNITS, declared_names, find_top
from ecov.harness.sandbox.base import Limits
from ecov.harness.scoring.cached import entry_digest, key_of
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim import recorder
from ecov.harness.sim import trace as tr
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.jobs import job_folder
from ecov.harness.sim.mutantrun import KeyRun, bughunt_main, run_key, seal
from ecov.harness.sim.porttrace import first_divergence, first_record_difference
from ecov.harness.sim.replay import ReplayError, ReplaySpec
from ecov.harness.sim.rules import RULES_VERSION, foreign_names
from ecov.harness.sim.verdict import stopped_by_sandbox
from ecov.harness.sim.verilator import COVERAGE_FLAGS, VERILATOR_FLAGS, verilator_command
from ecov.harness.tracks.replayed import Refused
from ecov.harness.tracks.sv.scorer import SCORING_VERSION, TB_FILE, Engine

BUGHUNT_VERSION = "3"  # 2: golden coverage and kill confirmation from the trusted replay; 3: signed
# expressions keep their sign in the schema, a mutant run the sandbox never started is an infra error
# A mutant run may simulate this many times the golden run's time (plus a margin) before it is stopped.
TIME_FACTOR = 2
TIME_MARGIN = 1_000_000  # in the model's precision (1 us at 1 ps)
START_TRIES = 3  # a mutant run the sandbox failed to start is tried again, then the score is an infra error
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
        base = self.engine._base(design, seed)
        rejected, violations = self.engine._rules(base, design, testbench)
        if rejected is not None:
            return BughuntResult(REJECTED, rejected, errors=list(rejected.errors))
        names = foreign_names(design, testbench, self.sandbox)
        if names:
            return BughuntResult(REJECTED, errors=[str(v) for v in names])
        key = self.cache_key(design, muts, testbench, seed)
        hit = self._hit(key)
        if hit is not None:
            return hit
        result, deterministic = self.hunt(design, muts, testbench, seed, base, [v for v in violations if v.deferred])
        result.key = key
        if deterministic:
            self._store(key, result)
        return result

    def hunt(self, design: Design, muts: tuple[Mutant, ...], testbench: str, seed: int = 1,
             base: ScoreResult | None = None, deferred: list | None = None) -> tuple[BughuntResult, bool]:
        """The schema build and its runs, uncached, no rule or refusal: for trusted testbenches (the mutant
        generator's stimuli) and for ``score_bughunt`` once those passed. Returns (the result, whether it
        is the same on any machine: no run was stopped by the wall clock)."""
        base = base or self.engine._base(design, seed)
        tb_modules = declared_names(testbench, TESTBENCH_UNITS)
        if not tb_modules:
            return BughuntResult(COMPILE_ERROR, replace(base, status=COMPILE_ERROR), errors=[
                "the testbench defines no module: expected `module tb; ... endmodule`"]), True
        top = find_top(testbench, tb_modules) or tb_modules[0]
        path = f"{top}.{design.instance}"
        replayer = self.engine.replayer
        try:
            meta = check_contract(design.contract, design) if design.contract is not None else None
            prep = replayer.prepare(design, meta)
            ports = probe_ports(design)
            schema = build_schema(design.files, design.top, muts, ports)
        except Refused as exc:
            return BughuntResult(exc.status, replace(base, status=exc.status, errors=[str(exc)]), errors=[str(exc)]), False
        except (ContractError, SchemaError, PortParseError, OSError, RuntimeError) as exc:
            msg = f"harness failure: the bug hunt's builds: {exc}"
            return BughuntResult(INFRA_ERROR, replace(base, status=INFRA_ERROR, errors=[msg]), errors=[msg]), False
        outputs = {i for i, p in enumerate(ports) if p.direction != INPUT}
        phases: dict[str, float] = {"replay_build": prep.built_seconds} if prep.built_seconds else {}
        with job_folder("bh-", self.config.keep_jobs) as job:
            sources = write_design(job, ((f.name, f.content) for f in schema.files))
            (job / TB_FILE).write_text(re.sub(r"\$stop\b", "$finish", testbench))
            (job / recorder.FILE).write_text(prep.recorder_sv)
            sources += [TB_FILE, recorder.FILE]
            main = bughunt_main(path, schema.getter, schema.put, schema.probe, replayer.cap)
            # Errors located in the design's files would quote the schema (mutants, the selector): hidden.
            hidden = (recorder.FILE, *(f"rtl/{Path(f.name).name}" for f in design.files))
            failed, built, _ = self.engine._build(job, sources, top, replace(base, phases={}), deferred, hidden,
                                                  main, False)
            if failed is not None:
                return BughuntResult(failed.status, failed, errors=list(failed.errors)), failed.status != INFRA_ERROR
            phases.update({f"schema_{k}": v for k, v in built.phases.items()})
            seal(job)
            t0 = time.monotonic()
            g = run_key(self.sandbox, job, schema.golden_key, 0, seed, self.config.run_limits(), stop=False,
                        rec_cap=replayer.cap)
            phases["golden_run"] = round(time.monotonic() - t0, 3)
            golden = self._golden_score(base, g, prep, design, path, seed)
            phases["golden_replay"] = golden.phases.get("replay", 0.0)
            early = self._golden_verdict(g, golden, design)
            if early is not None:
                early.phases = phases
                return early, not g.proc.timed_out and golden.status not in (TIMEOUT, INFRA_ERROR)
            limits = _mutant_limits(self.config.run_limits(), g.proc.seconds)
            max_time = TIME_FACTOR * g.end_time + TIME_MARGIN

            def one(m: Mutant) -> tuple[KeyRun, MutantOutcome]:
                for attempt in range(START_TRIES):
                    run = run_key(self.sandbox, job, schema.keys[m.id], max_time, seed, limits,
                                  rec_cap=replayer.cap)
                    if not start_failed(run):
                        break
                    time.sleep(0.5 * (attempt + 1))  # a transient fork failure (EAGAIN) passes
                return run, outcome(m.id, g, run, outputs)

            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=max(1, min(self.jobs, len(muts)))) as pool:
                done = list(pool.map(one, muts))
            phases["mutant_runs"] = round(time.monotonic() - t0, 3)
        unstarted = [(m.id, run) for m, (run, _) in zip(muts, done, strict=True) if start_failed(run)]
        if unstarted:  # never "survived": a run that never started says nothing about the testbench
            msg = (f"harness failure: the sandbox failed to start the run of {len(unstarted)} mutant(s) "
                   f"({', '.join(i for i, _ in unstarted[:5])}): {unstarted[0][1].proc.output.strip()[:300]}")
            return BughuntResult(INFRA_ERROR, golden, errors=[msg], phases=phases), False
        t0 = time.monotonic()
        try:
            outcomes = self._confirm(design, muts, prep, g, done, seed)
        except (ReplayError, tr.TraceError, OSError, RuntimeError) as exc:
            msg = f"harness failure: the replay that confirms kills: {exc}"
            return BughuntResult(INFRA_ERROR, golden, errors=[msg], phases=phases), False
        phases["kill_replays"] = round(time.monotonic() - t0, 3)
        killed = sum(o.killed for o in outcomes)
        wall = any(r.proc.timed_out for r, _ in done)
        return BughuntResult(OK, golden, outcomes, killed, len(muts), phases=phases), not wall

    def _golden_score(self, base: ScoreResult, g: KeyRun, prep, design: Design, path: str, seed: int) -> ScoreResult:
        """The golden run's coverage, from the trusted replay of its recording (as any coverage score)."""
        out = _clean_log(g.proc.output)
        status, errors = OK, []
        stopped = stopped_by_sandbox(g.proc, self.config.run_limits(), "missing $finish, or an endless loop?")
        if stopped is not None:
            status, errors = stopped
        elif g.proc.returncode != 0 or not g.ended:
            status, errors = CRASHED, [g.error or f"the simulation exited with code {g.proc.returncode}"]
        elif not g.finished and not g.failed:
            status, errors = NO_FINISH, ["simulation ended without $finish (it ran out of events)"]
        result = replace(base, status=status, errors=errors, log_tail=out[-3000:], phases={})
        if not result.ran:
            return result
        return self.engine.replayer.score(result, prep, g.recording, g.rec_state, design, path, seed)

    def _golden_verdict(self, g: KeyRun, golden: ScoreResult, design: Design) -> BughuntResult | None:
        """The result when the golden run settles it (a false alarm, a crash); None when the mutants run."""
        if not golden.ran:
            return BughuntResult(golden.status, golden, errors=list(golden.errors))
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
        if golden.status not in (OK, NO_FINISH):
            return BughuntResult(golden.status, golden, errors=list(golden.errors))
        return None

    def _confirm(self, design: Design, muts: tuple[Mutant, ...], prep, g: KeyRun,
                 done: list[tuple[KeyRun, MutantOutcome]], seed: int) -> list[MutantOutcome]:
        """Each kill the port traces show, confirmed where no testbench code runs: the mutant run's recorded
        inputs replayed into the mutant's DUT-only model must give outputs that differ from the golden
        model's (the golden run's recording, replayed) at or before the failure, while the two runs' inputs
        were still the same. Otherwise the kill does not count (``early``)."""
        todo = [(i, run, o) for i, (run, o) in enumerate(done) if o.killed]
        outcomes = [o for _, o in done]
        if not todo:
            return outcomes
        builder = self.engine.replayer.builder
        limits = self.config.run_limits()
        header, _ = tr.decode_header(_bytes(g.recording))
        params, golden_build = next(((p, b) for p, b in prep.candidates if b.header is not None
                                     and b.header.design_bytes() == header.design_bytes()), (None, None))
        if golden_build is None:
            raise ReplayError("the golden recording matches no DUT-only build")
        files, keys = replay_schema(design.files, design.top, muts)
        spec = ReplaySpec(Design(files, design.top, design.instance), params)
        mutant_build = builder.build(spec, self.config.build_limits())
        if not mutant_build.ok:
            raise ReplayError(f"the mutants' DUT-only model ({mutant_build.stage}): {mutant_build.log[-800:]}")
        g_out = builder.run(golden_build, _bytes(g.recording), limits, seed=seed, outputs=True)
        if g_out.malformed or not g_out.outputs:
            raise ReplayError(f"the golden replay: {g_out.malformed or g_out.ran.output[-400:]}")
        prec = tr.decode_header(g_out.outputs)[0].precision

        def confirm(item: tuple[int, KeyRun, MutantOutcome]) -> tuple[int, MutantOutcome]:
            i, run, o = item
            if not isinstance(run.recording, bytes):
                return i, replace(o, killed=False, reason=EARLY)
            m_out = builder.run(mutant_build, run.recording, limits, seed=seed, outputs=True,
                                plusargs=(f"+{REPLAY_SELECTOR}={keys[o.id]}",))
            if m_out.malformed or not m_out.outputs:
                raise ReplayError(f"the replay of {o.id}: {m_out.malformed or m_out.ran.output[-400:]}")
            # Compared while the two runs' inputs were the same, and up to the failure (in the replay's unit).
            until = run.fail_time
            t_in = first_record_difference(_bytes(g.recording), run.recording)
            if t_in is not None:
                until = min(until, t_in)
            until = _rescale(until, run.precision, prec)
            t = first_record_difference(g_out.outputs, m_out.outputs)
            if t is None or t > until:
                return i, replace(o, killed=False, reason=EARLY)
            return i, replace(o, diverged_ns=round(t * 10.0 ** (prec + 9), 6))

        with ThreadPoolExecutor(max_workers=max(1, min(self.jobs, len(todo)))) as pool:
            for i, o in pool.map(confirm, todo):
                outcomes[i] = o
        return outcomes


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


def start_failed(run: KeyRun) -> bool:
    """The sandbox never started the run (bwrap could not fork or make its namespaces): no verdict at all."""
    return not run.ended and run.proc.output.startswith("bwrap:")


def _rescale(t: int, src: int, dst: int) -> int:
    """A time in units of 10^src s as units of 10^dst s (rounded down)."""
    return t * 10 ** (src - dst) if src >= dst else t // 10 ** (dst - src)


def first_output_difference(golden: list[tuple[int, tuple[int, ...]]], mutant: list[tuple[int, tuple[int, ...]]],
                            until: int) -> int | None:
    """The first time at or before ``until`` at which the two models' outputs differ (each trace holds a
    step only when its outputs changed, so a value holds until the next step)."""
    times = sorted({t for t, _ in golden} | {t for t, _ in mutant})
    gi = mi = 0
    gv: tuple[int, ...] | None = None
    mv: tuple[int, ...] | None = None
    for t in times:
        if t > until:
            break
        while gi < len(golden) and golden[gi][0] <= t:
            gv = golden[gi][1]
            gi += 1
        while mi < len(mutant) and mutant[mi][0] <= t:
            mv = mutant[mi][1]
            mi += 1
        if gv != mv:
            return t
    return None


def _bytes(x) -> bytes:
    if not isinstance(x, bytes):
        raise ReplayError(f"no usable recording: {x}")
    return x


def _clean_log(text: str) -> str:
    return "\n".join(line for line in (text or "").splitlines() if not line.startswith(("- Verilator: ", "- S i m")))


def lint_argv(root: Path) -> list[str]:
    """``verilator --lint-only`` with the build's language flags (no C++, no coverage)."""
    drop = {"--cc", "--exe", "--main", *COVERAGE_FLAGS}
    return [*verilator_command(root), "--lint-only", *(f for f in VERILATOR_FLAGS if f not in drop)]


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
           "score_bughunt", "start_failed"]
