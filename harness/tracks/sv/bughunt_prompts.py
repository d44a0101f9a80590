"""The bughunt protocol's prompts for the SystemVerilog track (issue 31): spec and ports, never the RTL.

The model gets the task's specification (its spec files; a task whose spec lives in its instructions, as
CVDP's prompts do, gets those) and the DUT's interface (the module header at its default parameters, read
from the RTL by ecov.harness.hdl.ports), and is asked for a self-checking testbench: one that fails with
``$error``/``$fatal`` as soon as an output differs from what the spec says. It is scored on the golden design
and on mutants of it; the prompt says how, never which mutants. The agentic state and patch answers are the
ecov layout's (ecov.harness.tracks.sv.prompts), with the bug hunt's next step.

Pure, like every prompt: the same task, testbench and feedback give the same messages, byte for byte.
"""

from __future__ import annotations

from ecov.harness.hdl.ports import ModulePorts, Port, PortParseError, parse_ports
from ecov.harness.tasks import Task
from ecov.harness.tracks.sv.prompts import (
    FULL_FORMAT,
    PATCH_FORMAT,
    SV_ACCESS_RULES,
    _file_block,
    _lang_for,
    followup_turn,
    step_messages,
)

SYSTEM_PROMPT = (
    "You are an expert hardware verification engineer. You write self-checking SystemVerilog testbenches "
    "from a specification alone: the testbench drives the design under test through its ports, predicts "
    "every output from the specification, and stops the simulation with $error or $fatal as soon as an "
    "output differs from the prediction. It compiles and runs under Verilator 5 (--binary --timing). You "
    "answer with code in the exact format the user asks for."
)

SCORING = """## How the testbench is scored (bug hunt)
- It runs on the correct design and on buggy copies of it (mutants), each with one small change of the
  kind a designer makes by mistake: a swapped operator, a constant off by one, a negated condition, a
  stuck assignment, a dropped term of an enable or reset, a swapped case item or next state.
- On the correct design it must run to `$finish` with no check failing. A testbench that fails on the
  correct design (a false alarm) scores 0.
- A mutant is caught when the testbench fails on it (`$error`, `$fatal` or a failing immediate assertion)
  at or after the first moment its outputs differ from the correct design's under the same inputs. The
  score is the share of mutants caught.
- Predict the outputs from the specification: a reference model in the testbench, expected values, or
  checks of the stated behaviour. A testbench that holds a copy of the design is refused.
- Coverage of the correct design is measured and reported too."""

RULES = f"""## Rules
- One top-level testbench module with no ports that instantiates the DUT; drive its clocks and resets,
  apply stimulus, check the outputs, and end the simulation with `$finish`, well under a million clock
  cycles.
{SV_ACCESS_RULES}
- The design's own code is not shown and may not be read: work from the specification and the ports."""

NEXT_STEP = ("Write the next version of the testbench: fix any error reported above. A check that failed on "
             "the correct design is wrong (the correct design follows the specification): fix it. Then add "
             "checks and stimulus that would catch more bugs.")

NO_INTERFACE = "// (the ports could not be read from the design; see the specification)"


def _port_decl(p: Port) -> str:
    if p.type_name:
        base = p.type_name
    else:
        base = "logic" + (" signed" if p.signed else "") + (f" [{p.width - 1}:0]" if p.width > 1 else "")
    dims = "".join(f" [{lo}:{hi}]" for lo, hi in p.unpacked)
    return f"{p.direction:<6} {base} {p.name}{dims}"


def interface_text(mp: ModulePorts) -> str:
    """The DUT's module header: parameters with their defaults, ports with widths at those defaults."""
    head = f"module {mp.module}"
    if mp.parameters:
        head += " #(\n" + ",\n".join(f"  parameter {k} = {v}" for k, v in mp.parameters.items()) + "\n)"
    ports = ",\n".join(f"  {_port_decl(p)}" for p in mp.ports)
    return f"{head} (\n{ports}\n);"


def interface_section(task: Task) -> str:
    try:
        mp = parse_ports(task.rtl_files, task.dut_module)
    except PortParseError:
        text, note = NO_INTERFACE, ""
    else:
        text = interface_text(mp)
        note = ("\n\nPorts of a named type use the type the design's package declares; cast to it."
                if any(p.type_name for p in mp.ports) else "")
    return "## Interface (ports at the default parameter values)\n\n```systemverilog\n" + text + "\n```" + note


def spec_section(task: Task) -> str:
    """The spec files; a task without any (CVDP: the spec is the prompt) shows its instructions."""
    if task.spec_files:
        return "## Specification\n\n" + "\n\n".join(
            _file_block(f.name, f.content, _lang_for(f.name)) for f in task.spec_files)
    return "## Specification\n\n" + (task.instructions.strip() or "(this task has no specification)")


def task_text(task: Task) -> str:
    parts = [
        f"# Task: {task.id}",
        "Write a self-checking SystemVerilog testbench for the design specified below. Its code is not "
        f"shown: work from the specification and the interface. Instantiate the module `{task.dut_module}` "
        f"once with the instance name `{task.dut_instance}` (`{task.dut_module} {task.dut_instance} (...);`).",
        SCORING,
        interface_section(task),
        spec_section(task),
        RULES,
    ]
    return "\n\n".join(parts)


def messages(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict]:
    """Round 0 (no testbench), or the memoryless state (x_t, o_t), as the ecov layout lays them out."""
    return step_messages(SYSTEM_PROMPT, task_text(task), testbench, feedback, FULL_FORMAT, PATCH_FORMAT,
                         next_step=NEXT_STEP)


def followup(feedback: str, testbench: str | None = None) -> dict:
    """The history turn after an answer (``--agent history``)."""
    return followup_turn(feedback, testbench, PATCH_FORMAT, next_step=NEXT_STEP)


def history_turns(task: Task, protocol, answer_tb: str, feedback: str, shown_tb: str | None) -> list[dict]:
    return [followup(feedback, shown_tb)]
