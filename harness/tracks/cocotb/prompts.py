"""Prompts of the cocotb track, built like ecov.harness.tracks.sv.prompts (pure, byte-stable, hashable).

The task record is the SystemVerilog track's: same RTL, spec and targets. Its instructions were written
for a SystemVerilog testbench, so the prompt says up front what changes: a Python file of
``@cocotb.test()`` coroutines, the DUT is the HDL toplevel (cocotb's ``dut``), and a target on the
instance ``u_fifo`` means the toplevel itself (``u_fifo.u_rx`` its sub-instance ``u_rx``).
"""

from __future__ import annotations

from ecov.harness.tasks import Task
from ecov.harness.tracks.cocotb import TB_FILE
from ecov.harness.tracks.sv.prompts import design_sections, followup_turn, patch_format, step_messages

SYSTEM_PROMPT = (
    "You are an expert hardware verification engineer. You write self-checking Python testbenches with "
    "cocotb 2.1 that run on Verilator 5 and reach high code coverage (line, branch, toggle and expression) "
    "of the design under test. You answer with code in the exact format the user asks for."
)

FULL_FORMAT = f"""## Response format
Write the file name on its own line, then the complete testbench in one fenced code block:

{TB_FILE}
```python
import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


@cocotb.test()
async def test_main(dut):
    ...
```"""

PATCH_FORMAT = patch_format(TB_FILE, "python")

RULES = """## Rules (cocotb track)
- One Python file with one or more `@cocotb.test()` async functions taking `dut`, the design's toplevel.
  cocotb 2.1 API: `cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())`, `await RisingEdge(dut.clk)`,
  `await Timer(5, unit="ns")`, `dut.x.value = 3`, `int(dut.y.value)`; the tests end the simulation.
  A write is applied at the next simulation step: reading the same signal before an `await` still
  gives the old value, so keep your own copy of what you drive.
- Drive the design only through its ports: `dut.<input port>.value = ...`. Internal signals are not
  visible; output ports are read-only. Force/Freeze/Release are not allowed.
- Imports allowed: cocotb (and cocotb.triggers, .clock, .types, .handle, .queue, .utils, .task,
  .logging), random, math, itertools, collections, dataclasses, enum, typing, functools, operator,
  statistics, fractions, decimal, heapq, bisect, string, re, struct, binascii, zlib, array, copy, abc,
  textwrap, logging. No file access, processes, eval/exec, getattr with computed names, dunder or private
  attributes (the testbench runs sandboxed and is checked before it runs).
- Coverage is measured on the design's code (line, branch, toggle, expression): exercise every branch,
  condition and bit. Use `assert` to check outputs; a failing assert is reported but the run still counts.
- Keep the simulation short: well under a million clock cycles (Python is slower than SystemVerilog)."""


def target_text(task: Task) -> str:
    top = task.dut_instance
    lines = []
    for t in task.targets:
        where = "the toplevel `dut`" if t.instance == top else f"`dut.{t.instance[len(top) + 1:]}`" \
            if t.instance.startswith(top + ".") else f"`{t.instance}`"
        lines.append(f"- `{t.instance}` ({where}) {t.metric} coverage >= {t.percent:g}%")
    return "\n".join(lines) if lines else "- as high as possible"


def task_text(task: Task) -> str:
    parts = [f"# Task: {task.id}"]
    if task.instructions.strip():
        parts.append("The task's instructions below were written for a SystemVerilog testbench. In this track "
                     "you write a cocotb (Python) testbench instead; where they say otherwise, the cocotb "
                     "rules at the end of this message apply.\n\n" + task.instructions.strip())
    parts.append(
        f"Write a cocotb testbench for the design below. The design's top module `{task.dut_module}` is the "
        f"simulation toplevel: cocotb passes it to each test as `dut` (with default parameter values). "
        f"Coverage targets name it by its instance name `{task.dut_instance}`; coverage is measured on it and "
        "everything below it."
    )
    parts.append("## Coverage targets\n" + target_text(task))
    parts.extend(design_sections(task))
    parts.append(RULES)
    return "\n\n".join(parts)


def build_messages(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict]:
    return step_messages(SYSTEM_PROMPT, task_text(task), testbench, feedback, FULL_FORMAT, PATCH_FORMAT,
                         TB_FILE, "python")


def followup_message(feedback: str, testbench: str | None = None) -> dict:
    return followup_turn(feedback, testbench, PATCH_FORMAT, TB_FILE, "python")


# Protocols whose revisions are whole files only (llm4cov): the next version is asked for in the same
# full-file format as round 0, with no patch hunk example a model could copy.
NEXT_FULL_FORMAT = FULL_FORMAT.replace("Write the file name", "Write the complete next version: the file name", 1)


def build_full_messages(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict]:
    return step_messages(SYSTEM_PROMPT, task_text(task), testbench, feedback, FULL_FORMAT, NEXT_FULL_FORMAT,
                         TB_FILE, "python")


def followup_full_message(feedback: str, testbench: str | None = None) -> dict:
    return followup_turn(feedback, testbench, NEXT_FULL_FORMAT, TB_FILE, "python")
