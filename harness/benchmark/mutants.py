"""Making a task's killable mutants (issue 31): candidates, a compile filter, differential simulation.

1. Candidates from the RTL's syntax tree (ecov.harness.hdl.mutate), put in a deterministic order that
   takes each mutation kind in turn (so a task's mutants spread over kinds and lines).
2. Batches of ``BATCH`` candidates: a batch must pass Verilator's lint as one schema (hdl.schema);
   a failing batch is halved until each mutant that breaks it is found (dropped: ``compile``).
3. Each batch is simulated under the task's stimuli, trusted testbenches: its reference testbenches and
   a long legal random one (``builtin/legal-random``: builtin/random's stimulus within the task's
   interface contract). A mutant is killable when, under some stimulus, a DUT output differs from the
   golden run's (MCY's eq_sim); the rest are dropped as possibly equivalent (``not_killable``). A mutant
   that crashes the simulator, or loops in one time step, under any stimulus is dropped too.
4. Batches continue until ``KEEP`` killable mutants are found or ``BATCHES`` batches were tried; the
   first ``KEEP`` killable ones are kept and numbered ``m001``... in source order.

The counts (``made``: candidates, ``kept``, ``dropped`` per reason, ``untried``: candidates never
simulated because enough were found) travel in the file. Deterministic for a given design, reference
testbenches, contract and Verilator.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable

from ecov.harness.contracts.spec import design_sha256
from ecov.harness.core.records import MUTANT_CRASHED, MUTANT_TIMEOUT, OK, UNOBSERVED, Mutant, MutantSet
from ecov.harness.hdl.mutate import candidates
from ecov.harness.hdl.schema import SchemaError
from ecov.harness.models.base import ModelError, ModelRequest
from ecov.harness.models.legal_random import LegalRandomModel
from ecov.harness.parse import fenced_blocks
from ecov.harness.tasks import Task
from ecov.harness.tracks.sv.bughunt import BughuntEngine

BATCH = 32  # candidates per schema build (most candidates are killable: ~90% on the embedded suite)
KEEP = 20  # killable mutants kept per task
BATCHES = 4  # schema builds per task at most
RANDOM_CYCLES = 8000  # the legal random stimulus's cycles
REFERENCES = 2  # reference testbenches used as stimuli, at most


class MutantGenError(RuntimeError):
    """The task's mutants cannot be made (the design's schema fails without any mutant, no stimulus runs)."""


def order(cands: list[Mutant]) -> list[Mutant]:
    """Candidates in the order they are tried: one of each kind in turn, each kind spread over the file
    by a hash of the edit (deterministic)."""
    groups: dict[str, list[Mutant]] = {}
    for m in cands:
        groups.setdefault(m.operator, []).append(m)
    for g in groups.values():
        g.sort(key=lambda m: hashlib.sha256(f"{m.file}|{m.start}|{m.end}|{m.replacement}".encode()).hexdigest())
    out: list[Mutant] = []
    while any(groups.values()):
        for kind in sorted(groups):
            if groups[kind]:
                out.append(groups[kind].pop(0))
    return out


def stimuli(task: Task, cycles: int = RANDOM_CYCLES) -> list[tuple[str, str]]:
    """(name, testbench) of the trusted stimuli: the reference testbenches, then legal random."""
    out = [(f"reference {f.name}", f.content) for f in task.reference_tbs[:REFERENCES]]
    try:
        answer = LegalRandomModel(cycles=cycles).complete(ModelRequest(messages=[], task=task, seed=1)).text
        blocks = fenced_blocks(answer)
        if blocks:
            out.append((f"legal random ({cycles} cycles)", blocks[0].content))
    except ModelError:
        pass  # a design the random plan cannot drive: the references alone
    return out


def compile_filter(engine: BughuntEngine, task: Task, muts: list[Mutant]) -> tuple[list[Mutant], list[Mutant]]:
    """(the mutants that lint clean together, the ones that break the schema), halving to find the latter."""
    if not muts:
        return [], []
    try:
        log = engine.lint(task.design, tuple(muts))
    except SchemaError as e:
        bad = [m for m in muts if m.id in set(e.ids)] or muts
        good, worse = compile_filter(engine, task, [m for m in muts if m not in bad])
        return good, bad + worse
    if not log:
        return muts, []
    if len(muts) == 1:
        return [], muts
    half = len(muts) // 2
    a_ok, a_bad = compile_filter(engine, task, muts[:half])
    b_ok, b_bad = compile_filter(engine, task, muts[half:])
    return a_ok + b_ok, a_bad + b_bad


def make_mutants(task: Task, engine: BughuntEngine, *, keep: int = KEEP, batch: int = BATCH,
                 batches: int = BATCHES, cycles: int = RANDOM_CYCLES,
                 log: Callable[[str], None] = lambda s: None) -> MutantSet:
    """The task's mutants file (see the module docstring)."""
    cands = candidates(task.rtl_files)
    queue = order(cands)
    design = task.design
    base = engine.lint(design, ())
    if base:
        raise MutantGenError(f"{task.id}: the design does not lint as a schema without mutants: {base[-600:]}")
    stims = stimuli(task, cycles)
    dropped: Counter[str] = Counter()
    killable: list[Mutant] = []
    done = 0
    notes: list[str] = []
    while queue and len(killable) < keep and done < batches:
        chunk, queue = queue[:batch], queue[batch:]
        done += 1
        good, bad = compile_filter(engine, task, chunk)
        dropped["compile"] += len(bad)
        shown: set[str] = set()
        broken: dict[str, str] = {}
        ran = 0
        for name, tb in stims:
            if not good:
                break
            result, _ = engine.hunt(design, tuple(good), tb, 1)
            if result.status != OK:
                notes.append(f"{name}: {result.status} ({'; '.join(result.errors)[:200]})")
                continue
            ran += 1
            for o in result.outcomes:
                if o.reason in (MUTANT_CRASHED, MUTANT_TIMEOUT):
                    broken.setdefault(o.id, "crash" if o.reason == MUTANT_CRASHED else "timeout")
                elif o.diverged_ns is not None and o.reason != UNOBSERVED:
                    shown.add(o.id)
        if not ran:
            raise MutantGenError(f"{task.id}: no stimulus ran on the mutant schema: {'; '.join(notes)[:600]}")
        for m in good:
            if m.id in broken:
                dropped[broken[m.id]] += 1
            elif m.id in shown:
                killable.append(m)
            else:
                dropped["not_killable"] += 1
        log(f"{task.id}: batch {done}: {len(chunk)} tried, {len(bad)} compile, {len(killable)} killable so far")
    kept = sorted(killable[:keep], key=lambda m: (m.file, m.start, m.end, m.operator, m.replacement))
    if len(killable) > keep:
        dropped["over_cap"] += len(killable) - keep
    if queue:
        dropped["untried"] += len(queue)
    final = tuple(Mutant(f"m{i:03d}", m.operator, m.file, m.line, m.start, m.end, m.original, m.replacement, m.note)
                  for i, m in enumerate(kept, 1))
    stats = {"made": len(cands), "kept": len(final), "dropped": dict(sorted(dropped.items())),
             "stimuli": [n for n, _ in stims], "operators": dict(sorted(Counter(m.operator for m in final).items()))}
    if notes:
        stats["notes"] = notes[:5]
    return MutantSet(task.id, design_sha256(task.rtl_files), final, stats)


__all__ = ["BATCH", "BATCHES", "KEEP", "MutantGenError", "compile_filter", "make_mutants", "order", "stimuli"]
