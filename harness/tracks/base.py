"""The seam between the agent loop and a testbench language: prompts, parsing and file naming per ``tb_lang``.

``get_track("cocotb")`` gives the Python functions. ``get_track("sv")`` gives the SystemVerilog ones of the
ecov protocol (its prompt and its parser, a consistent pair); the agent loop picks SystemVerilog prompts
and parsers by protocol through ``ecov.harness.loop.agent.tb_io``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ecov.harness.cocotb import check_tb_lang
from ecov.harness.parse import ParseResult
from ecov.harness.tasks import Task


@dataclass(frozen=True)
class Track:
    name: str  # sv | cocotb
    build_messages: Callable[..., list[dict]]
    followup_message: Callable[..., dict]
    parse: Callable[[str, str | None, Task], ParseResult]  # (answer, current testbench, task)
    tb_suffix: str  # file suffix of a testbench in run logs


def _sv_parse(text: str, current: str | None, task: Task) -> ParseResult:
    from ecov.harness.parse import module_names, parse_response

    design_modules = {n for f in task.rtl_files for n in module_names(f.content)}
    return parse_response(text, current=current, dut_module=task.dut_module, design_modules=design_modules)


def _py_parse(text: str, current: str | None, task: Task) -> ParseResult:
    from ecov.harness.tracks.cocotb.parse import parse_python_response

    return parse_python_response(text, current)


def get_track(tb_lang: str = "sv") -> Track:
    check_tb_lang(tb_lang)
    if tb_lang == "cocotb":
        from ecov.harness.tracks.cocotb import prompts as p

        return Track("cocotb", p.build_messages, p.followup_message, _py_parse, ".py")
    from ecov.harness.tracks.sv import prompts as p

    return Track("sv", p.ecov_messages, p.ecov_followup, _sv_parse, ".sv")


def make_engine(tb_lang: str, config=None):
    """The scoring engine of a track (the cocotb one refuses the rlimit sandbox)."""
    check_tb_lang(tb_lang)
    if tb_lang == "cocotb":
        from ecov.harness.cocotb.engine import CocotbEngine

        return CocotbEngine(config)
    from ecov.harness.engine import Engine

    return Engine(config)
