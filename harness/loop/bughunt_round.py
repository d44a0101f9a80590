"""The bughunt protocol's round scorer (issue 31): one task's testbench scored on its golden design and its
killable mutants (the track's ``BughuntEngine.score_bughunt``), as the ``ScoreResult`` a round records.

The round's result is the golden run's coverage score with the bug hunt's figures in ``ScoreResult.bughunt``
(status, killed, total, kill rate, the golden failure's file:line, each mutant's outcome). A refusal before
anything ran (the test rules, a name the RTL does not declare, an embedded copy of the design) is a
``rejected`` result with the reason; a harness failure stays ``infra_error`` (the sample is redone on resume).
A task without mutants gets its coverage score and the status ``no_mutants`` (it counts in no kill rate).

The embedded-design refusal is skipped for exactly one text per task: its harness-owned self-checking
reference (``Task.bughunt_tbs``; autoeval-ecov's compare against VerilogEval's copy of the golden module).
The check is on the content, so a run, its verification and a cached score agree whoever submits it.
"""

from __future__ import annotations

from dataclasses import replace

from ecov.harness.core.records import FALSE_ALARM, INFRA_ERROR, OK, REJECTED, BughuntResult, ScoreResult
from ecov.harness.tasks import Task

NO_MUTANTS = "no_mutants"  # bug-hunt status of a task without killable mutants: coverage only


def is_reference(task: Task, testbench: str) -> bool:
    """The testbench is one of the task's own self-checking references (harness-owned oracle rows), up to the
    blank lines and spaces around it that an answer's code block does not keep (a reference file ending in
    two newlines comes back from builtin/reference's answer with one)."""
    return any(testbench.strip() == f.content.strip() for f in task.bughunt_tbs)


def bughunt_figures(bh: BughuntResult) -> dict:
    """``ScoreResult.bughunt`` of a scored result: what the protocol, the metrics and the reports read."""
    d = {"status": bh.status, "killed": bh.killed if bh.status == OK else 0, "total": bh.total,
         "kill_rate": bh.kill_rate, "outcomes": {o.id: o.reason for o in bh.outcomes}}
    if bh.status == FALSE_ALARM:
        d["failure"] = bh.failure
    if bh.status not in (OK, FALSE_ALARM) and bh.errors:
        d["reason"] = bh.errors[0][:500]
    return d


def round_result(bh: BughuntResult, task: Task) -> ScoreResult:
    """The golden run's score carrying the bug hunt's figures; a refusal with no golden run is ``rejected``."""
    if bh.golden is not None and not (bh.status == REJECTED and bh.golden.ran):
        res = replace(bh.golden)
        if bh.status == INFRA_ERROR:  # the golden run was scored but the mutants' were not: a fault, not a 0
            res = replace(res, status=INFRA_ERROR, errors=[*res.errors, *bh.errors])
    else:
        res = ScoreResult(status=bh.status if bh.status in (REJECTED, INFRA_ERROR) else REJECTED,
                          instance=task.dut_instance, errors=list(bh.errors), seed=bh.seed)
    res.bughunt = bughunt_figures(bh)
    return res


class BughuntRoundScorer:
    """``(task, testbench, seed) -> ScoreResult`` over a track's bug-hunt engine (thread-safe as it is)."""

    def __init__(self, engine):
        self.engine = engine

    def __call__(self, task: Task, testbench: str, seed: int) -> ScoreResult:
        design = task.design
        mutants = task.mutants.mutants if task.mutants is not None else ()
        if not mutants:
            res = self.engine.engine.score(design, testbench, seed)
            res.bughunt = {"status": NO_MUTANTS, "killed": 0, "total": 0, "kill_rate": 0.0}
            return res
        bh = self.engine.score_bughunt(design, mutants, testbench, seed,
                                       refuse_embedded=not is_reference(task, testbench))
        return round_result(bh, task)


__all__ = ["BughuntRoundScorer", "NO_MUTANTS", "bughunt_figures", "is_reference", "round_result"]
