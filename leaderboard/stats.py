"""The numbers the leaderboard shows, recomputed from a run's records.

The site does not show summary.json as submitted: it recomputes the summary from samples.jsonl with
``ecov.harness.evaluation.metrics.summarize`` (the same definitions ecov-eval uses, docs/evaluation.md), and ``verify``
checks samples.jsonl against re-scored rounds. This module adds the views the site needs on top, on
pandas tables of the samples: per task, per difficulty, on random-hard tasks (ecov.harness.evaluation.baseline), and a
bootstrap interval over tasks for the pass % error bars.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ecov.harness.core.run_folder import RoundRecord, RunConfig, SampleRecord
from ecov.harness.evaluation.compare import paired_bootstrap
from ecov.harness.evaluation.metrics import summarize

DIFFICULTY_ORDER = ("easy", "medium", "hard")
CI_RESAMPLES = 2000
CI_SEED = 0


@dataclass
class RunView:
    """One run as the site needs it: config, summary (recomputed), per-sample coverages, rounds."""

    config: RunConfig
    summary: dict[str, Any]
    samples: list[SampleRecord]
    coverages: list[float] = field(default_factory=list)  # final overall per sample, for histograms
    # per task: samples, passed, pass_rate, mean_overall, difficulty, random_hard, contract, ecov_pass_rate
    tasks: pd.DataFrame | None = None
    pass_ci: tuple[float, float] | None = None  # 95% bootstrap over tasks of the pass %
    random_hard: float | None = None  # pass % over the benchmark's random-hard tasks this run has
    random_hard_tasks: int = 0
    by_difficulty: dict[str, float] = field(default_factory=dict)
    ecov_ci: tuple[float, float] | None = None  # 95% bootstrap over tasks of the ECov pass %

    @property
    def faults(self) -> list[SampleRecord]:
        """Samples that ended on a fault (model server, harness): no result, in no figure or chart."""
        return [s for s in self.samples if s.error]

    def pct(self, key: str) -> float:
        return float(self.summary.get(key) or 0.0)

    @property
    def ecov(self) -> float:
        """The ECov headline (issue 32): pass % where a contract task counts only its legal pass; a summary
        without it (no such key) falls back on the paper's pass %."""
        return float(self.summary.get("ecov_pass_rate", self.summary.get("pass_rate")) or 0.0)

    @property
    def legal_cov(self) -> float | None:
        """Mean best legal coverage over the contract tasks; None when the run has none."""
        lg = self.summary.get("legal") or {}
        return float(lg.get("avg_overall_best") or 0.0) if lg.get("tasks") else None

    @property
    def bins(self) -> tuple[float, int] | None:
        """(bins hit, bins) over the contract tasks; None when no sample recorded its bins."""
        lg = self.summary.get("legal") or {}
        return (float(lg.get("bins_hit") or 0.0), int(lg["bins"])) if lg.get("bins") else None

    @property
    def legal(self) -> float | None:
        """Legal pass % (issue 22) over the run's tasks with an interface contract; None when it has none
        (or the samples predate contracts)."""
        lg = self.summary.get("legal") or {}
        return float(lg.get("pass_rate") or 0.0) if lg.get("tasks") else None

    @property
    def legal_tasks(self) -> int:
        return int((self.summary.get("legal") or {}).get("tasks") or 0)

    @property
    def pass_at(self) -> dict[int, float]:
        out = {}
        for k, v in (self.summary.get("pass_at_k") or {}).items():
            try:
                out[int(str(k).removeprefix("pass@"))] = float(v)
            except ValueError:
                continue
        return dict(sorted(out.items()))

    @property
    def max_k(self) -> int:
        return max(self.pass_at, default=1)

    @property
    def pass_by_round(self) -> list[float]:
        return [float(r.get("pass_rate") or 0.0) for r in self.summary.get("per_round") or []]

    @property
    def ecov_by_round(self) -> list[float]:
        """ECov pass % after each round (the paper's pass % for summaries without it)."""
        return [float(r.get("ecov_pass_rate", r.get("pass_rate")) or 0.0) for r in self.summary.get("per_round") or []]

    @property
    def tokens(self) -> int:
        return int(self.summary.get("prompt_tokens") or 0) + int(self.summary.get("completion_tokens") or 0)

    @property
    def tokens_per_sample(self) -> float:
        n = len(self.samples)
        return self.tokens / n if n else 0.0


def samples_table(samples: list[SampleRecord]) -> pd.DataFrame:
    cols = ["task_id", "sample", "passed", "final_overall", "best_overall", "syntax_ok", "rounds"]
    return pd.DataFrame([{c: getattr(s, c) for c in cols} for s in samples], columns=cols)


def task_table(samples: list[SampleRecord], difficulty: dict[str, str] | None = None,
               hard: set[str] | None = None) -> pd.DataFrame:
    """One row per task: samples, passed, pass_rate (%), mean_overall, best_overall, difficulty, random_hard."""
    df = samples_table(samples)
    t = df.groupby("task_id").agg(samples=("sample", "size"), passed=("passed", "sum"),
                                  pass_rate=("passed", "mean"), mean_overall=("final_overall", "mean"),
                                  best_overall=("final_overall", "max"))
    t["pass_rate"] = (100.0 * t["pass_rate"]).round(2)
    t["mean_overall"] = t["mean_overall"].round(2)
    t["difficulty"] = [(difficulty or {}).get(task, "") for task in t.index]
    t["random_hard"] = [task in hard for task in t.index] if hard is not None else False
    return t


def bootstrap_over_tasks(task_values: list[float] | np.ndarray, resamples: int = CI_RESAMPLES,
                         seed: int = CI_SEED) -> tuple[float, float] | None:
    """95% percentile interval of the mean over tasks, resampling tasks (seeded, so the site is stable)."""
    vals = [np.array([v]) for v in np.asarray(task_values, dtype=float)]
    if not vals:
        return None
    lo, hi = paired_bootstrap(vals, resamples, seed)
    return round(lo, 2), round(hi, 2)


def run_view(config: RunConfig, samples: list[SampleRecord], difficulty: dict[str, str] | None = None,
             hard: set[str] | None = None, contracts: dict[str, int] | None = None,
             measures_nothing: set[str] | None = None) -> RunView:
    """``contracts``: the benchmark's contract tasks (id -> bin count) where the run's track checks them:
    the headline counts their legal pass whatever the submitted records say. ``measures_nothing``: the
    tasks the headline leaves out (the benchmark's record, never the submission's)."""
    summary = summarize(samples, config.max_rounds, protocol=config.protocol, contracts=contracts,
                        measures_nothing=measures_nothing)
    ordered = sorted(samples, key=lambda s: (s.task_id, s.sample))
    scored = [s for s in ordered if not s.error]  # a fault is no 0 in a table or a histogram
    view = RunView(config, summary, ordered, [s.final_overall for s in scored])
    if not scored:
        return view
    t = task_table(scored, difficulty, hard)
    view.tasks = t
    view.pass_ci = bootstrap_over_tasks(t["pass_rate"].to_numpy())
    per_task = summary.get("per_task") or {}
    t["contract"] = [bool(per_task[task].get("contract")) for task in t.index]
    t["ecov_pass_rate"] = [float(per_task[task].get("ecov_pass_rate", 0.0)) for task in t.index]
    view.ecov_ci = bootstrap_over_tasks(t["ecov_pass_rate"].to_numpy())
    if hard is not None:
        on_hard = t.loc[t["random_hard"], "pass_rate"]
        view.random_hard_tasks = len(on_hard)
        view.random_hard = round(float(on_hard.mean()), 2) if len(on_hard) else None
    if difficulty:
        by = t[t["difficulty"] != ""].groupby("difficulty")["pass_rate"].mean().round(2)
        view.by_difficulty = {d: float(by[d]) for d in difficulty_levels(by.index)}
    return view


def difficulty_levels(levels) -> list[str]:
    """easy, medium, hard first, then any other level by name."""
    levels = {str(x) for x in levels if x}
    return [d for d in DIFFICULTY_ORDER if d in levels] + sorted(levels - set(DIFFICULTY_ORDER))


def group_rounds(rounds: list[RoundRecord]) -> dict[tuple[str, int], list[RoundRecord]]:
    """Rounds by (task, sample) in file order; a round 0 starts a new attempt (as ecov.harness.evaluation.runner reads them)."""
    out: dict[tuple[str, int], list[RoundRecord]] = {}
    for r in rounds:
        key = (r.task_id, r.sample)
        if r.round == 0 or key not in out:
            out[key] = []
        out[key].append(r)
    return {k: sorted(v, key=lambda r: r.round) for k, v in sorted(out.items())}


def histogram(values: list[float], bins: int = 10, lo: float = 0.0, hi: float = 100.0) -> list[int]:
    """Counts of values in ``bins`` equal bins over [lo, hi]; hi itself falls in the last bin."""
    counts, _ = np.histogram(np.clip(np.asarray(values, dtype=float), lo, hi), bins=bins, range=(lo, hi))
    return [int(c) for c in counts]
