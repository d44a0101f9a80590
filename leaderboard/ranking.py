"""Which runs may be ranked: only a run over the benchmark's whole task set, every sample finished, under
its protocol's settings (leaderboard/rules.py: rounds, n, seed). Anything else (a ``--limit 1`` run, a run
with unfinished samples, extra rounds, another seed) is listed apart as partial, with the reason, and
never gets a rank: a 1-task run at 100% must not sit beside the reference ceiling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ecov.harness.core.run_folder import RunConfig, SampleRecord
from ecov.leaderboard.rules import setting_problems


@dataclass(frozen=True)
class Standing:
    """Whether a run is ranked, and in words why not."""

    ranked: bool
    reason: str = ""


def standing(config: RunConfig, samples: Iterable[SampleRecord], full_tasks: frozenset[str] | None) -> Standing:
    """A run is ranked when it covers exactly ``full_tasks`` (the benchmark's task ids), with
    ``n_samples`` finished samples on each, and its settings are the protocol's (rules.setting_problems)."""
    if full_tasks is None or not full_tasks:
        return Standing(False, "the benchmark's task set is not known to this build, so completeness cannot "
                               "be checked")
    per_task = Counter(s.task_id for s in samples)
    done = set(per_task)
    reasons = []
    missing = full_tasks - done
    if missing:
        reasons.append(f"covers {len(done & full_tasks)} of the benchmark's {len(full_tasks)} tasks")
    extra = done - full_tasks
    if extra:
        reasons.append(f"{len(extra)} task(s) not in the benchmark ({', '.join(sorted(extra)[:3])})")
    short = sorted(t for t, k in per_task.items() if k < config.n_samples and t in full_tasks)
    if short:
        reasons.append(f"{len(short)} task(s) have fewer than n={config.n_samples} finished samples")
    reasons += setting_problems(config)
    if reasons:
        return Standing(False, "; ".join(reasons))
    return Standing(True)


def reference_line(model: str) -> str:
    """ECov's own baselines are reference lines, never ranked (issue 32): "ceiling" for builtin/reference,
    "floor" for the random stimulus ones, "baseline" for any other builtin/; "" for a model to rank."""
    if not model.startswith("builtin/"):
        return ""
    if model == "builtin/reference":
        return "ceiling"
    return "floor" if model in ("builtin/random", "builtin/legal-random") else "baseline"
