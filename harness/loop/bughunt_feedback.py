"""o_t of the bughunt protocol (issue 31), registered as feedback renderer ``bughunt``.

What a model may learn from a round: whether the testbench compiled (the compiler's errors on its own
file), whether it passed on the golden design or which check failed there (file and line only), the
golden run's coverage figures and how many mutants it caught. Never the RTL (a compiler error located in
a design file is named, not quoted), a mutant's text or location, the DUT's output values, or anything the
testbench printed: printing outputs in one round and hard-coding them in the next would turn the benchmark
into a replay of its own answers (golden capture).
"""

from __future__ import annotations

import re

from ecov.harness.core.records import COMPILE_ERROR, FALSE_ALARM, REJECTED, ScoreResult, Target
from ecov.harness.loop.bughunt_round import NO_MUTANTS
from ecov.harness.loop.feedback import KIND, STATUS_TEXT, coverage_lines
from ecov.harness.registry import register

TESTBENCH_FILES = ("testbench.sv", "tb.sv")  # how the scorer and the prompts name the testbench
MAX_ERRORS = 8
DESIGN_ERROR = ("an error located in the design's files (their text is not shown in the bug hunt); usually a "
                "port, parameter or type the testbench gives the DUT that its interface does not declare")
_LOCATION = re.compile(r"^%(?:Error|Warning)[-\w]*: ([^:\s]+):\d+")


def testbench_errors(errors: list[str]) -> list[str]:
    """Compiler and rule errors as the model may read them: those located in the testbench whole, those
    located in a design file reduced to one sentence (their context lines would quote the RTL)."""
    out: list[str] = []
    for err in errors[:MAX_ERRORS]:
        m = _LOCATION.match(err.lstrip())
        if m and m.group(1) not in TESTBENCH_FILES:
            if DESIGN_ERROR not in out:
                out.append(DESIGN_ERROR)
            continue
        out.append(err[:800])
    return out


def golden_lines(result: ScoreResult) -> list[str]:
    bh = result.bughunt
    status = bh.get("status", "")
    if status == "ok":
        return ["On the correct design: PASSED (ran to $finish, no check failed)."]
    if status == FALSE_ALARM:
        where = bh.get("failure") or "an unknown place"
        return [f"On the correct design: FAILED at {where}: a false alarm. The design is correct, so that check "
                "(or the value it expects) is wrong. A testbench with a false alarm scores 0: no mutant counts."]
    if result.status in (COMPILE_ERROR, REJECTED):
        lines = [f"Status: the testbench {STATUS_TEXT[result.status]}. Nothing was scored."]
        shown = testbench_errors(result.errors)
        if shown:
            lines.append("Errors:")
            lines += ["  " + e.replace("\n", "\n  ") for e in shown]
        return lines
    text = STATUS_TEXT.get(result.status, result.status)
    return [f"On the correct design: the testbench {text}; it must run to $finish with no check failing. "
            "Nothing was scored" + (f" ({bh['reason']})." if bh.get("reason") else ".")]


def kill_lines(result: ScoreResult) -> list[str]:
    bh = result.bughunt
    total = int(bh.get("total") or 0)
    if bh.get("status") == NO_MUTANTS or (bh.get("status") == "ok" and not total):
        return ["Bugs caught: this design has no killable mutants (only coverage is measured)."]
    if bh.get("status") != "ok":
        return [f"Bugs caught: 0 of {total} mutants (kill rate 0%)."] if total else []
    killed = int(bh.get("killed") or 0)
    return [f"Bugs caught: {killed} of {total} mutants (kill rate {float(bh.get('kill_rate') or 0.0):.2f}%)."]


def render_bughunt_feedback(result: ScoreResult, targets: list[Target] | None = None, max_chars: int = 6000) -> str:
    """o_t of the bughunt protocol (``targets``: the coverage targets are not shown; a common signature)."""
    lines = golden_lines(result) + kill_lines(result)
    lines += [f"Note: {w}" for w in result.warnings]
    if result.coverage:
        lines.append(f"Coverage of the correct design (instance '{result.instance}' and below):")
        lines += coverage_lines(result)
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 40] + "\n  ... (feedback truncated)"


register(KIND, "bughunt", render_bughunt_feedback)
