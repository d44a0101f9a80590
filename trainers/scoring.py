"""The one place trainers/ turns (design, testbench, seed) into a ScoreResult.

Everything that simulates (rollouts, revisions, re-validation) takes the callable ``make_scorer``
returns, so a different executor (e.g. a Ray pool) plugs in here and nowhere else. The engine is the
source runs' track's (``sources_track``): a cocotb run's states are re-scored as Python testbenches.
"""

from __future__ import annotations

from collections.abc import Callable

from ecov.harness.core.records import Design, ScoreResult
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.base import get_track

Scorer = Callable[[Design, str, int], ScoreResult]


def sources_track(sources) -> str | None:
    """The track (tb_lang) the source run folders share; None without sources. Runs of two tracks are
    never mixed: their states are prompted, parsed and scored differently."""
    langs = {RunFolder(s).read_config().tb_lang for s in sources if RunFolder(s).exists()}
    if len(langs) > 1:
        raise ValueError(f"the source runs mix testbench languages ({', '.join(sorted(langs))}); "
                         "train on one track at a time")
    return next(iter(langs), None)


def make_engine(tb_lang: str | None = None):
    """The engine of the track ``tb_lang`` (default sv), with its content-hash cache."""
    return get_track(tb_lang).make_scorer(EngineConfig())


def make_scorer(engine=None, tb_lang: str | None = None) -> Scorer:
    """A scorer from an engine (default: the track's engine with its content-hash cache)."""
    return as_scorer(engine if engine is not None else make_engine(tb_lang))


def as_scorer(engine_or_scorer) -> Scorer:
    """Accept an Engine (anything with ``.score``) or a scorer callable."""
    score = getattr(engine_or_scorer, "score", None)
    return score if callable(score) else engine_or_scorer
