"""The cocotb track, registered as ``cocotb``: Python testbenches of ``@cocotb.test()`` coroutines.

Its prompts serve every protocol layout (the llm4cov layout's SystemVerilog answer format does not apply
to Python); the protocol still sets memory, re-asks, rounds and stops, and an answer cut off at the
length limit is unusable under a protocol that re-asks.
"""

from __future__ import annotations

from ecov.harness.core.protocol import Protocol
from ecov.harness.parse import CUT_OFF, ParseResult
from ecov.harness.registry import register
from ecov.harness.tracks.base import KIND, Track, TrackIO
from ecov.harness.tracks.cocotb import prompts
from ecov.harness.tracks.cocotb.parse import parse_python_response
from ecov.harness.tracks.cocotb.random_tb import BASE_CYCLES, generate_cocotb
from ecov.harness.tracks.cocotb.scorer import CocotbEngine

# Issue 31: a cocotb testbench is Python inside the simulator's process, where it can read the process's
# memory (the mutant selector among it); until it talks to the simulator from another process, no bug hunt:
# neither prompts (io) nor a scorer (Track.no_bughunt).
NO_BUGHUNT = ("bug hunt is SystemVerilog-only: a cocotb testbench's Python runs inside the simulator's process "
              "and could read the mutant selector from its memory; until a port-only bridge exists, use "
              "--tb-lang sv (docs/scoring.md, \"Bug hunt\")")


def io(proto: Protocol) -> TrackIO:
    if proto.bughunt:
        raise ValueError(NO_BUGHUNT)
    full_only = proto.revisions == "full"

    def parse(text, finish_reason, current, task, design_modules):
        if finish_reason == "length" and proto.format_reasks:
            return ParseResult(None, CUT_OFF)
        return parse_python_response(text, None if full_only else current)  # no current file: no patches

    if full_only:  # llm4cov: whole files only, as the docs say; no patch example in any prompt
        return TrackIO(prompts.build_full_messages, parse, prompts.followup_full_message, False)
    return TrackIO(prompts.build_messages, parse, prompts.followup_message, False)


def random_answer(req, cycles: int | None) -> str:
    return generate_cocotb(req, base_cycles=cycles or BASE_CYCLES)


COCOTB = register(KIND, "cocotb", Track(
    name="cocotb", tb_suffix=".py", run_tag="-cocotb", description="Python with cocotb (@cocotb.test() functions whose dut is the design top)",
    build_messages=prompts.build_messages, followup_message=prompts.followup_message, io=io,
    make_scorer=CocotbEngine, random_answer=random_answer, table_suffix=" · cocotb",
    no_bughunt=NO_BUGHUNT,
))
