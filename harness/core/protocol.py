"""Evaluation protocols: named presets for every choice of the agent loop that moves a score.

``llm4cov`` (the default) reproduces the LLM4Cov paper's released evaluation code
(HejiaZ2023/llm4cov_oss, ``scripts/batch_query_eval.py --agentic-mode markov-agentic``); ``ecov`` keeps
ECov's own choices where they serve users better (targets in the prompt, patch revisions, uncovered-line
feedback, stop when every target is met). docs/evaluation.md lists each difference and why. ``bughunt``
(issue 31) asks for a self-checking testbench from the spec and the ports alone and scores the bugs it
catches: the testbench runs on the golden design and on every killable mutant (docs/evaluation.md, "Bug hunt").

A protocol is part of a run's identity (RunConfig.protocol): runs of different protocols are never
ranked together. Protocols are registered (kind ``protocol``): another one is a ``Protocol`` whose
``feedback`` names a registered renderer and whose ``prompt`` names a layout the tracks write.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ecov.harness import registry
from ecov.harness.core.records import ScoreResult, Target


@dataclass(frozen=True)
class Protocol:
    name: str
    rounds: int  # model calls per sample in agentic mode, the first (direct) one included
    memory: str  # "best": the prompt shows the best testbench so far; "latest": the last one scored
    ties: str  # with memory "best": on an equal state key, "later" replaces the memory, "earlier" keeps it
    format_reasks: int  # unusable answers asked again without spending a round (0: the round is spent)
    revisions: str  # "full": whole files only; "full_or_patch": whole files or unified-diff hunks
    early_stop: str  # "full_coverage": overall reaches 100%; "targets_met": every target met
    avg_cov: str  # a sample's coverage: "best" (its best state) or "final" (its last round)
    feedback: str  # "eda_summary" (status, stage, coverage summary, error log) | "uncovered" (+ uncovered code)
    targets_in_prompt: bool
    prompt: str  # prompt layout: "llm4cov" | "ecov" | "bughunt"
    # Scored on the bugs the testbench catches (issue 31): the golden design and every killable mutant.
    bughunt: bool = False

    def to_dict(self) -> dict:
        return asdict(self)

    def stop_after(self, result: ScoreResult, targets: list[Target]) -> bool:
        """Whether the sample ends after a round scored ``result``."""
        if self.early_stop == "full_coverage":
            return result.ran and result.overall >= 100.0
        if self.early_stop == "all_killed":  # nothing left to catch
            return all_killed(result)
        return result.meets(targets)


LLM4COV = Protocol(
    name="llm4cov", rounds=4, memory="best", ties="later", format_reasks=3, revisions="full",
    early_stop="full_coverage", avg_cov="best", feedback="eda_summary", targets_in_prompt=False,
    prompt="llm4cov",
)
ECOV = Protocol(
    name="ecov", rounds=5, memory="latest", ties="later", format_reasks=0, revisions="full_or_patch",
    early_stop="targets_met", avg_cov="final", feedback="uncovered", targets_in_prompt=True, prompt="ecov",
)
BUGHUNT = Protocol(
    name="bughunt", rounds=5, memory="latest", ties="later", format_reasks=0, revisions="full_or_patch",
    early_stop="all_killed", avg_cov="final", feedback="bughunt", targets_in_prompt=False, prompt="bughunt",
    bughunt=True,
)
AVG_COV_TEXT = {"best": "best state over rounds (ran, has coverage, met targets, overall)",
                "final": "final round"}
KIND = "protocol"
for _p in (LLM4COV, ECOV, BUGHUNT):
    registry.register(KIND, _p.name, _p)
DEFAULT_PROTOCOL = LLM4COV.name


def all_killed(result: ScoreResult) -> bool:
    """A bug-hunt result that passed on the golden design and caught every mutant (there was one)."""
    bh = result.bughunt
    return bool(bh) and bh.get("status") == "ok" and int(bh.get("total") or 0) > 0 \
        and int(bh.get("killed") or 0) >= int(bh["total"])


def bughunt_passed(result: ScoreResult, target: float | None) -> bool:
    """A bug-hunt result that passed on the golden design with a kill rate at or above the task's target
    (every mutant when the task has no calibrated target)."""
    bh = result.bughunt
    if not bh or bh.get("status") != "ok" or not int(bh.get("total") or 0):
        return False
    return float(bh.get("kill_rate") or 0.0) >= (100.0 if target is None else float(target))


def protocol_names() -> list[str]:
    """The registered protocols, the default first: CLI choices."""
    return sorted(registry.names(KIND), key=lambda n: (n != DEFAULT_PROTOCOL, n))


def find_protocol(name: str | None) -> Protocol | None:
    """The protocol registered as ``name`` (default: the default protocol), None when unknown."""
    return registry.items(KIND).get(name or DEFAULT_PROTOCOL)


def get_protocol(name: str | Protocol | None) -> Protocol:
    if isinstance(name, Protocol):
        return name
    proto = find_protocol(name)
    if proto is None:
        raise ValueError(f"protocol must be one of {', '.join(protocol_names())}, not {name!r}")
    return proto
