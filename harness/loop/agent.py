"""Agent loops: one sample of one task, round by round (direct, agentic memoryless, agentic history).

Each round: build the chat and parse the answer (the track's, ecov.harness.tracks.base), ask the model, score the
testbench (the engine), render the feedback o_t (ecov.harness.loop.feedback), and hand a RoundRecord to
``on_round``. The protocol (ecov.harness.core.protocol) decides the rest:

- memory: the memoryless prompt shows the best state so far (llm4cov: replaced only when a new state
  ranks at least as high: ran, has coverage, met targets, overall) or the latest one (ecov);
- unusable answers (no file name, no code block, cut off at the length limit): asked again with the same
  chat up to ``format_reasks`` times without spending a round (llm4cov; if still unusable the sample
  ends, as the released code's query raises), or the round is spent and its feedback is the parse error
  (ecov);
- early stop: overall coverage reaches 100% (llm4cov) or every target is met (ecov).

``run_sample`` is the entry point for evaluation (ecov.harness.evaluation.runner) and for trainers' rollouts: give it a
task, a model (``complete(ModelRequest) -> Completion``) and a scorer ``(design, testbench, seed) ->
ScoreResult``.

The track (``AgentConfig.tb_lang``, or ``run_sample(tb_lang=...)``) brings prompts and parser for the
protocol's layout (``get_track(name).io(protocol)``, ecov.harness.tracks.base); the protocol still sets
memory, re-asks, rounds and stops.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ecov.harness import registry
from ecov.harness.core.limits import KEPT_ANSWER_CHARS, MAX_ANSWER_CHARS, oversized_error
from ecov.harness.core.protocol import DEFAULT_PROTOCOL, Protocol, bughunt_passed, get_protocol
from ecov.harness.core.records import INFRA_ERROR, REJECTED, Design, ScoreResult
from ecov.harness.core.run_folder import RoundRecord, SampleRecord
from ecov.harness.core.state import StateTracker, sample_from_rounds, state_key
from ecov.harness.loop.feedback import KIND as FEEDBACK
from ecov.harness.models import ModelError, ModelRequest
from ecov.harness.parse import ParseResult, module_names
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import DEFAULT_TRACK, get_track, tb_io
from ecov.harness.tracks.sv.prompts import prompt_hash

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
    max_rounds: int | None = None  # agentic rounds per sample; None: the protocol's (llm4cov 4, ecov 5)
    seed: int = 1  # simulation seed; the model request gets seed + sample
    protocol: str = DEFAULT_PROTOCOL
    tb_lang: str = DEFAULT_TRACK  # the track (testbench language): its prompts, parser and random renderer

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.mode == "agentic" and self.agent not in AGENTS:
            raise ValueError(f"agent must be one of {', '.join(AGENTS)}, not {self.agent!r}")
        if self.max_rounds is not None and self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        get_protocol(self.protocol)

    @property
    def proto(self) -> Protocol:
        return get_protocol(self.protocol)

    @property
    def rounds(self) -> int:
        return 1 if self.mode == "direct" else (self.max_rounds or self.proto.rounds)

    @property
    def agent_name(self) -> str:
        return "direct" if self.mode == "direct" else self.agent


@dataclass
class _State:
    """A testbench, its result and the feedback on it: what a memoryless prompt shows."""

    testbench: str
    result: ScoreResult
    feedback: str
    round: int
    key: tuple


def safe_score(scorer: Scorer, design: Design | Task, testbench: str, seed: int) -> ScoreResult:
    """The engine reports its own failures as statuses; anything it still raises becomes infra_error.
    ``design`` is a Task for a bug-hunt scorer (ecov.harness.loop.bughunt_round)."""
    try:
        return scorer(design, testbench, seed)
    except Exception as e:  # noqa: BLE001 - one bad evaluation must not end the run
        instance = design.dut_instance if isinstance(design, Task) else design.instance
        return ScoreResult(status=INFRA_ERROR, instance=instance, errors=[f"{type(e).__name__}: {e}"])


def unusable_feedback(parse_error: str, last_feedback: str | None) -> str:
    """o_t after an answer with no usable testbench (ecov): the parse error, then the feedback still valid."""
    if not last_feedback:
        return parse_error
    return (parse_error + "\n\nThe current testbench is unchanged. The feedback on it was:\n\n"
            + last_feedback)


def visible_result(result: ScoreResult | None, proto: Protocol) -> ScoreResult | None:
    """The raw o_t builtin models read: under a protocol whose feedback shows no uncovered code, none; under
    the bug hunt neither the RTL's uncovered lines nor which mutant survived (its feedback shows counts)."""
    if result is None or (proto.feedback != "eda_summary" and not proto.bughunt):
        return result
    if proto.bughunt:
        counts = {k: v for k, v in result.bughunt.items() if k in ("status", "killed", "total", "kill_rate")}
        return replace(result, uncovered=[], uncovered_total=0, bughunt=counts)
    return replace(result, uncovered=[], uncovered_total=0)


def oversized(text: str) -> ParseResult:
    """An answer over ``MAX_ANSWER_CHARS``: unusable (a format failure), never parsed."""
    return ParseResult(None, error=oversized_error(len(text)))


def run_sample(task: Task, sample: int, model, scorer: Scorer, config: AgentConfig,
               on_round: Callable[[RoundRecord], None] | None = None,
               stop: threading.Event | None = None,
               feedback_fn: FeedbackFn | None = None,
               tb_lang: str | None = None) -> tuple[list[RoundRecord], SampleRecord]:
    """Run one sample to the end. Model errors (after the model's own retries) end the sample as failed.

    ``tb_lang`` (default ``config.tb_lang``) picks the testbench language's prompts and parser.
    """
    proto = config.proto
    lang = tb_lang or config.tb_lang
    io = tb_io(proto, lang)
    feedback_fn = feedback_fn or registry.get(FEEDBACK, proto.feedback)
    design = task.design
    design_modules = {n for f in task.rtl_files for n in module_names(f.content)}
    rounds: list[RoundRecord] = []
    # The protocol's memory (best or latest state: what a memoryless prompt shows and what an unusable
    # round carries) and the latest scored testbench (what ecov patches apply to).
    states: StateTracker[_State] = StateTracker(proto)
    o: str | None = None  # ecov: the feedback shown next (the parse error after an unusable answer)
    history: list[dict] = []
    last_kind = ""
    error = ""
    stop_reason = "rounds"

    def check_stop() -> None:
        if stop is not None and stop.is_set():
            raise Interrupted()

    for r in range(config.rounds):
        check_stop()
        memory, latest = states.memory, states.latest
        shown = memory
        if r == 0 or config.mode == "direct":
            messages, state_round = io.messages(task, None, None), None
        elif config.agent == "history":
            messages, state_round = list(history), r - 1
            if not io.llm4cov_history:
                messages.append(io.followup(o or "", None if last_kind == "full" else
                                            (latest.testbench if latest else None)))
        elif proto.memory == "best":
            messages, state_round = io.messages(task, memory.testbench, memory.feedback), memory.round
        else:
            messages = io.messages(task, latest.testbench if latest else None, o)
            state_round = latest.round if latest else None
        t0 = time.monotonic()
        reasons: list[str] = []
        rejected: list[str] = []
        rejected_finish: list[str] = []
        tokens = [0, 0, 0.0]
        retries = 0
        seeds: list[int | None] = []
        try:
            while True:
                c = model.complete(ModelRequest(
                    messages, task, testbench=shown.testbench if shown else None,
                    result=visible_result(shown.result if shown else None, proto), round=r, sample=sample,
                    seed=config.seed + sample, attempt=len(rejected), tb_lang=lang, protocol=proto.name))
                tokens = [tokens[0] + (c.prompt_tokens or 0), tokens[1] + (c.completion_tokens or 0),
                          tokens[2] + float(c.cost or 0.0)]
                retries += int(getattr(c, "retries", 0) or 0)
                seeds.append(getattr(c, "seed", None))
                check_stop()
                if len(c.text) > MAX_ANSWER_CHARS:
                    parsed = oversized(c.text)
                    c = replace(c, text=c.text[:KEPT_ANSWER_CHARS])
                else:
                    parsed = io.parse(c.text, c.finish_reason, latest.testbench if latest else None, task,
                                      design_modules)
                if parsed.ok or len(rejected) >= proto.format_reasks:
                    break
                reasons.append(parsed.error)
                rejected.append(c.text)
                rejected_finish.append(c.finish_reason)
        except ModelError as e:
            error = f"model error at round {r + 1}: {e}"
            stop_reason = "model_error"
            break
        new_best = False
        if parsed.ok:
            # The bug hunt scores against the task's mutants: its scorer takes the task (loop.bughunt_round).
            res = safe_score(scorer, task if proto.bughunt else design, parsed.testbench, config.seed)
            if res.status == INFRA_ERROR:  # the harness failed, not the model: no result, redone on resume
                error = f"infra error at round {r + 1}: " + "; ".join(res.errors)[:500]
                stop_reason = "infra_error"
                break
            feedback = feedback_fn(res, task.targets)
            if io.feedback_text is not None:
                feedback = io.feedback_text(feedback, task)
            state = _State(parsed.testbench, res, feedback, r, state_key(res, task.targets))
            new_best = states.add(state.key, state)
            o = feedback
        else:
            res = (memory.result if memory else None) \
                or ScoreResult(status=REJECTED, instance=task.dut_instance, errors=[parsed.error])
            feedback = (parsed.error if proto.format_reasks else
                        unusable_feedback(parsed.error, latest.feedback if latest else None))
            o = feedback
        passed = parsed.ok and res.meets(task.targets)
        # A contract task's round fails legally when it did not run (no legal figures); None: no contract,
        # or a track that does not bind contracts (its runs report no legal figures rather than 0%).
        legal = (bool(res.meets_legal(task.targets)) if task.contract is not None and get_track(lang).binds_contracts
                 else None)
        rec = RoundRecord(
            task_id=task.id, sample=sample, round=r, prompt_hash=prompt_hash(messages), response=c.text,
            testbench=parsed.testbench or "", parse_error=parsed.error, feedback=feedback,
            result=res.to_dict(), passed=passed, prompt_tokens=tokens[0], completion_tokens=tokens[1],
            cost=round(tokens[2], 10), seconds=round(time.monotonic() - t0, 3), messages=messages,
            finish_reason=c.finish_reason, reasks=len(rejected), reask_reasons=reasons,
            rejected_responses=rejected, rejected_finish=rejected_finish, state_round=state_round,
            new_best=new_best, legal_passed=None if legal is None else bool(parsed.ok and legal),
            retries=retries, api_seeds=seeds,
            # The bug hunt's pass describes the round's state: an unusable round carries the latest testbench's.
            bughunt_passed=bughunt_passed(res, task.bughunt_target) if proto.bughunt else None,
        )
        check_stop()
        rounds.append(rec)
        if on_round is not None:
            on_round(rec)
        if not parsed.ok and proto.format_reasks:
            stop_reason = "format"  # still unusable after the re-asks: the released code's query raises
            break
        if parsed.ok and proto.stop_after(res, task.targets):
            stop_reason = proto.early_stop
            break
        if config.agent == "history" and config.mode == "agentic":
            if not io.llm4cov_history:
                history = messages + [{"role": "assistant", "content": c.text}]
            else:
                history = messages + io.history_turns(task, proto, parsed.testbench or "", feedback, None)
        last_kind = parsed.kind

    return rounds, sample_from_rounds(task.id, sample, rounds, error, protocol=proto, stop_reason=stop_reason)
