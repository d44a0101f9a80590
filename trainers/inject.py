"""Expert-rule prompt injection, as the released pipeline does it (``src/llm4cov/syn_data_gen/prompt_inject.py``):
during synthesis a block of SystemVerilog rules may be appended to the task instructions
(``SYN_PROMPT_INJECTION``, False in the released scripts), and the block is always removed from the
rows' prompts (``scripts/synthetic_data_parse.py`` ``_strip_prompt_injection_messages``), so the student
learns to write correct code without being told the rules. The paper (Section 4.2, Appendix A) injects
them into the teacher's prompt when building the stage-0 data. The wording below is ECov's own; the
items follow the paper's 12 rules one to one, in its order.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ecov.harness.tasks import Task

EXPERT_RULES = """<generation_rules>
Rules for the testbench (from experienced verification engineers):
1. Never put an expression inside a based literal (not 8'd(i+1)); assign the expression and let the target size it.
2. Use only digits valid in a literal's base (hex: 0-9 and A-F).
3. Size every based literal so its digits fit (16'hBEEF, not 4'hBEEF), and declare every signal the
   testbench drives (clocks, resets, DUT inputs) as `logic`, never `wire`.
4. Close each `task` with `endtask` (and each `function` with `endfunction`), never with `end`.
5. Do not use $monitor unless asked; print with $display from procedural code.
6. Parenthesize arithmetic delays: #(N * PERIOD), not #N * PERIOD.
7. A signal connected to a DUT output or inout is read-only: never assign it in the testbench.
8. Do not bit-select $random or $urandom directly; store or mask the value first.
9. Declare module ports in the module header (ANSI style).
10. Declare variables at the top of a procedural block, never inside loops, branches or after statements.
11. Use indexed part-selects (base +: width, base -: width) when an index is a variable, never [msb:lsb].
12. Repeat the design's `timescale at the top of the testbench when it has one.
</generation_rules>"""


def inject_rules(task: Task) -> Task:
    """The task with the rules appended to its instructions, as theirs does (``instructions += "\n" + rules``)
    and as ``ecov-eval --instructions-suffix`` does."""
    return replace(task, instructions=task.instructions + "\n" + EXPERT_RULES)


_RULES_BLOCK = re.compile(r"\s*" + re.escape(EXPERT_RULES))


def strip_rules(messages: list[dict[str, str]]) -> tuple[list[dict[str, str]], int]:
    """Messages with every copy of the rules block removed, and how many messages had one.

    The block goes with the whitespace before it: the rules end the instructions, which every prompt
    layout strips, so instructions that ended in a newline ("...\n" + "\n" + rules) leave no blank line
    behind and the prompt is the evaluation's, byte for byte."""
    out, n = [], 0
    for m in messages:
        content = m.get("content")
        if isinstance(content, str) and EXPERT_RULES in content:
            n += 1
            content = _RULES_BLOCK.sub("", content)
        out.append({**m, "content": content})
    return out, n
