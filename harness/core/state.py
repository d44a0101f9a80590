"""The protocol's state logic, written once: which state a memoryless prompt shows, which state is a
sample's best, and what a round with no usable answer carries.

The agent loop (ecov.harness.loop.agent), the run metrics (ecov.harness.evaluation.metrics), the
leaderboard's verifier and the trainers' row synthesis all replay a sample's rounds through a
``StateTracker``, so they cannot disagree on the best state or on what the prompt showed.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from ecov.harness.core.protocol import Protocol, get_protocol
from ecov.harness.core.records import ScoreResult, Target
from ecov.harness.core.run_folder import RoundRecord, SampleRecord

S = TypeVar("S")
StateKey = tuple[bool, bool, bool, float]


def key_of(result: ScoreResult, met: bool) -> StateKey:
    """How two states compare, as the released code orders its CovResult: ran, has coverage, meets every
    target (``met``), then overall coverage."""
    has_cov = result.ran and bool(result.coverage)
    return (result.ran, has_cov, has_cov and met, round(result.overall, 4) if has_cov else 0.0)


def state_key(result: ScoreResult, targets: list[Target]) -> StateKey:
    """The state key of a scored testbench against its task's targets."""
    return key_of(result, result.meets(targets))


def replaces_best(protocol: Protocol, new: StateKey, best: StateKey | None) -> bool:
    """Whether a state with key ``new`` becomes the best (on a tie the protocol decides: llm4cov keeps
    the later one, as the released code's ``<=``)."""
    if best is None:
        return True
    return new >= best if protocol.ties == "later" else new > best


class StateTracker(Generic[S]):
    """One sample's scored states, in order: the best (by key, ties per protocol) and the latest.

    ``memory`` is what a memoryless prompt shows and what a round with no usable answer carries: the
    best state (llm4cov) or the latest one (ecov).
    """

    def __init__(self, protocol: str | Protocol | None):
        self.protocol = get_protocol(protocol)
        self.best: S | None = None
        self.best_key: StateKey | None = None
        self.latest: S | None = None

    def add(self, key: StateKey, state: S) -> bool:
        """Record a scored state; True when it becomes the memory (a new best, or any state under
        latest-state memory)."""
        self.latest = state
        if replaces_best(self.protocol, key, self.best_key):
            self.best, self.best_key = state, key
            return True
        return self.protocol.memory == "latest"

    @property
    def memory(self) -> S | None:
        return self.best if self.protocol.memory == "best" else self.latest


def round_key(rec: RoundRecord) -> StateKey:
    """The state key of a scored round (``state_key``), from what the record holds: its pass is the targets
    met."""
    return key_of(ScoreResult.from_dict(rec.result), bool(rec.passed))


def sample_from_rounds(task_id: str, sample: int, rounds: list[RoundRecord], error: str = "",
                       protocol: str | Protocol | None = None, stop_reason: str = "") -> SampleRecord:
    """The SampleRecord of one sample's rounds (in order); no rounds (model failed at once) is a failure.

    The best state is the scored round with the highest key (ran, has coverage, met every target,
    overall); on a tie the protocol decides (llm4cov: the later one, as the released code's ``<=``).
    """
    proto = get_protocol(protocol)
    results = [ScoreResult.from_dict(r.result) for r in rounds]
    overall = [round(res.overall, 4) for res in results]
    passed_round = next((r.round for r in rounds if r.passed), None)
    tracker: StateTracker[int] = StateTracker(proto)  # states by round index
    best_by_round = []
    for i, rec in enumerate(rounds):
        if rec.testbench:
            tracker.add(round_key(rec), i)
        best_by_round.append(_ran_overall(results, overall, tracker.best))
    best_i = tracker.best
    best_res = results[best_i] if best_i is not None else None
    contract = any(r.legal_passed is not None for r in rounds)
    scored = [res for rec, res in zip(rounds, results, strict=True) if rec.testbench]
    if proto.avg_cov == "best":
        syntax_ok = best_res is not None and best_res.syntax_ok
    else:
        syntax_ok = bool(results) and results[-1].syntax_ok
    return SampleRecord(
        task_id=task_id,
        sample=sample,
        rounds=len(rounds),
        passed=passed_round is not None,
        passed_round=passed_round,
        syntax_ok=syntax_ok,
        final_overall=overall[-1] if overall else 0.0,
        best_overall=max(overall, default=0.0),
        overall_by_round=overall,
        prompt_tokens=sum(r.prompt_tokens for r in rounds),
        completion_tokens=sum(r.completion_tokens for r in rounds),
        cost=round(sum(r.cost for r in rounds), 8),
        error=error,
        protocol=proto.name,
        best_round=rounds[best_i].round if best_i is not None else None,
        best_state_overall=_ran_overall(results, overall, best_i),
        best_overall_by_round=best_by_round,
        reasks=sum(r.reasks for r in rounds),
        stop_reason=stop_reason or ("model_error" if error else ""),
        contract=contract,
        legal_passed_round=next((r.round for r in rounds if r.legal_passed), None),
        legal_overall_by_round=[round(float(res.legal.get("overall", 0.0)), 4) if res.ran else 0.0
                                for res in results] if contract else [],
        violated=contract and bool(scored) and bool(scored[-1].legal.get("violation")),
        **(_bins(scored) if contract else {}),
    )


def _bins(scored: list[ScoreResult]) -> dict[str, int]:
    """A contract sample's bins: the most one scored round hit before its first broken rule (a round that
    did not run hits none), out of the contract's bin count."""
    return {"legal_bins_hit": max((len(r.legal.get("bins") or []) for r in scored if r.ran), default=0),
            "legal_bins": max((int(r.legal.get("bins_total") or 0) for r in scored), default=0)}


def _ran_overall(results: list[ScoreResult], overall: list[float], i: int | None) -> float:
    """A state's overall, 0 where its simulation failed (the paper's Avg Cov)."""
    return overall[i] if i is not None and results[i].ran else 0.0
