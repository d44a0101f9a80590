"""The prompts, defined once: evaluation (ecov.harness.loop.agent) and training (trainers/) build the same text.

Everything here is pure: the same task, testbench and feedback give the same messages, byte for byte,
so a prompt hash identifies a state and training rows match what a model sees at evaluation time.
The model sees the task instructions, the spec files and the RTL files, never ``reference_tbs``.

Two layouts, chosen by the protocol (ecov.harness.core.protocol):

- ``llm4cov`` (default): the layout of the LLM4Cov released code, in ECov's own words. System: the role,
  the answer format (a ``filename: tb_<name>.sv`` line, then one fenced systemverilog block), stimulus
  only, ECov's rules. User: the RTL then the spec as ``// File: NAME`` blocks inside ``<context>``, the
  task's instructions inside ``<instructions>``, then the task sentence. A memoryless agentic state adds
  two turns: the assistant's testbench (as a well-formed answer) and a user turn with the feedback on it
  and the answer format again.
- ``ecov``: one user message with the task, targets, spec, RTL, rules, then the current testbench and
  its feedback, and a response format that also accepts patch hunks.

``build_messages`` picks the layout's builder; another track (ecov.harness.tracks.base) writes its own
prompts and may reuse the ecov layout's pieces here (``step_messages``, ``followup_turn``, ``patch_format``).
"""

from __future__ import annotations

import hashlib
import json

from ecov.harness.core.protocol import DEFAULT_PROTOCOL, Protocol, get_protocol
from ecov.harness.tasks import Task

TB_FILENAME = "tb.sv"

# The rules ECov enforces before anything runs (harness/sim/rules.py, docs/scoring.md), told to the model
# in both layouts: a testbench that breaks one is rejected and scores nothing.
SV_ACCESS_RULES = """- Reach the design only through the ports of the instance you create: no `force`/`release`, no
  `bind`, no assignments into the design hierarchy (`dut.x = ...`), no copies or redefinitions of
  design modules.
- No `` `include`` (the design files are compiled next to your testbench), no `$system`, no DPI
  imports, no file access outside the testbench's own folder.
- No Verilator escapes: no `$c(...)`-style C++ calls and no `verilator` metacomments or pragmas."""
SV_RULES = SV_ACCESS_RULES + """
- Coverage is Verilator 5's (--binary --timing) line, branch, toggle and expression coverage of the
  DUT instance and everything below it; covergroups and assertions do not count. End the simulation
  with `$finish`, well under a million clock cycles."""

# -------------------------------------------------------------------------------- llm4cov layout

LLM4COV_FORMAT = """Answer format:
1. On a plain-text line of its own, name the testbench file:
     filename: tb_<name>.sv
2. Then write the complete testbench in one fenced SystemVerilog block:
```systemverilog
module tb_example;
  ...
endmodule
```"""

LLM4COV_SYSTEM = f"""You are an expert in hardware verification testbenches.

Your task is to write a SystemVerilog testbench that drives the given RTL design to the highest possible
code coverage.

{LLM4COV_FORMAT}
3. Write stimulus only: no checks, comparisons or assertions on the design's outputs. Every line of the
   testbench should help exercise more RTL paths.
4. Work from the RTL and the instructions you are given.
5. The fenced block holds code and nothing else.
6. The file name line stays outside the code block.

Answer in this order: the file name line, then the code block.

Rules (a testbench that breaks one is rejected before it runs):
{SV_RULES}"""

NO_SPEC = "// (this task has no specification file)"


def _file_section(files) -> str:
    return "\n\n".join(f"// File: {f.name}\n{f.content.rstrip()}" for f in files)


def llm4cov_task_sentence(task: Task) -> str:
    return (f"Write a SystemVerilog testbench that reaches the highest coverage of the RTL design above. "
            f"Instantiate module `{task.dut_module}` once, with the instance name `{task.dut_instance}`: "
            "coverage is measured on that instance and everything below it.")


def llm4cov_user(task: Task) -> str:
    """RTL then spec in `// File:` blocks, the task's instructions, then the task sentence."""
    spec = _file_section(task.spec_files) if task.spec_files else NO_SPEC
    return (f"<context>\n{_file_section(task.rtl_files)}\n\n{spec}\n</context>\n"
            f"<instructions>\n{task.instructions.strip()}\n</instructions>\n{llm4cov_task_sentence(task)}")


def tb_answer_name(task: Task) -> str:
    """The file name a replayed answer carries (the model's own choice is not kept: states stay pure)."""
    return f"tb_{task.dut_module}.sv"


def llm4cov_answer(task: Task, testbench: str) -> str:
    """A testbench as a well-formed answer: the assistant turn of a memoryless state."""
    fence = "````" if "```" in testbench else "```"
    return f"filename: {tb_answer_name(task)}\n{fence}systemverilog\n{testbench.rstrip()}\n{fence}"


def llm4cov_followup(feedback: str) -> dict:
    """The user turn after an answer: the feedback on it (ending with the next step), then the format."""
    return {"role": "user", "content": feedback.strip() + "\n\n" + LLM4COV_FORMAT}


def llm4cov_messages(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict]:
    """Round 0: system + user. A memoryless state (x_t, o_t): + the answer x_t + the feedback o_t."""
    messages = [{"role": "system", "content": LLM4COV_SYSTEM}, {"role": "user", "content": llm4cov_user(task)}]
    if testbench is not None:
        messages += [{"role": "assistant", "content": llm4cov_answer(task, testbench)},
                     llm4cov_followup(feedback or "")]
    return messages


# -------------------------------------------------------------------------------- ecov layout

SYSTEM_PROMPT = (
    "You are an expert hardware verification engineer. You write SystemVerilog testbenches that drive "
    "the design under test through its ports, compile and run under Verilator 5 (--binary --timing), and "
    "reach high code coverage (line, branch, toggle and expression). The score is coverage only: spend "
    "the testbench on stimulus; output checks are not scored, and one that stops the simulation with an "
    "error fails the run. You answer with code in the exact format the user asks for."
)

FULL_FORMAT = f"""## Response format
Write the file name on its own line, then the complete testbench in one fenced code block:

{TB_FILENAME}
```systemverilog
module tb;
  // ...
endmodule
```"""

def patch_format(filename: str, lang: str) -> str:
    """The full-file-or-patch answer format (ecov protocol), shared by every testbench language."""
    return f"""## Response format
Either rewrite the whole file: the file name on its own line, then the complete testbench in one
```{lang} fenced block; or change the current testbench with patch hunks in one ```diff block:

{filename}
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


PATCH_FORMAT = patch_format(TB_FILENAME, "systemverilog")

RULES = f"""## Rules
- One top-level testbench module with no ports that instantiates the DUT; drive its clocks and resets,
  apply stimulus that exercises every branch, condition and bit of the design, and end the simulation
  with $finish.
{SV_RULES}"""


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


def design_sections(task: Task) -> list[str]:
    """The specification and RTL sections of a task text, the same for every track."""
    parts = []
    if task.spec_files:
        parts.append("## Specification\n\n" + "\n\n".join(
            _file_block(f.name, f.content, _lang_for(f.name)) for f in task.spec_files))
    parts.append("## Design files (RTL)\n\n" + "\n\n".join(
        _file_block(f.name, f.content, _lang_for(f.name) or "systemverilog") for f in task.rtl_files))
    return parts


def task_text(task: Task, interface_rules: bool = True) -> str:
    """The task part every ecov prompt starts with: instructions, DUT, targets, spec, RTL, rules.
    ``interface_rules``: the track binds contracts, so a task with one is told its rules are checked."""
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
    parts.extend(design_sections(task))
    parts.append(RULES)
    if interface_rules and task.contract is not None:  # issue 22: said, never the monitor's code
        parts.append(INTERFACE_RULES)
    return "\n\n".join(parts)


INTERFACE_RULES = (
    "## Interface rules\n"
    "Stimulus must obey the input rules the specification states for this design (value ranges, inputs held "
    "stable while an operation runs, handshakes and ordering, well-formed data). The harness checks them on the "
    "DUT's ports while the testbench runs: coverage reached after the first broken rule does not count toward "
    "the legal figures, and the feedback names the rule that was broken."
)


NEXT_VERSION = ("Write the next version of the testbench: fix any error reported above and add stimulus that "
                "reaches the uncovered code.")


def state_text(testbench: str, feedback: str, filename: str = TB_FILENAME, lang: str = "systemverilog",
               next_step: str = NEXT_VERSION) -> str:
    """The ecov agentic state: the current testbench x_t and the feedback o_t on it."""
    return (
        "## Current testbench\n\n" + _file_block(filename, testbench, lang) + "\n\n"
        "## Feedback on the current testbench\n\n" + feedback.strip() + "\n\n" + next_step
    )


def step_messages(system: str, task_part: str, testbench: str | None, feedback: str | None, full_format: str,
                  patch_fmt: str, filename: str = TB_FILENAME, lang: str = "systemverilog",
                  next_step: str = NEXT_VERSION) -> list[dict]:
    """An ecov-style chat for one step, for any testbench language: round 0 (no testbench) or a memoryless
    agentic round (x_t and o_t). ``feedback`` without ``testbench``: earlier answers gave no usable one."""
    user = task_part
    if testbench is None:
        if feedback:  # an earlier answer gave no usable testbench
            user += "\n\n## Feedback on your previous answer\n\n" + feedback.strip()
        user += "\n\n" + full_format
    else:
        user += "\n\n" + state_text(testbench, feedback or "", filename, lang, next_step) + "\n\n" + patch_fmt
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def followup_turn(feedback: str, testbench: str | None, patch_fmt: str, filename: str = TB_FILENAME,
                  lang: str = "systemverilog", next_step: str = NEXT_VERSION) -> dict:
    """The user turn appended in ``--agent history`` (ecov style) after the model's answer.

    ``testbench`` is given when the current testbench is not simply the model's last answer (the answer
    was a patch or could not be used), so the conversation always shows the file the hunks apply to.
    """
    parts = []
    if testbench is not None:
        parts.append("## Current testbench\n\n" + _file_block(filename, testbench, lang))
    parts.append("## Feedback on the current testbench\n\n" + feedback.strip())
    parts.append(next_step + "\n\n" + patch_fmt)
    return {"role": "user", "content": "\n\n".join(parts)}


def ecov_messages(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict]:
    """The ecov chat for one step of the SystemVerilog track."""
    return step_messages(SYSTEM_PROMPT, task_text(task), testbench, feedback, FULL_FORMAT, PATCH_FORMAT)


def ecov_followup(feedback: str, testbench: str | None = None) -> dict:
    """The ecov history turn of the SystemVerilog track."""
    return followup_turn(feedback, testbench, PATCH_FORMAT)



# -------------------------------------------------------------------------------- dispatch

# The SystemVerilog track's chat builder for each prompt layout (Protocol.prompt).
LAYOUT_MESSAGES = {"llm4cov": llm4cov_messages, "ecov": ecov_messages}


def build_messages(task: Task, testbench: str | None = None, feedback: str | None = None,
                   protocol: str | Protocol | None = DEFAULT_PROTOCOL) -> list[dict]:
    """The chat for one step of ``protocol``: round 0 (no testbench) or the state (x_t, o_t)."""
    layout = get_protocol(protocol).prompt
    try:
        builder = LAYOUT_MESSAGES[layout]
    except KeyError:
        raise ValueError(f"the SystemVerilog track has no prompts for layout {layout!r}") from None
    return builder(task, testbench, feedback)


def history_turns(task: Task, protocol: str | Protocol | None, answer_tb: str, feedback: str,
                  shown_tb: str | None) -> list[dict]:
    """``--agent history``: the turns appended after an answer (the answer itself, then the feedback).

    ``shown_tb`` (ecov) is the current testbench when it is not simply the answer (a patch, unusable).
    """
    proto = get_protocol(protocol)
    if proto.prompt == "llm4cov":
        return [{"role": "assistant", "content": llm4cov_answer(task, answer_tb)}, llm4cov_followup(feedback)]
    return [ecov_followup(feedback, shown_tb)]


def prompt_hash(messages: list[dict]) -> str:
    """A stable id of the exact chat sent: sha256 of its canonical JSON."""
    blob = json.dumps(messages, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()
