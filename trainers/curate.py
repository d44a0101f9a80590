"""Execution-validated curation: only responses that parse and compile become training rows.

Every row carries in its meta what execution said about its response (``parse_error``, ``status``),
either from the run folder that recorded it (stage 0) or from the rejection step that scored it
(stages 1, 2); ``validate_rows`` scores rows again when asked. Nothing is dropped silently: each
dropped row is listed with its reason, and the counts per reason go into curation.json.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ecov.harness.core.records import COMPILE_ERROR, INFRA_ERROR, OK, REJECTED
from ecov.harness.tasks import Task
from ecov.trainers.runview import coverage_of
from ecov.trainers.scoring import as_executor, score_all
from ecov.trainers.synth import Row

NOT_COMPILED = (REJECTED, COMPILE_ERROR, INFRA_ERROR)


@dataclass
class Dropped:
    key: str
    task_id: str
    reason: str  # empty_response | parse_error | rejected | compile_error | infra_error | timeout | ... | duplicate
    detail: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "task_id": self.task_id, "reason": self.reason, "detail": self.detail}


@dataclass
class Curation:
    kept: list[Row] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    require: str = "compile"

    def counts(self) -> dict[str, int]:
        return dict(sorted(Counter(d.reason for d in self.dropped).items()))

    def to_dict(self) -> dict[str, Any]:
        return {"require": self.require, "input": len(self.kept) + len(self.dropped), "kept": len(self.kept),
                "dropped": len(self.dropped), "dropped_by_reason": self.counts(),
                "dropped_rows": [d.to_dict() for d in self.dropped]}

    def summary(self) -> str:
        reasons = ", ".join(f"{k} {v}" for k, v in self.counts().items()) or "none"
        return f"curation ({self.require}): kept {len(self.kept)} of {len(self.kept) + len(self.dropped)}; dropped: {reasons}"


def drop_reason(row: Row, require: str = "compile") -> tuple[str, str]:
    """(reason, detail) why a row cannot be trained on, or ("", "") when it can."""
    if require not in ("compile", "run"):
        raise ValueError(f"require must be compile or run, got {require!r}")
    if not row.response.strip():
        return "empty_response", ""
    meta = row.meta
    if meta.get("parse_error"):
        return "parse_error", str(meta["parse_error"])[:300]
    status = meta.get("status")
    if not status:
        return "unvalidated", "no execution status recorded for this response"
    errors = "; ".join(meta.get("errors") or [])[:300]
    if status in NOT_COMPILED:
        return status, errors
    if require == "run" and status != OK:
        return status, errors
    return "", ""


def curate(rows: list[Row], require: str = "compile", dedupe: bool = True) -> Curation:
    out = Curation(require=require)
    seen: set[str] = set()
    for row in rows:
        reason, detail = drop_reason(row, require)
        if not reason and dedupe:
            d = row.digest()
            if d in seen:
                reason, detail = "duplicate", "same prompt and response as an earlier row"
            seen.add(d)
        if reason:
            out.dropped.append(Dropped(row.key, row.task_id, reason, detail))
        else:
            out.kept.append(row)
    return out


def validate_rows(rows: list[Row], tasks: dict[str, Task], engine, seed: int = 1,
                  coverage: str = "overall") -> None:
    """Parse each response against the testbench its prompt showed, score the parsed ones through the
    executor (``engine``: an Executor, or an engine wrapped in a local one) and update row.meta."""
    from ecov.harness.parse import module_names, parse_response

    todo: list[tuple[Row, Task, str]] = []
    for row in rows:
        task = tasks[row.task_id]
        current = row.meta.get("state_testbench") or None
        design_modules = {n for f in task.rtl_files for n in module_names(f.content)}
        parsed = parse_response(row.response, current=current, dut_module=task.dut_module,
                                design_modules=design_modules)
        row.meta["parse_error"] = parsed.error
        if not parsed.ok:
            row.meta["status"] = ""
            continue
        todo.append((row, task, parsed.testbench))
    results = score_all(as_executor(engine), [(task.design, tb, seed) for _, task, tb in todo])
    for (row, task, _), res in zip(todo, results, strict=True):
        row.meta.update(status=res.status, errors=res.errors[:3],
                        coverage=round(coverage_of(res, task.targets, coverage), 2), rescored=True)


# -- contamination, length limits, resampling (after execution-validated curation) ------------------

def drop_contaminated(cur: Curation, tasks: dict[str, Task], index) -> None:
    """Move rows whose design overlaps an evaluation task (``ContaminationIndex``) to ``cur.dropped``."""
    kept = []
    for row in cur.kept:
        hit = index.match(tasks[row.task_id]) if row.task_id in tasks else None
        if hit is None:
            kept.append(row)
        else:
            reason = "contamination_id" if hit.by == "id" else "contamination_rouge"
            cur.dropped.append(Dropped(row.key, row.task_id, reason, hit.describe()))
    cur.kept = kept


def drop_too_long(cur: Curation, tasks: dict[str, Task], tok, max_tokens: int = 0, rtl_max: int = 0,
                  rtl_min: int = 0) -> dict[str, Any]:
    """Drop rows over ``max_tokens`` and rows of designs outside the RTL token bounds; return measurements."""
    from ecov.trainers.length import row_tokens, rtl_tokens

    kept, longest, rtl = [], 0, {}
    for row in cur.kept:
        task = tasks.get(row.task_id)
        if task is not None and (rtl_max or rtl_min):
            if task.id not in rtl:
                rtl[task.id] = rtl_tokens(task, tok)
            n = rtl[task.id]
            if rtl_max and n > rtl_max:
                cur.dropped.append(Dropped(row.key, row.task_id, "rtl_too_long", f"{n} RTL tokens > {rtl_max}"))
                continue
            if rtl_min and n <= rtl_min:
                cur.dropped.append(Dropped(row.key, row.task_id, "rtl_too_short", f"{n} RTL tokens <= {rtl_min}"))
                continue
        if max_tokens:
            n = row_tokens(row, tok)
            longest = max(longest, n)
            if n > max_tokens:
                cur.dropped.append(Dropped(row.key, row.task_id, "row_too_long", f"{n} tokens > {max_tokens}"))
                continue
        kept.append(row)
    cur.kept = kept
    return {"longest_row_tokens": longest, "rtl_tokens": rtl}
