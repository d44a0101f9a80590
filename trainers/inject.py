"""Expert-rule prompt injection, as the released pipeline does it (``src/llm4cov/syn_data_gen/prompt_inject.py``):
during synthesis a block of SystemVerilog rules may be appended to the task instructions
(``SYN_PROMPT_INJECTION``, False in the released scripts), and the block is always removed from the
rows' prompts (``scripts/synthetic_data_parse.py`` ``_strip_prompt_injection_messages``), so the student
learns to write correct code without being told the rules. The wording below is ECov's own.
"""

from __future__ import annotations

from dataclasses import replace

from ecov.harness.tasks import Task

EXPERT_RULES = """<generation_rules>
Rules for the testbench (from experienced verification engineers):
1. Size every based literal so its digits fit (16'hBEEF, not 4'hBEEF) and use only digits valid in its base.
2. Never put an expression inside a based literal; assign the expression and let the target size it.
3. Drive every clock, reset and DUT input from `logic` variables; never assign a signal a DUT output drives.
4. Close each `task` with `endtask` and each `function` with `endfunction`.
5. Prefer $display in procedural code to $monitor.
6. Parenthesize arithmetic delays: #(N * PERIOD).
7. Do not bit-select $random or $urandom directly; store the value first.
8. Declare variables at the top of a procedural block, not inside loops or branches.
9. Use indexed part-selects (base +: width) when the index is a variable.
10. Repeat the design's `timescale at the top of the testbench when it has one.
</generation_rules>"""


def inject_rules(task: Task) -> Task:
    """The task with the rules appended to its instructions (their ``inject_prompt_into_tb_generation``)."""
    return replace(task, instructions=task.instructions.rstrip() + "\n\n" + EXPERT_RULES)


def strip_rules(messages: list[dict[str, str]]) -> tuple[list[dict[str, str]], int]:
    """Messages with every copy of the rules block removed, and how many messages had one."""
    out, n = [], 0
    for m in messages:
        content = m.get("content")
        if isinstance(content, str) and EXPERT_RULES in content:
            n += 1
            content = content.replace("\n\n" + EXPERT_RULES, "").replace(EXPERT_RULES, "")
        out.append({**m, "content": content})
    return out, n
