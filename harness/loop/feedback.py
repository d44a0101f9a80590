"""Simulator feedback o_t for agents, one registered renderer (kind ``feedback``) per protocol.

- ``render_feedback`` (protocol ``ecov``): status, first errors, coverage per metric against the
  targets, and the uncovered code grouped by source line.
- ``render_eda_feedback`` (protocol ``llm4cov``): what the LLM4Cov EDA worker returns to its agent:
  how the answer parsed, then the run's status and stage with either the coverage summary of the DUT
  hierarchy (per instance, per metric) or the error log, then the instruction for the next step.
  No targets and no uncovered lines.

Bounded in size, because it goes into every prompt: text is cut at ``max_chars`` with a note.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ecov.harness.core.records import ALL_METRICS, ScoreResult, Target
from ecov.harness.registry import register

STATUS_TEXT = {
    "ok": "compiled and ran to $finish",
    "rejected": "REJECTED before compiling by the ECov test rules",
    "compile_error": "FAILED to compile",
    "timeout": "TIMED OUT during simulation",
    "crashed": "CRASHED during simulation",
    "no_finish": "ran, but ended without $finish",
    "infra_error": "could not be evaluated (harness error)",
}


def coverage_lines(result: ScoreResult, targets: list[Target] | None = None) -> list[str]:
    """Per instance, in hierarchy order (sorted by path: a parent before its children). The coverage
    table's own order follows the build that counted it (a cached score and a fresh one may differ), and
    feedback is part of the next prompt, so it must not depend on it."""
    lines = []
    for inst, metrics in sorted(result.coverage.items()):
        parts = [f"{m} {metrics[m]['percent']:.2f}% ({metrics[m]['covered']}/{metrics[m]['total']})"
                 for m in ALL_METRICS if m in metrics and m != "overall"]
        if "overall" in metrics:
            parts.append(f"overall {metrics['overall']['percent']:.2f}%")
        lines.append(f"  {inst}: " + ", ".join(parts))
    for t in targets or []:
        got = result.metric_percent(t.instance, t.metric)
        mark = "met" if got >= t.percent and result.ran else "NOT met"
        lines.append(f"  target {t.instance} {t.metric} >= {t.percent:g}%: {got:.2f}% ({mark})")
    return lines


_TOGGLE = re.compile(r"^(?P<sig>.*?)(\[(?P<bit>\d+)\])?:(?P<dir>[01]->[01])$")


def describe_missing(items: list) -> str:
    """One line per source line; toggles are folded per signal (`q[3:0] 0->1,1->0`) to keep o_t short."""
    toggles: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    parts = []
    for u in items:
        m = _TOGGLE.match(u.detail) if u.metric == "toggle" else None
        if m:
            toggles[m.group("sig")][m.group("dir")].add(int(m.group("bit") or -1))
        else:
            parts.append(f"{u.metric}: {u.detail}")
    for sig, dirs in sorted(toggles.items()):
        for direction, bits in sorted(dirs.items()):
            parts.append(f"toggle: {sig}{_bits(bits)} {direction}")
    return "; ".join(sorted(set(parts), key=parts.index))


def _bits(bits: set[int]) -> str:
    if bits == {-1}:
        return ""
    ordered = sorted(bits)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"[{ordered[-1]}:{ordered[0]}]"
    return "[" + ",".join(str(b) for b in reversed(ordered)) + "]"


def uncovered_listing(result: ScoreResult, budget: int) -> list[str]:
    """Uncovered points grouped by file and line: `file:line | source` then the missing items."""
    by_line: dict[tuple[str, int], list] = defaultdict(list)
    for u in result.uncovered:
        by_line[(u.file, u.line)].append(u)
    out, used = [], 0
    shown = 0
    for (file, line), items in sorted(by_line.items()):
        text = items[0].text
        details = describe_missing(items)
        entry = f"  {file}:{line} | {text}\n      missing {details}"
        if used + len(entry) > budget:
            break
        out.append(entry)
        used += len(entry)
        shown += len(items)
    hidden = result.uncovered_total - shown
    if hidden > 0:
        out.append(f"  ... and {hidden} more uncovered points not shown")
    return out


def interface_lines(result: ScoreResult) -> list[str]:
    """The contract's verdict (issue 22) for the ecov feedback: the first broken input rule, its ports, time
    and the spec's words, and the legal coverage; nothing for a design without a contract."""
    legal = result.legal
    if not legal:
        return []
    v = legal.get("violation")
    total = int(legal.get("bins_total") or 0)
    bins = [f"  Functional bins (the specification's scenarios, checked on the ports) hit before any broken rule: "
            f"{len(legal.get('bins') or [])}/{total}; a legal pass needs every one."] if total else []
    if not v:
        return ["Interface rules: the stimulus obeyed every input rule of the specification (all coverage counts).",
                *bins]
    ports = ", ".join(v.get("ports") or []) or "-"
    more = sum((legal.get("violations") or {}).values()) - 1
    lines = [f"Interface rules: BROKEN. The stimulus first broke the rule '{v['rule']}' (ports {ports}) at "
             f"{v['time_ns']} ns" + (f", and broke rules {more} more times" if more > 0 else "") + "."]
    if v.get("spec"):
        lines.append(f"  The specification says: {v['spec'][:400]}")
    lines.append(f"  Coverage after the first broken rule does not count: legal overall coverage "
                 f"{float(legal.get('overall', 0.0)):.2f}%.")
    return lines + bins


def render_feedback(result: ScoreResult, targets: list[Target] | None = None, max_chars: int = 6000) -> str:
    lines = [f"Status: the testbench {STATUS_TEXT.get(result.status, result.status)}."]
    if result.errors:
        lines.append("Errors:")
        for err in result.errors[:8]:
            lines.append("  " + err.replace("\n", "\n  ")[:800])
    for w in result.warnings:
        lines.append(f"Note: {w}")
    if result.coverage:
        lines.append(f"Coverage of the design (instance '{result.instance}' and below):")
        lines += coverage_lines(result, targets)
    elif targets:
        lines.append("Coverage: none measured.")
        lines += [f"  target {t.instance} {t.metric} >= {t.percent:g}%: not met" for t in targets]
    lines += interface_lines(result)
    if not result.ran and result.log_tail and result.status not in ("compile_error", "rejected"):
        lines.append("Simulation output (end):")
        lines += ["  " + x for x in result.log_tail[-600:].splitlines()]
    head = "\n".join(lines)
    if result.uncovered:
        budget = max(500, max_chars - len(head) - 80)
        lines.append("Uncovered code (file:line | source, then what was never exercised):")
        lines += uncovered_listing(result, budget)
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 40] + "\n  ... (feedback truncated)"


# ------------------------------------------------------------------------------------------ llm4cov

# ECov status -> (status word, stage) in the shape of the LLM4Cov worker's answer (xrun / imc stages).
EDA_STATUS = {
    "ok": ("success", "coverage"),
    "no_finish": ("success", "coverage"),
    "rejected": ("rules_failed", "rules"),
    "compile_error": ("build_failed", "build"),
    "timeout": ("sim_failed", "simulation"),
    "crashed": ("sim_failed", "simulation"),
    "infra_error": ("harness_failed", "harness"),
}
NEXT_STEP_OK = "Revise the testbench to push the coverage toward 100%."
NEXT_STEP_FAILED = "Revise the testbench to fix the {stage} failure above."


def eda_status(result: ScoreResult) -> tuple[str, str]:
    return EDA_STATUS.get(result.status, (result.status, "harness"))


def next_step(result: ScoreResult) -> str:
    """The instruction line: improve coverage after a run with coverage, else fix the failing stage."""
    status, stage = eda_status(result)
    return NEXT_STEP_OK if status == "success" else NEXT_STEP_FAILED.format(stage=stage)


def error_log(result: ScoreResult, max_chars: int) -> str:
    parts = list(result.errors)
    if result.log_tail and result.status not in ("compile_error", "rejected"):
        parts.append(result.log_tail)
    text = "\n".join(parts).strip() or "(no log)"
    return text if len(text) <= max_chars else text[: max_chars - 30] + "\n... (log truncated)"


def render_eda_feedback(result: ScoreResult, targets: list[Target] | None = None, max_chars: int = 6000) -> str:
    """o_t of the llm4cov protocol (``targets`` is accepted for a common signature and not shown)."""
    status, stage = eda_status(result)
    lines = ["Answer parsing:", "- status: success", "- type: file", "", "Simulation result:",
             f"- status: {status}", f"- stage: {stage}"]
    if status == "success":
        summary = "\n".join(coverage_lines(result)) or "  (no coverage points)"
        lines.append("- coverage (DUT hierarchy, percent covered per metric):\n" + summary)
        if result.status == "no_finish":
            lines.append("- note: the simulation ended without $finish")
    else:
        lines.append("- log:\n" + error_log(result, max(500, max_chars - 600)))
    lines += ["", "Next step:", next_step(result)]
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 40] + "\n  ... (feedback truncated)"


KIND = "feedback"  # registry kind: Protocol.feedback names one
register(KIND, "eda_summary", render_eda_feedback)
register(KIND, "uncovered", render_feedback)
