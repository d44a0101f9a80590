"""The human-readable log of one round (``logs/TASK/sS_rR.md``).

Prompts and answers hold markdown of their own (a spec's ``# headings``, the model's fenced code), so each
is written inside a fence longer than any backtick run it contains: whatever it holds stays literal text
and can never become a heading or close the block (CommonMark fences close only on an equal or longer run).
"""

from __future__ import annotations

import re

_TICKS = re.compile(r"`{3,}")


def fence(text: str, info: str = "text") -> str:
    """``text`` in a fenced block that nothing inside it can end."""
    longest = max((len(m.group(0)) for m in _TICKS.finditer(text)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}{info}\n{text}{'' if text.endswith(chr(10)) else chr(10)}{bar}"


def render_round_log(rec, res) -> str:
    """The log text of ``rec`` (a RoundRecord) scored as ``res`` (its ScoreResult)."""
    parts = [f"# {rec.task_id} · sample {rec.sample} · round {rec.round + 1}",
             f"status: {res.status}  overall: {res.overall}  passed: {rec.passed}  prompt: {rec.prompt_hash[:16]}"
             + (f"  re-asks: {rec.reasks}" if rec.reasks else "")]

    def section(title: str, text: str) -> None:
        parts.append(f"## {title}\n\n{fence(text or '')}")

    for i, m in enumerate(rec.messages or []):
        section(f"message {i + 1}: {m['role']}", m["content"])
    for k, (text, why) in enumerate(zip(rec.rejected_responses, rec.reask_reasons, strict=False)):
        section(f"unusable answer {k + 1} (asked again: {why})", text)
    section("response", rec.response)
    if rec.parse_error:
        section("parse error", rec.parse_error)
    section("feedback", rec.feedback)
    if res.log_tail:
        section("simulator log (tail)", res.log_tail)
    return "\n\n".join(parts) + "\n"
