"""Which runs may be ranked: only a run this build verified (every figure re-derived and reproduced), over
the benchmark's whole task set, every sample finished, under its protocol's settings (leaderboard/rules.py:
rounds, n, seed). Anything else (a run whose figures differ, an error, a run not verified by this build, a
``--limit 1`` run, unfinished samples, extra rounds, another seed) is listed apart with the reason, and
never gets a rank: a 1-task run at 100% must not sit beside the reference ceiling, nor a claim that does
not reproduce above an honest row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ecov.harness.core.run_folder import RunConfig, SampleRecord
from ecov.leaderboard.rules import setting_problems

VERIFIED = "verified"  # the verdict of a verification whose every figure reproduced (leaderboard/verify.py)
# Why a verdict other than verified is not ranked, in words.
NOT_REPRODUCED = {
    None: "not verified by this build (only `ecov-leaderboard build --verify` ranks)",
    "differs": "its figures do not reproduce when re-derived from its re-scored rounds",
    "failed": "refused by the test rules or integrity checks when re-scored",
    "error": "could not be verified",
}


@dataclass(frozen=True)
class Standing:
    """Whether a run is ranked, and in words why not."""

    ranked: bool
    reason: str = ""


def standing(config: RunConfig, samples: Iterable[SampleRecord], full_tasks: frozenset[str] | None, *,
             verdict: str | None) -> Standing:
    """A run is ranked when this build verified it (``verdict`` "verified"; None when it did not verify it),
    it covers exactly ``full_tasks`` (the benchmark's task ids), with ``n_samples`` finished samples on
    each, and its settings are the protocol's (rules.setting_problems)."""
    reasons = []
    if verdict != VERIFIED:
        reasons.append(NOT_REPRODUCED.get(verdict, f"verdict {verdict}"))
    if full_tasks is None or not full_tasks:
        reasons.append("the benchmark's task set is not known to this build, so completeness cannot be checked")
        return Standing(False, "; ".join(reasons))
    samples = list(samples)
    # A sample that ended on a fault is left out of every figure (metrics.summarize): not a finished one.
    per_task = Counter(s.task_id for s in samples if not s.error)
    faults = sum(1 for s in samples if s.error)
    if faults:
        reasons.append(f"{faults} sample(s) ended on a fault (a model or harness error), so the run is unfinished")
    done = set(per_task) | {s.task_id for s in samples}
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
