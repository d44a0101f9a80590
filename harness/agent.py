"""Agent loops: one sample of one task, round by round (direct, agentic memoryless, agentic history).

Each round: build the chat (harness.prompts), ask the model, parse the answer (harness.parse), score the
testbench (the engine), render the feedback o_t, and hand a RoundRecord to ``on_round``. A round whose
answer gives no testbench keeps the previous testbench x_t and its result; its o_t is the parse error.
The loop stops at the first round meeting every target, or after ``max_rounds``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from harness.metrics import sample_from_rounds
from harness.prompts import prompt_hash
from harness.records import INFRA_ERROR, REJECTED, Design, ScoreResult
from harness.results import RoundRecord, SampleRecord
from harness.tasks import Task

MODES = ("direct", "agentic")
AGENTS = ("memoryless", "history")

Scorer = Callable[[Design, str, int], ScoreResult]
FeedbackFn = Callable[[ScoreResult, list], str]


class Interrupted(Exception):
    """The run is stopping (Ctrl-C): the sample is left unfinished, to be redone on resume."""


@dataclass(frozen=True)
class AgentConfig:
    mode: str = "agentic"
    agent: str = "memoryless"
    max_rounds: int = 5
    seed: int = 1  # simulation seed; the model request gets seed + sample

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.mode == "agentic" and self.agent not in AGENTS:
            raise ValueError(f"agent must be one of {', '.join(AGENTS)}, not {self.agent!r}")
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")

    @property
    def rounds(self) -> int:
        return 1 if self.mode == "direct" else self.max_rounds

    @property
    def agent_name(self) -> str:
        return "direct" if self.mode == "direct" else self.agent


def safe_score(scorer: Scorer, design: Design, testbench: str, seed: int) -> ScoreResult:
    """The engine reports its own failures as statuses; anything it still raises becomes infra_error."""
    try:
        return scorer(design, testbench, seed)
    except Exception as e:  # noqa: BLE001 - one bad evaluation must not end the run
        return ScoreResult(status=INFRA_ERROR, instance=design.instance, errors=[f"{type(e).__name__}: {e}"])


def _default_feedback(result: ScoreResult, targets: list) -> str:
    from harness.feedback import render_feedback

    return render_feedback(result, targets)


def unusable_feedback(parse_error: str, last_feedback: str | None) -> str:
    """o_t after an answer with no usable testbench: the parse error, then the feedback still valid."""
    if not last_feedback:
        return parse_error
    return (parse_error + "\n\nThe current testbench is unchanged. The feedback on it was:\n\n"
            + last_feedback)


def run_sample(task: Task, sample: int, model, scorer: Scorer, config: AgentConfig,
               on_round: Callable[[RoundRecord], None] | None = None,
               stop: threading.Event | None = None,
               feedback_fn: FeedbackFn = _default_feedback, tb_lang: str = "sv") -> tuple[list[RoundRecord], SampleRecord]:
    """Run one sample to the end. Model errors (after the model's own retries) end the sample as failed.

    ``tb_lang`` picks the testbench language's prompts and parser (harness.cocotb.track).
    """
    from harness.cocotb.track import get_track
    from harness.models import ModelError, ModelRequest

    track = get_track(tb_lang)
    build_messages, followup_message = track.build_messages, track.followup_message

    design = task.design
    rounds: list[RoundRecord] = []
    x: str | None = None  # current testbench x_t
    last: ScoreResult | None = None  # its result
    score_feedback: str | None = None  # feedback on x_t (what the last scored round said)
    o: str | None = None  # feedback shown in the next prompt
    history: list[dict] = []
    last_kind = ""
    error = ""

    for r in range(config.rounds):
        if stop is not None and stop.is_set():
            raise Interrupted()
        if r == 0 or config.mode == "direct":
            messages = build_messages(task)
        elif config.agent == "memoryless":
            messages = build_messages(task, x, o)
        else:
            messages = history + [followup_message(o or "", None if last_kind == "full" else x)]
        t0 = time.monotonic()
        try:
            c = model.complete(ModelRequest(messages, task, testbench=x, result=last, round=r,
                                            sample=sample, seed=config.seed + sample, tb_lang=track.name))
        except ModelError as e:
            error = f"model error at round {r}: {e}"
            break
        if stop is not None and stop.is_set():
            raise Interrupted()
        parsed = track.parse(c.text, x, task)
        if parsed.ok:
            res = safe_score(scorer, design, parsed.testbench, config.seed)
            x, last = parsed.testbench, res
            score_feedback = feedback_fn(res, task.targets)
            feedback = score_feedback
        else:
            res = last or ScoreResult(status=REJECTED, instance=task.dut_instance, errors=[parsed.error])
            feedback = unusable_feedback(parsed.error, score_feedback)
        passed = parsed.ok and res.meets(task.targets)
        rec = RoundRecord(
            task_id=task.id, sample=sample, round=r, prompt_hash=prompt_hash(messages), response=c.text,
            testbench=parsed.testbench or "", parse_error=parsed.error, feedback=feedback,
            result=res.to_dict(), passed=passed, prompt_tokens=c.prompt_tokens or 0,
            completion_tokens=c.completion_tokens or 0, cost=float(c.cost or 0.0),
            seconds=round(time.monotonic() - t0, 3), messages=messages,
        )
        if stop is not None and stop.is_set():
            raise Interrupted()
        rounds.append(rec)
        if on_round is not None:
            on_round(rec)
        if passed:
            break
        o, last_kind = feedback, parsed.kind
        history = messages + [{"role": "assistant", "content": c.text}]

    return rounds, sample_from_rounds(task.id, sample, rounds, error)
