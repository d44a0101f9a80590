"""The numbers the leaderboard shows, recomputed from a run's records.

The site does not show summary.json as submitted: it recomputes the summary from samples.jsonl with
``harness.metrics.summarize`` (the same definitions ecov-eval uses, docs/evaluation.md), and ``verify``
checks samples.jsonl against re-scored rounds. This module adds the few views the site needs on top.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.metrics import summarize
from harness.results import RoundRecord, RunConfig, SampleRecord


@dataclass
class RunView:
    """One run as the site needs it: config, summary (recomputed), per-sample coverages, rounds."""

    config: RunConfig
    summary: dict[str, Any]
    samples: list[SampleRecord]
    coverages: list[float] = field(default_factory=list)  # final overall per sample, for histograms

    def pct(self, key: str) -> float:
        return float(self.summary.get(key) or 0.0)

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
    def tokens(self) -> int:
        return int(self.summary.get("prompt_tokens") or 0) + int(self.summary.get("completion_tokens") or 0)

    @property
    def tokens_per_sample(self) -> float:
        n = len(self.samples)
        return self.tokens / n if n else 0.0


def run_view(config: RunConfig, samples: list[SampleRecord]) -> RunView:
    summary = summarize(samples, config.max_rounds, protocol=config.protocol)
    ordered = sorted(samples, key=lambda s: (s.task_id, s.sample))
    return RunView(config, summary, ordered, [s.final_overall for s in ordered])


def group_rounds(rounds: list[RoundRecord]) -> dict[tuple[str, int], list[RoundRecord]]:
    """Rounds by (task, sample) in file order; a round 0 starts a new attempt (as harness.run reads them)."""
    out: dict[tuple[str, int], list[RoundRecord]] = {}
    for r in rounds:
        key = (r.task_id, r.sample)
        if r.round == 0 or key not in out:
            out[key] = []
        out[key].append(r)
    return {k: sorted(v, key=lambda r: r.round) for k, v in sorted(out.items())}


def histogram(values: list[float], bins: int = 10, lo: float = 0.0, hi: float = 100.0) -> list[int]:
    """Counts of values in ``bins`` equal bins over [lo, hi]; hi itself falls in the last bin."""
    counts = [0] * bins
    width = (hi - lo) / bins
    for v in values:
        i = int((min(max(v, lo), hi) - lo) / width)
        counts[min(i, bins - 1)] += 1
    return counts
