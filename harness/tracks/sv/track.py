"""The SystemVerilog track, registered as ``sv``: the default testbench language."""

from __future__ import annotations

from ecov.harness.core.protocol import Protocol
from ecov.harness.parse import CUT_OFF, ParseResult, parse_llm4cov, parse_response
from ecov.harness.registry import register
from ecov.harness.sim.verilator import readable
from ecov.harness.tracks.base import KIND, Track, TrackIO
from ecov.harness.tracks.sv import bughunt_prompts, golden_capture, prompts
from ecov.harness.tracks.sv.bughunt import BughuntEngine
from ecov.harness.tracks.sv.random_tb import BASE_CYCLES, generate
from ecov.harness.tracks.sv.scorer import TB_FILE, Engine


def _parse_llm4cov(text, finish_reason, current, task, design_modules):
    return parse_llm4cov(text, finish_reason)


def _parse_ecov(text, finish_reason, current, task, design_modules):
    """ECov's rule; an answer that gave nothing usable and stopped at the length limit is told so plainly
    (the server said so: finish_reason 'length'), not left to guess from an unclosed block."""
    parsed = parse_response(text, current=current, dut_module=task.dut_module, design_modules=design_modules)
    if not parsed.ok and finish_reason == "length":
        return ParseResult(None, CUT_OFF)
    return parsed


# The answer parser of each prompt layout (Protocol.prompt), paired with prompts.LAYOUT_MESSAGES.
LAYOUT_PARSERS = {"llm4cov": _parse_llm4cov, "ecov": _parse_ecov}


def _llm4cov_feedback(text, task):
    """Verilator's messages name the testbench as the llm4cov prompts show it (``tb_<dut>.sv``, the name a
    kept state's answer carries), not ``testbench.sv``, and carry its real version in their manual URL."""
    return readable(text, prompts.tb_answer_name(task), TB_FILE)


def _ecov_feedback(text, task):
    """As ``_llm4cov_feedback``, with the name the ecov prompts give the current testbench (``tb.sv``)."""
    return readable(text, prompts.TB_FILENAME, TB_FILE)


LAYOUT_FEEDBACK = {"llm4cov": _llm4cov_feedback, "ecov": _ecov_feedback}


def io(proto: Protocol) -> TrackIO:
    if proto.prompt == "bughunt":  # issue 31: spec and ports, not the RTL; answers parse as the ecov layout's
        return TrackIO(bughunt_prompts.messages, _parse_ecov, bughunt_prompts.followup, False,
                       bughunt_prompts.history_turns, _ecov_feedback)
    try:
        messages, parse = prompts.LAYOUT_MESSAGES[proto.prompt], LAYOUT_PARSERS[proto.prompt]
    except KeyError:
        raise ValueError(f"the SystemVerilog track has no prompts for layout {proto.prompt!r}") from None
    return TrackIO(messages, parse, prompts.ecov_followup, proto.prompt == "llm4cov",
                   prompts.history_turns, LAYOUT_FEEDBACK[proto.prompt])


def random_answer(req, cycles: int | None) -> str:
    return generate(req, base_cycles=cycles or BASE_CYCLES)


def golden_capture_answer(req, cycles: int | None) -> str:
    return golden_capture.generate(req, base_cycles=cycles or BASE_CYCLES)


SV = register(KIND, "sv", Track(
    name="sv", tb_suffix=".sv", run_tag="", description="SystemVerilog",
    build_messages=prompts.ecov_messages, followup_message=prompts.ecov_followup, io=io,
    make_scorer=Engine, random_answer=random_answer, llm4cov_answers=True, names_instance=True, binds_contracts=True,
    make_bughunt_scorer=BughuntEngine, golden_capture=golden_capture_answer,
))
