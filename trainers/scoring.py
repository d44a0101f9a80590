"""The one place trainers/ turns (design, testbench, seed) into a ScoreResult.

Everything that simulates (rollouts, revisions, re-validation) takes the callable ``make_scorer``
returns, so a different executor (e.g. a Ray pool) plugs in here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable

from ecov.harness.records import Design, ScoreResult

Scorer = Callable[[Design, str, int], ScoreResult]


def make_engine():
    from ecov.harness.engine import Engine, EngineConfig

    return Engine(EngineConfig())


def make_scorer(engine=None) -> Scorer:
    """A scorer from an engine (default: the harness engine with its content-hash cache)."""
    return as_scorer(engine if engine is not None else make_engine())


def as_scorer(engine_or_scorer) -> Scorer:
    """Accept an Engine (anything with ``.score``) or a scorer callable."""
    score = getattr(engine_or_scorer, "score", None)
    return score if callable(score) else engine_or_scorer
