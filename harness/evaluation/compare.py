"""Paired comparison of two runs on the same tasks: ``ecov-eval compare RUN_A RUN_B``.

Every difference is B − A (positive: B is better). The unit is the task, as in ecov.harness.evaluation.metrics: a
run's pass % is the mean over tasks of each task's pass rate over its samples.

* **Pairing.** Samples are paired by (task, sample index); samples only one run has are left out and
  counted. Runs are refused, with the reason, when their benchmark, split, dataset hash or protocol
  preset differ (a config.json without ``protocol`` reads as RunConfig reads it, see ``protocol_of``):
  their numbers do not measure the same thing.
* **Interval.** A 95% paired bootstrap percentile interval (seeded: ``seed``, default 0; ``resamples``,
  default 10,000): each resample draws tasks with replacement, then, within each drawn task, its sample
  pairs with replacement, and takes the mean over tasks of the mean paired difference. Two-level
  resampling keeps the task as the unit and still reflects sample-to-sample variation.
* **Test.** McNemar's exact test on per-task pass: a task is discordant when its pass rate over the
  paired samples differs between the runs (with one sample per task, exactly McNemar's b and c);
  p = min(1, 2 · P[Binomial(b + c, 1/2) <= min(b, c)]), two-sided, computed exactly with integers.
* **Coverage** is a sample's coverage as the runs' protocol defines Avg Cov (ecov.harness.core.protocol: the best
  state over rounds, or the final round; the final round for runs from before protocols).
* **Rounds.** The same per agentic round r: a sample's state after round r (passed by then, its coverage
  up to r), carrying a finished sample's last state forward.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

LEGACY_PROTOCOL = "legacy"
RESAMPLES = 10_000
SEED = 0
LEVEL = 0.95


class CompareError(ValueError):
    """The two runs cannot be compared (the message says why)."""


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for b and c discordant pairs (exact binomial test, p = 1/2)."""
    if b < 0 or c < 0:
        raise ValueError("discordant counts must be >= 0")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(b, c) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** n)))


def paired_bootstrap(groups: list[np.ndarray], resamples: int = RESAMPLES, seed: int = SEED,
                     level: float = LEVEL, chunk: int = 1000) -> tuple[float, float]:
    """Percentile interval of the mean over tasks of per-task mean differences (``groups``: one array of
    paired differences per task), resampling tasks, then sample pairs within each drawn task."""
    groups = [np.asarray(g, dtype=float) for g in groups if len(g)]
    if not groups:
        return 0.0, 0.0
    t, sizes = len(groups), np.array([len(g) for g in groups])
    width = int(sizes.max())
    table = np.zeros((t, width))
    for i, g in enumerate(groups):
        table[i, :len(g)] = g
    rng = np.random.default_rng(seed)
    stats = []
    for start in range(0, resamples, chunk):
        b = min(chunk, resamples - start)
        tasks = rng.integers(0, t, size=(b, t))
        n = sizes[tasks]  # (b, t)
        picks = (rng.random((b, t, width)) * n[..., None]).astype(int)  # within the drawn task
        vals = table[tasks[..., None], picks]
        used = np.arange(width) < n[..., None]
        stats.append(((vals * used).sum(-1) / n).mean(-1))
    allstats = np.concatenate(stats)
    a = (1.0 - level) / 2
    lo, hi = np.quantile(allstats, [a, 1.0 - a])
    return float(lo), float(hi)


@dataclass
class Figure:
    """One compared figure: A, B, B − A and its bootstrap interval (percentage points)."""

    a: float
    b: float
    diff: float
    lo: float
    hi: float

    @property
    def significant(self) -> bool:
        return self.lo > 0 or self.hi < 0


@dataclass
class TaskTest:
    """Per-task pass: tasks B wins and loses, and McNemar's exact p-value."""

    won: list[str]
    lost: list[str]
    ties: int
    p_value: float


@dataclass
class RoundComparison:
    round: int  # 0-based
    pass_rate: Figure
    avg_overall: Figure
    tasks: TaskTest


@dataclass
class RunSide:
    path: str
    model: str
    mode: str
    agent: str
    seed: int
    n_samples: int
    max_rounds: int
    samples: int


@dataclass
class Comparison:
    a: RunSide
    b: RunSide
    benchmark: str
    split: str
    dataset_hash: str
    protocol: str
    tasks: int
    pairs: int
    unpaired: int
    pass_rate: Figure
    avg_overall: Figure
    task_test: TaskTest
    per_round: list[RoundComparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    method: dict[str, Any] = field(default_factory=dict)
    # Legal pass % (issue 22) over the paired tasks that have an interface contract; None when none has.
    legal_pass_rate: Figure | None = None
    legal_tasks: int = 0
    # The ECov headline (issue 32): every paired task, a contract task counting only its legal pass.
    ecov_pass_rate: Figure | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def protocol_of(run_dir: str | Path) -> str:
    """The run's protocol preset from config.json. A config without one is a run from before protocols:
    RunConfig decides what it reads as (issue 11: "ecov", the loop those runs ran); "legacy" where
    RunConfig has no protocol field."""
    from ecov.harness.core.run_folder import RunConfig

    raw = json.loads((Path(run_dir) / "config.json").read_text())
    if raw.get("protocol"):
        return str(raw["protocol"])
    try:
        return str(getattr(RunConfig.from_dict(raw), "protocol", "") or LEGACY_PROTOCOL)
    except TypeError:  # a config too old or too new for this RunConfig
        return LEGACY_PROTOCOL


def _check(a, b, path_a, path_b) -> list[str]:
    """Refuse runs that do not measure the same thing; return notes for differences that are allowed."""
    for key, what in (("benchmark", "benchmarks"), ("split", "splits"),
                      ("dataset_hash", "task sets (dataset hashes)")):
        va, vb = getattr(a, key), getattr(b, key)
        if va != vb:
            raise CompareError(f"the runs are on different {what}: RUN_A has {va!r}, RUN_B has {vb!r}; "
                               "a paired comparison needs the same tasks")
    pa, pb = protocol_of(path_a), protocol_of(path_b)
    if pa != pb:
        raise CompareError(f"the runs used different protocol presets: RUN_A {pa!r}, RUN_B {pb!r} "
                           "(prompts, feedback and rounds differ, so their numbers are not comparable)")
    notes = []
    if (a.mode, a.agent, a.max_rounds) != (b.mode, b.agent, b.max_rounds):
        notes.append(f"different settings: A {a.mode}/{a.agent} x{a.max_rounds}, "
                     f"B {b.mode}/{b.agent} x{b.max_rounds}")
    return notes


def avg_cov_kind(protocol: str) -> str:
    """How the protocol defines a sample's coverage: "best" (best state over rounds) or "final"."""
    try:
        from ecov.harness.core.protocol import get_protocol
    except ImportError:  # before protocols existed: the final round
        return "final"
    try:
        return get_protocol(protocol).avg_cov
    except (KeyError, ValueError):
        return "final"


def _cov_by_round(s, kind: str) -> list[float]:
    seq = list(s.overall_by_round)
    if kind == "best":
        return list(getattr(s, "best_overall_by_round", None) or np.maximum.accumulate(seq or [0.0]).tolist())
    return seq


def sample_rows(folder, n_rounds: int, kind: str):
    """One row per finished sample: passed and coverage (as the protocol defines it), overall and after
    each round r < n_rounds (a sample that stopped carries its last state forward)."""
    import pandas as pd

    rows = []
    for s in folder.samples():
        covs = _cov_by_round(s, kind)
        final = covs[-1] if covs else 0.0
        if kind != "best":
            final = s.final_overall
        elif getattr(s, "best_state_overall", None) is not None:
            final = s.best_state_overall
        row = {"task_id": s.task_id, "sample": s.sample, "passed": float(s.passed), "cov": float(final),
               "contract": float(getattr(s, "contract", False)),
               "legal": float(getattr(s, "legal_passed_round", None) is not None)}
        for r in range(n_rounds):
            row[f"p{r}"] = float(s.passed_round is not None and s.passed_round <= r)
            row[f"c{r}"] = float(covs[min(r, len(covs) - 1)]) if covs else 0.0
        rows.append(row)
    cols = ["task_id", "sample", "passed", "cov", "contract", "legal", *(f"{k}{r}" for r in range(n_rounds) for k in "pc")]
    return pd.DataFrame(rows, columns=cols)


def _figure(pairs, col_a: str, col_b: str, resamples: int, seed: int, scale: float = 1.0) -> Figure:
    by_task = pairs.groupby("task_id")
    a = float(by_task[col_a].mean().mean()) * scale
    b = float(by_task[col_b].mean().mean()) * scale
    diffs = (pairs[col_b] - pairs[col_a]) * scale
    lo, hi = paired_bootstrap([g.to_numpy() for _, g in diffs.groupby(pairs["task_id"])], resamples, seed)
    return Figure(round(a, 2), round(b, 2), round(b - a, 2), round(lo, 2), round(hi, 2))


def _task_test(pairs, col_a: str, col_b: str) -> TaskTest:
    rates = pairs.groupby("task_id")[[col_a, col_b]].mean()
    won = sorted(rates.index[rates[col_b] > rates[col_a]])
    lost = sorted(rates.index[rates[col_b] < rates[col_a]])
    return TaskTest(won, lost, len(rates) - len(won) - len(lost), mcnemar_exact(len(lost), len(won)))


def _ecov_figure(pairs, resamples: int, seed: int) -> Figure:
    """ECov pass % of both runs: a task with a contract in either run counts each sample's legal pass."""
    contract = (pairs["contract_a"] > 0) | (pairs["contract_b"] > 0)
    task_has = contract.groupby(pairs["task_id"]).transform("any")
    cols = pairs.assign(ecov_a=pairs["legal_a"].where(task_has, pairs["passed_a"]),
                        ecov_b=pairs["legal_b"].where(task_has, pairs["passed_b"]))
    return _figure(cols, "ecov_a", "ecov_b", resamples, seed, 100.0)


def compare_runs(run_a: str | Path, run_b: str | Path, resamples: int = RESAMPLES, seed: int = SEED) -> Comparison:
    """Compare two run folders, pairing by (task, sample). Raises CompareError when they are not comparable."""
    from ecov.harness.core.run_folder import RunFolder

    fa, fb = RunFolder(run_a), RunFolder(run_b)
    for f, name in ((fa, "RUN_A"), (fb, "RUN_B")):
        if not f.exists():
            raise CompareError(f"{name} {f.root} is not an ecov-eval run folder (no config.json)")
    ca, cb = fa.read_config(), fb.read_config()
    notes = _check(ca, cb, fa.root, fb.root)
    protocol = protocol_of(fa.root)
    kind = avg_cov_kind(protocol)
    n_rounds = max(ca.max_rounds, cb.max_rounds)
    sa, sb = sample_rows(fa, n_rounds, kind), sample_rows(fb, n_rounds, kind)
    key = ["task_id", "sample"]
    pairs = sa.merge(sb, on=key, suffixes=("_a", "_b"))
    if pairs.empty:
        raise CompareError("the runs share no finished (task, sample): nothing to pair")
    unpaired = len(sa) + len(sb) - 2 * len(pairs)
    if unpaired:
        notes.append(f"{unpaired} samples have no partner in the other run and are left out")
    for c, s, name in ((ca, sa, "A"), (cb, sb, "B")):
        expected = len(c.task_ids or []) * c.n_samples
        if expected and len(s) < expected:
            notes.append(f"run {name} is incomplete ({len(s)} of {expected} samples)")

    comp = Comparison(
        a=RunSide(str(run_a), ca.model, ca.mode, ca.agent, ca.seed, ca.n_samples, ca.max_rounds, len(sa)),
        b=RunSide(str(run_b), cb.model, cb.mode, cb.agent, cb.seed, cb.n_samples, cb.max_rounds, len(sb)),
        benchmark=ca.benchmark, split=ca.split, dataset_hash=ca.dataset_hash, protocol=protocol,
        tasks=int(pairs["task_id"].nunique()), pairs=len(pairs), unpaired=unpaired,
        pass_rate=_figure(pairs, "passed_a", "passed_b", resamples, seed, 100.0),
        avg_overall=_figure(pairs, "cov_a", "cov_b", resamples, seed),
        task_test=_task_test(pairs, "passed_a", "passed_b"), notes=notes,
        method={"difference": "B - A, percentage points, task-level means", "interval": f"{LEVEL:.0%} paired "
                "bootstrap percentile: resample tasks, then sample pairs within each task",
                "resamples": resamples, "seed": seed, "coverage": f"{kind} (the protocol's Avg Cov)",
                "test": "McNemar exact (two-sided binomial on tasks whose pass rates differ)"},
    )
    comp.ecov_pass_rate = _ecov_figure(pairs, resamples, seed)
    legal = pairs[(pairs["contract_a"] > 0) | (pairs["contract_b"] > 0)]
    if not legal.empty:
        comp.legal_pass_rate = _figure(legal, "legal_a", "legal_b", resamples, seed, 100.0)
        comp.legal_tasks = int(legal["task_id"].nunique())
    if n_rounds > 1:
        for r in range(n_rounds):
            comp.per_round.append(RoundComparison(
                r, _figure(pairs, f"p{r}_a", f"p{r}_b", resamples, seed, 100.0),
                _figure(pairs, f"c{r}_a", f"c{r}_b", resamples, seed), _task_test(pairs, f"p{r}_a", f"p{r}_b")))
    return comp


def _signed(v: float) -> str:
    return f"{v:+.1f}"


def _ci(f: Figure) -> str:
    return f"[{_signed(f.lo)}, {_signed(f.hi)}]" + ("  *" if f.significant else "")


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.1e}"


def format_comparison(c: Comparison, list_tasks: int = 20) -> str:
    def side(tag: str, s: RunSide) -> str:
        mode = s.mode if s.mode == "direct" else f"{s.mode}/{s.agent} x{s.max_rounds}"
        return f"  {tag}  {s.model}  {mode}  seed {s.seed}  n={s.n_samples}  ({s.samples} samples)  {s.path}"

    def names(ts: list[str]) -> str:
        return ", ".join(ts[:list_tasks]) + (f" ... (+{len(ts) - list_tasks})" if len(ts) > list_tasks else "")

    t = c.task_test
    lines = [
        "ECov paired comparison: differences are B - A (positive: B is better)",
        side("A", c.a), side("B", c.b),
        f"  benchmark {c.benchmark} ({c.split}), dataset {c.dataset_hash[:19]}..., protocol {c.protocol}",
        f"  paired on {c.tasks} tasks, {c.pairs} (task, sample) pairs",
        *(f"  note: {n}" for n in c.notes),
        "",
        f"  {'':<16}{'A':>8}{'B':>8}{'B - A':>9}   95% CI (bootstrap, {c.method['resamples']:,} resamples, "
        f"seed {c.method['seed']})",
    ]
    if (f := c.ecov_pass_rate) is not None:
        lines.append(f"  {'ECov pass %':<16}{f.a:>8.1f}{f.b:>8.1f}{_signed(f.diff):>9}   {_ci(f)}"
                     f"   (the headline: contract tasks count their legal pass)")
    for label, f in (("pass % (paper)" if c.ecov_pass_rate is not None else "pass %", c.pass_rate),
                     ("avg coverage %", c.avg_overall)):
        lines.append(f"  {label:<16}{f.a:>8.1f}{f.b:>8.1f}{_signed(f.diff):>9}   {_ci(f)}")
    if (f := c.legal_pass_rate) is not None:
        lines.append(f"  {'legal pass %':<16}{f.a:>8.1f}{f.b:>8.1f}{_signed(f.diff):>9}   {_ci(f)}"
                     f"   (the {c.legal_tasks} tasks with an interface contract)")
    lines += [
        "",
        f"  tasks: B wins {len(t.won)}, loses {len(t.lost)}, ties {t.ties}; McNemar exact p = {_p(t.p_value)}"
        f" (two-sided, {len(t.won) + len(t.lost)} discordant tasks)",
    ]
    if t.won:
        lines.append(f"  won by B:  {names(t.won)}")
    if t.lost:
        lines.append(f"  lost by B: {names(t.lost)}")
    if c.per_round:
        lines += ["", f"  {'after round':<12}{'pass A':>8}{'pass B':>8}{'B - A':>8}  {'95% CI':<18}"
                      f"{'cov B - A':>10}  {'95% CI':<18}{'won/lost':>9}{'p':>9}"]
        for r in c.per_round:
            lines.append(f"  {r.round + 1:<12}{r.pass_rate.a:>8.1f}{r.pass_rate.b:>8.1f}{_signed(r.pass_rate.diff):>8}"
                         f"  {_ci(r.pass_rate):<18}{_signed(r.avg_overall.diff):>10}  {_ci(r.avg_overall):<18}"
                         f"{len(r.tasks.won):>5}/{len(r.tasks.lost):<3}{_p(r.tasks.p_value):>9}")
    headline = c.ecov_pass_rate is not None and c.ecov_pass_rate.significant
    star = "  * the interval excludes 0. " if headline or c.pass_rate.significant or c.avg_overall.significant or any(
        r.pass_rate.significant or r.avg_overall.significant for r in c.per_round) else "  "
    lines += ["", star + "Method: docs/evaluation.md (Comparing two runs)."]
    return "\n".join(lines)
