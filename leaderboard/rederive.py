"""Re-derive a submitted sample through the agent loop itself, from its answers and re-scored results.

Verify does not check a submission's records one by one against rules of its own: it runs the harness's
agent loop (``ecov.harness.loop.agent.run_sample``) again, under the protocol, track, mode and rounds the
run's config claims, with a model that gives the recorded answers (or, for a builtin model whose answers
are a pure function of the request, the builtin itself, so the build re-makes them) and a scorer that
serves the results re-scored by this verification (never the submitted ones). Everything a record holds
then has a value the harness computed: the chat and its digest (``prompt_hash``; an llm4cov run relabelled
ecov asks another prompt), the testbench each answer gives, the feedback, pass and legal verdicts (a task
with a contract always gets one), best states, stop reason, and the sample's figures. A testbench the
answers give but no round recorded is never simulated here: the sample stops at it (``unscored``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ecov.harness.core.records import ScoreResult
from ecov.harness.core.run_folder import RoundRecord, RunConfig, SampleRecord
from ecov.harness.loop.agent import AgentConfig, run_sample
from ecov.harness.models import ModelError, get_model
from ecov.harness.models.replay import ReplayModel
from ecov.harness.tasks import Task

Results = Callable[[str], ScoreResult | None]  # testbench -> its re-scored result (None: not scored)


class Unscored(Exception):
    """An answer gives a testbench that no recorded round holds: nothing re-scored to serve for it."""


@dataclass
class Rederived:
    rounds: list[RoundRecord]
    sample: SampleRecord
    unscored: list[int] = field(default_factory=list)  # rounds whose testbench no recorded round holds


def agent_config(config: RunConfig) -> AgentConfig:
    """The loop's settings a run's config names (ValueError for a mode, agent or protocol it cannot run)."""
    return AgentConfig(mode=config.mode, agent=config.agent if config.mode == "agentic" else "memoryless",
                       max_rounds=config.max_rounds or None, seed=config.seed, protocol=config.protocol,
                       tb_lang=config.tb_lang)


def builtin_model(config: RunConfig):
    """The run's model when the build can re-make its answers (a model marked ``reproducible``), else None."""
    if not (config.model or "").startswith("builtin/"):
        return None
    try:
        model = get_model(config.model)
    except ModelError:
        return None
    return model if getattr(model, "reproducible", False) else None


def rederive(task: Task, sample: int, recorded: list[RoundRecord], config: AgentConfig, results: Results,
             model=None) -> Rederived:
    """The sample as the loop makes it from ``recorded``'s answers (or ``model``'s) and ``results``."""
    unscored: list[int] = []

    def score(design, testbench: str, seed: int) -> ScoreResult:
        res = results(testbench)
        if res is None:
            unscored.append(len(rounds_so_far))
            raise Unscored("the answer gives a testbench that no recorded round holds")
        return res

    rounds_so_far: list[RoundRecord] = []
    answers = model or ReplayModel(rounds=recorded)
    rounds, rec = run_sample(task, sample, answers, score, config, on_round=rounds_so_far.append)
    return Rederived(rounds, rec, unscored)


__all__ = ["Rederived", "agent_config", "builtin_model", "rederive"]
