"""Coverage-guided rejection sampling: K revisions per chosen state, scored, the best one kept if it helps.

For a state s = (task, x_t, o_t) with coverage c(x_t), the reviser (the teacher in stage 1, the student
in stage 2; any LiteLLM model, a vLLM server included) is asked K times with the evaluation prompt of
s. Each answer is parsed against x_t (full file or patch, as in evaluation) and scored through the
executor (ecov.trainers.scoring), the K of a state at once.
A revision y is eligible when it parsed, its run ended with status ``ok`` (compiled, ran, $finish) and

    gain(y) = c(y) - c(x_t) >= tau        (percentage points of the chosen coverage measure)

Of the eligible revisions the one with the highest gain is kept (ties: the earliest sample); the state
gives no row when none is eligible. This is our reading of the paper's coverage-guided rejection:
a revision must improve the state by a margin, and only the best improvement is imitated. Every
candidate, kept or not, is written to the report with its gain and the reason it was rejected.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.records import OK, ScoreResult
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import get_track, tb_io
from ecov.trainers.runview import coverage_of
from ecov.trainers.scoring import as_executor, score_all
from ecov.trainers.synth import Row, State

# Candidate outcomes, in the report's ``reason`` field.
KEPT = "kept"
MODEL_ERROR = "model_error"
PARSE_ERROR = "parse_error"
BELOW_TAU = "gain_below_tau"
NOT_BEST = "not_best"


@dataclass
class Candidate:
    state: str  # State.key
    task_id: str
    k: int
    state_coverage: float
    response: str
    kind: str = ""  # full | patch
    status: str = ""
    coverage: float = 0.0
    gain: float = 0.0
    reason: str = ""  # kept | model_error | parse_error | <status> | gain_below_tau | not_best
    detail: str = ""
    seconds: float = 0.0
    testbench: str = ""

    @property
    def eligible(self) -> bool:
        return self.status == OK and self.reason == ""

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        d = asdict(self)
        if not full:
            d.pop("testbench")
            d["response_chars"] = len(d.pop("response"))
        return d


def judge(cands: list[Candidate], tau: float) -> Candidate | None:
    """Mark each scored candidate kept / gain_below_tau / not_best; return the kept one."""
    for c in cands:
        if c.reason:
            continue
        if c.status != OK:
            c.reason = c.status
        elif c.gain < tau:
            c.reason = BELOW_TAU
            c.detail = f"gain {c.gain:+.2f} < tau {tau:g}"
    eligible = [c for c in cands if not c.reason]
    if not eligible:
        return None
    best = max(eligible, key=lambda c: (c.gain, -c.k))
    for c in eligible:
        if c is best:
            c.reason = KEPT
        else:
            c.reason = NOT_BEST
            c.detail = f"gain {c.gain:+.2f} < best {best.gain:+.2f}"
    return best


def ask(reviser, requests: list, concurrency: int = 1) -> list:
    """Completions for ``requests`` in order; a ModelError stands in for a failed one."""
    from concurrent.futures import ThreadPoolExecutor

    from ecov.harness.models import ModelError

    def one(req):
        try:
            return reviser.complete(req)
        except ModelError as e:
            return e

    if concurrency <= 1 or len(requests) <= 1:
        return [one(r) for r in requests]
    with ThreadPoolExecutor(max_workers=min(concurrency, len(requests))) as pool:
        return list(pool.map(one, requests))


def revise_state(state: State, task: Task, reviser, engine, k: int, tau: float, seed: int = 1,
                 coverage: str = "overall", concurrency: int = 1,
                 tb_lang: str | None = None) -> tuple[list[Candidate], list[dict[str, str]]]:
    """Sample K revisions of one state (``concurrency`` requests in flight), parse each, score the parsed
    ones through the executor (``engine``: an Executor, or an engine wrapped in a local one), and judge
    them. Returns (candidates, prompt)."""
    from ecov.harness.models import ModelError, ModelRequest
    from ecov.harness.parse import module_names

    # The ecov recipe is ECov's earlier loop: its prompt and its parser (full files or patch hunks), in
    # the source runs' track.
    io = tb_io(get_protocol("ecov"), tb_lang)
    prompt = io.messages(task, state.testbench, state.feedback)
    design_modules = {n for f in task.rtl_files for n in module_names(f.content)}
    last = ScoreResult.from_dict(state.result) if state.result else None
    requests = [ModelRequest(prompt, task, testbench=state.testbench, result=last, round=state.round + 1,
                             sample=i, seed=seed + i, tb_lang=get_track(tb_lang).name) for i in range(k)]
    t0 = time.monotonic()
    answers = ask(reviser, requests, concurrency)
    ask_seconds = (time.monotonic() - t0) / max(1, k)
    cands: list[Candidate] = []
    parsed_ok: list[Candidate] = []
    for i, comp in enumerate(answers):
        cand = Candidate(state.key, task.id, i, state.coverage, "")
        cands.append(cand)
        if isinstance(comp, ModelError):
            cand.reason, cand.detail = MODEL_ERROR, str(comp)[:300]
            continue
        cand.response = comp.text
        parsed = io.parse(comp.text, comp.finish_reason, state.testbench, task, design_modules)
        cand.kind = parsed.kind
        if not parsed.ok:
            cand.reason, cand.detail = PARSE_ERROR, parsed.error[:300]
        else:
            cand.testbench = parsed.testbench
            parsed_ok.append(cand)
    # The parsed revisions go to the executor together (a Ray cluster builds them in parallel).
    t1 = time.monotonic()
    results = score_all(as_executor(engine, tb_lang), [(task.design, c.testbench, seed) for c in parsed_ok])
    score_seconds = (time.monotonic() - t1) / max(1, len(parsed_ok))
    for cand, res in zip(parsed_ok, results, strict=True):
        cand.status = res.status
        cand.coverage = round(coverage_of(res, task.targets, coverage), 2)
        cand.gain = round(cand.coverage - state.coverage, 2)
        if res.status != OK:
            cand.detail = "; ".join(res.errors[:2])[:300]
    for cand in cands:
        cand.seconds = round(ask_seconds + (score_seconds if cand.testbench else 0.0), 3)
    judge(cands, tau)
    return cands, prompt


def rejection_rows(states: list[State], tasks: dict[str, Task], reviser, engine, *, k: int, tau: float,
                   stage: int, source: str, seed: int = 1, coverage: str = "overall",
                   concurrency: int = 1, report: Path | None = None, log=None,
                   tb_lang: str | None = None) -> tuple[list[Row], list[Candidate]]:
    """Rows for every state whose best revision passed; every candidate appended to ``report``."""
    rows: list[Row] = []
    every: list[Candidate] = []
    if report is not None:
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text("")
    for n, state in enumerate(states, 1):
        task = tasks[state.task_id]
        cands, prompt = revise_state(state, task, reviser, engine, k, tau, seed, coverage, concurrency, tb_lang)
        every.extend(cands)
        if report is not None:
            with open(report, "a") as f:
                for c in cands:
                    f.write(json.dumps(c.to_dict(), sort_keys=True) + "\n")
        best = next((c for c in cands if c.reason == KEPT), None)
        if log is not None:
            gains = ", ".join(f"{c.gain:+.1f}" if c.status else c.reason for c in cands)
            log(f"[{n}/{len(states)}] {state.key} cov {state.coverage:.1f}: gains [{gains}] -> "
                + (f"kept k={best.k} ({best.gain:+.2f})" if best else "none kept"))
        if best is None:
            continue
        meta = {"parse_error": "", "status": best.status, "coverage": best.coverage, "gain": best.gain,
                "candidate": f"k{best.k}", "kind": best.kind, "tau": tau, "k": k,
                "state_testbench": state.testbench}
        state_info = {"key": state.key, "sample": state.sample, "round": state.round,
                      "coverage": state.coverage}
        rows.append(Row(task.id, stage, prompt, best.response, state_info, source, meta))
    return rows, every
