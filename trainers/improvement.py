"""llm4cov recipe, step 3: which rollout rounds become training rows (the released rejection rule).

From ``scripts/synthetic_data_filter.py`` (``filter_invalid_rows``, ``has_absolute_improvement``,
``parse_dataframe``), applied to every round r >= 1 of every rollout, against the round before it
(their ``prev_cov_result`` is the previous round's result, also in markov mode):

1. the answer must have produced a testbench that ran and has coverage (``filter_invalid_rows``:
   ``cov_result.has_coverage``); otherwise ``parse_error`` / ``no_coverage``;
2. if the previous round had no coverage (compile/run failure), the round is a **fix** and is kept
   whatever its coverage (``# xrun fixed``);
3. otherwise overall coverage must rise by MORE than ``threshold``, a fraction (0.01 = 1 point of
   ECov's overall %): ``curr <= prev + threshold`` is ``gain_not_above_threshold``;
4. and no metric of the DUT may decrease (their ``misc``: every coverage category of the DUT summary;
   here line, branch, toggle, expr, user and overall of the DUT instance). A metric the previous
   round had and this one lacks also rejects (``metric_decreased``);
5. of the rounds that pass, the one with the largest ``cmp_cov = overall - prev overall`` (prev = 0
   when it had no coverage) is kept per task (``groupby(["dataset", "context_id"]).idxmax()``, the
   first on a tie); the rest are ``not_best``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ecov.harness.core.records import ScoreResult
from ecov.trainers.inject import strip_rules
from ecov.trainers.rollouts import Rollout
from ecov.trainers.synth import Row

KEPT = "kept"
NOT_BEST = "not_best"
PARSE_ERROR = "parse_error"
NO_COVERAGE = "no_coverage"
BELOW = "gain_not_above_threshold"
METRIC_DECREASED = "metric_decreased"


def has_coverage(res: ScoreResult) -> bool:
    """Their ``has_coverage`` (status success): the testbench compiled and ran to its end."""
    return res.ran


def dut_metrics(res: ScoreResult) -> dict[str, float]:
    """Per-metric % of the DUT instance; metrics with nothing to cover are absent (their None)."""
    figs = res.coverage.get(res.instance) or {}
    return {m: float(f["percent"]) for m, f in figs.items() if f.get("total", 1)}


def judge_pair(prev: ScoreResult, curr: ScoreResult, threshold: float = 0.01,
               per_metric: bool = True) -> tuple[str, str, bool]:
    """(reason, detail, fixed): reason "" when the transition prev -> curr is an improvement."""
    if not has_coverage(curr):
        return NO_COVERAGE, f"status {curr.status}", False
    if not has_coverage(prev):
        return "", f"fixes a {prev.status}", True
    c, p = curr.overall / 100.0, prev.overall / 100.0
    if c <= p + threshold:
        return BELOW, f"overall {p:.4f} -> {c:.4f}, not above +{threshold:g}", False
    if per_metric:
        cm = dut_metrics(curr)
        for m, v in dut_metrics(prev).items():
            if m not in cm or cm[m] < v:
                return METRIC_DECREASED, f"{m} {v:.2f} -> {cm.get(m, float('nan')):.2f} although overall rose", False
    return "", "", False


@dataclass
class Transition:
    """One rollout round r >= 1: the chat that was sent, the answer, and how it changed coverage."""

    task_id: str
    state: str  # State.key of the rollout's start
    selected_as: str
    rep: int
    sample: int  # in the rollouts run folder
    round: int
    prev_status: str
    prev_overall: float  # percent
    status: str = ""
    overall: float = 0.0
    gain: float = 0.0  # cmp_cov as a FRACTION (their unit)
    fixed: bool = False
    reason: str = ""
    detail: str = ""
    source: str = ""  # the run folder the start state came from
    shown_round: int | None = None  # the round whose state the prompt showed (agents that record it)
    prompt: list[dict[str, str]] = field(default_factory=list, repr=False)
    response: str = field(default="", repr=False)
    prev_testbench: str = field(default="", repr=False)

    @property
    def key(self) -> str:
        return f"{self.state}/rep{self.rep}r{self.round}"

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        d = asdict(self)
        d["key"] = self.key
        if not full:
            d.pop("prompt")
            d.pop("prev_testbench")
            d["response_chars"] = len(d.pop("response"))
        return d


def transitions(rollouts: list[Rollout], threshold: float = 0.01, per_metric: bool = True) -> list[Transition]:
    """Every round r >= 1 of every rollout, judged against round r - 1 (reason set, kept not yet chosen)."""
    out: list[Transition] = []
    for ro in rollouts:
        for prev_rec, rec in zip(ro.rounds, ro.rounds[1:], strict=False):
            prev = prev_rec.score()
            t = Transition(ro.state.task_id, ro.state.key, ro.state.selected_as, ro.rep, ro.sample, rec.round,
                           prev.status, prev.overall, source=ro.state.source, prompt=rec.messages or [],
                           response=rec.response, prev_testbench=_in_force(ro, rec.round - 1),
                           shown_round=getattr(rec, "state_round", None))
            out.append(t)
            if not rec.testbench:
                t.reason, t.detail = PARSE_ERROR, rec.parse_error[:300]
                continue
            curr = rec.score()
            t.status, t.overall = curr.status, curr.overall
            t.reason, t.detail, t.fixed = judge_pair(prev, curr, threshold, per_metric)
            t.gain = round(curr.overall / 100.0 - (prev.overall / 100.0 if has_coverage(prev) else 0.0), 6)
    return out


def _in_force(ro: Rollout, upto: int) -> str:
    tb = ""
    for r in ro.rounds[: upto + 1]:
        tb = r.testbench or tb
    return tb


def keep_best(trans: list[Transition], per: str = "task") -> list[Transition]:
    """Mark the largest gain of each task (or state) kept, the other passing rounds not_best."""
    best: dict[str, Transition] = {}
    for t in trans:
        if t.reason:
            continue
        group = t.task_id if per == "task" else t.state
        if group not in best or t.gain > best[group].gain:
            best[group] = t
    kept = set(map(id, best.values()))
    for t in trans:
        if t.reason:
            continue
        if id(t) in kept:
            t.reason = KEPT
        else:
            group = t.task_id if per == "task" else t.state
            t.reason, t.detail = NOT_BEST, f"gain {t.gain:+.4f} < best {best[group].gain:+.4f} of the {per}"
    return [t for t in trans if t.reason == KEPT]


def rows_from(kept: list[Transition], stage: int, source: str, strip: bool = True) -> tuple[list[Row], int]:
    """Training rows of the kept rounds: the chat the agent sent (rules stripped) and the answer."""
    rows, stripped = [], 0
    for t in kept:
        prompt = [{"role": m["role"], "content": m["content"]} for m in t.prompt]
        if strip:
            prompt, n = strip_rules(prompt)
            stripped += n
        state = {"key": t.state, "selected_as": t.selected_as, "rep": t.rep, "round": t.round - 1,
                 "coverage": t.prev_overall, "status": t.prev_status, "source": t.source}
        meta = {"parse_error": "", "status": t.status, "coverage": t.overall, "gain": t.gain, "fixed": t.fixed,
                "candidate": f"rep{t.rep}r{t.round}", "rollout_sample": t.sample, "state_testbench": t.prev_testbench,
                "shown_round": t.shown_round}
        rows.append(Row(t.task_id, stage, prompt, t.response, state, source, meta))
    return rows, stripped


def write_report(path: Path, trans: list[Transition]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for t in trans:
            f.write(json.dumps(t.to_dict(), sort_keys=True) + "\n")
