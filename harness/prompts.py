"""The prompts, defined once: evaluation (harness.agent) and training (trainers/) build the same text.

Everything here is pure: the same task, testbench and feedback give the same messages, byte for byte,
so a prompt hash identifies a state and training rows match what a model sees at evaluation time.
The model sees the task instructions, the spec files and the RTL files, never ``reference_tbs``.
"""

from __future__ import annotations

import hashlib
import json

from harness.tasks import Task

TB_FILENAME = "tb.sv"

SYSTEM_PROMPT = (
    "You are an expert hardware verification engineer. You write self-checking SystemVerilog "
    "testbenches that compile and run under Verilator 5 (--binary --timing) and that reach high code "
    "coverage (line, branch, toggle and expression) of the design under test. You answer with code in "
    "the exact format the user asks for."
)

FULL_FORMAT = f"""## Response format
Write the file name on its own line, then the complete testbench in one fenced code block:

{TB_FILENAME}
```systemverilog
module tb;
  // ...
endmodule
```"""

PATCH_FORMAT = f"""## Response format
Either rewrite the whole file: the file name on its own line, then the complete testbench in one
```systemverilog fenced block; or change the current testbench with patch hunks in one ```diff block:

{TB_FILENAME}
```diff
@@ -12,3 +12,5 @@
 unchanged context line
-removed line
+added line
+added line
 unchanged context line
```

Hunk lines start with a space (context), '-' (removed) or '+' (added). Context and removed lines must
match the current testbench exactly; the line numbers may be approximate."""

RULES = """## Rules
- One top-level testbench module with no ports that instantiates the DUT; drive its clocks and resets,
  apply stimulus, check outputs, and end the simulation with $finish.
- Do not copy, redefine, `include` or `bind` into the design modules, and do not use force/release or
  hierarchical assignments into the design: the design files are compiled next to your testbench.
- Verilator ignores covergroups: coverage is measured on the design's code (line, branch, toggle,
  expression), so exercise every branch, condition and bit of the design.
- Keep the simulation short: well under a million clock cycles."""


def _file_block(name: str, content: str, lang: str = "systemverilog") -> str:
    fence = "````" if "```" in content else "```"
    return f"{name}\n{fence}{lang}\n{content.rstrip()}\n{fence}"


def _lang_for(name: str) -> str:
    lower = name.lower()
    if lower.endswith((".sv", ".svh", ".v", ".vh")):
        return "systemverilog"
    if lower.endswith(".md"):
        return "markdown"
    return ""


def format_targets(task: Task) -> str:
    lines = [f"- `{t.instance}` {t.metric} coverage >= {t.percent:g}%" for t in task.targets]
    return "\n".join(lines) if lines else "- as high as possible"


def task_text(task: Task) -> str:
    """The task part every prompt starts with: instructions, spec, RTL, the DUT to instantiate, targets."""
    parts = [f"# Task: {task.id}"]
    if task.instructions.strip():
        parts.append(task.instructions.strip())
    parts.append(
        "Write a SystemVerilog testbench for the design below. It must instantiate the module "
        f"`{task.dut_module}` with the instance name `{task.dut_instance}` "
        f"(`{task.dut_module} {task.dut_instance} (...);`). Coverage is measured on that instance "
        "and everything below it."
    )
    parts.append("## Coverage targets\n" + format_targets(task))
    if task.spec_files:
        parts.append("## Specification\n\n" + "\n\n".join(
            _file_block(f.name, f.content, _lang_for(f.name)) for f in task.spec_files))
    parts.append("## Design files (RTL)\n\n" + "\n\n".join(
        _file_block(f.name, f.content, _lang_for(f.name) or "systemverilog") for f in task.rtl_files))
    parts.append(RULES)
    return "\n\n".join(parts)


def state_text(testbench: str, feedback: str) -> str:
    """The agentic state: the current testbench x_t and the feedback o_t on it."""
    return (
        "## Current testbench\n\n" + _file_block(TB_FILENAME, testbench) + "\n\n"
        "## Feedback on the current testbench\n\n" + feedback.strip() + "\n\n"
        "Write the next version of the testbench: fix any error reported above and add stimulus that "
        "reaches the uncovered code."
    )


def build_messages(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict]:
    """The chat for one step: round 0 (no testbench) or a memoryless agentic round (x_t and o_t).

    ``feedback`` without ``testbench`` is the case of earlier answers that gave no usable testbench.
    """
    user = task_text(task)
    if testbench is None:
        if feedback:  # an earlier answer gave no usable testbench
            user += "\n\n## Feedback on your previous answer\n\n" + feedback.strip()
        user += "\n\n" + FULL_FORMAT
    else:
        user += "\n\n" + state_text(testbench, feedback or "") + "\n\n" + PATCH_FORMAT
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def followup_message(feedback: str, testbench: str | None = None) -> dict:
    """The user turn appended in ``--agent history`` after the model's answer.

    ``testbench`` is given when the current testbench is not simply the model's last answer (the answer
    was a patch or could not be used), so the conversation always shows the file the hunks apply to.
    """
    parts = []
    if testbench is not None:
        parts.append("## Current testbench\n\n" + _file_block(TB_FILENAME, testbench))
    parts.append("## Feedback on the current testbench\n\n" + feedback.strip())
    parts.append(
        "Write the next version of the testbench: fix any error reported above and add stimulus that "
        "reaches the uncovered code.\n\n" + PATCH_FORMAT
    )
    return {"role": "user", "content": "\n\n".join(parts)}


def prompt_hash(messages: list[dict]) -> str:
    """A stable id of the exact chat sent: sha256 of its canonical JSON."""
    blob = json.dumps(messages, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()
