"""The SystemVerilog track, registered as ``sv``: the default testbench language."""

from __future__ import annotations

from ecov.harness.core.protocol import Protocol
from ecov.harness.parse import parse_llm4cov, parse_response
from ecov.harness.registry import register
from ecov.harness.tracks.base import KIND, Track, TrackIO
from ecov.harness.tracks.sv import prompts
from ecov.harness.tracks.sv.random_tb import BASE_CYCLES, generate
from ecov.harness.tracks.sv.scorer import Engine


def _parse_llm4cov(text, finish_reason, current, task, design_modules):
    return parse_llm4cov(text, finish_reason)


def _parse_ecov(text, finish_reason, current, task, design_modules):
    return parse_response(text, current=current, dut_module=task.dut_module, design_modules=design_modules)


# The answer parser of each prompt layout (Protocol.prompt), paired with prompts.LAYOUT_MESSAGES.
LAYOUT_PARSERS = {"llm4cov": _parse_llm4cov, "ecov": _parse_ecov}


def io(proto: Protocol) -> TrackIO:
    try:
        messages, parse = prompts.LAYOUT_MESSAGES[proto.prompt], LAYOUT_PARSERS[proto.prompt]
    except KeyError:
        raise ValueError(f"the SystemVerilog track has no prompts for layout {proto.prompt!r}") from None
    return TrackIO(messages, parse, prompts.ecov_followup, proto.prompt == "llm4cov",
                   prompts.history_turns)


def random_answer(req, cycles: int | None) -> str:
    return generate(req, base_cycles=cycles or BASE_CYCLES)


SV = register(KIND, "sv", Track(
    name="sv", tb_suffix=".sv", run_tag="", description="SystemVerilog",
    build_messages=prompts.ecov_messages, followup_message=prompts.ecov_followup, io=io,
    make_scorer=Engine, random_answer=random_answer, llm4cov_answers=True, names_instance=True, binds_contracts=True,
))
