"""The one place trainers/ turns (design, testbench, seed) into a ScoreResult.

Everything that simulates goes through an executor (ecov.harness.scoring.executor): ``as_executor``
gives the one the CLI built (``--executor ray --ray-address ...``: builds and simulations on a Ray
cluster) or a local one around the engine. Rollouts call its ``score`` from their sample threads;
revisions and re-validation hand it their candidates at once (``score_all``), ``parallelism`` in flight.
The engine is the source runs' track's (``sources_track``): a cocotb run's states are re-scored as
Python testbenches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from ecov.harness.core.records import Design, ScoreResult
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.loop.agent import safe_score
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.scoring.executor import Executor, LocalExecutor
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


class _ScorerEngine:
    """A bare scorer callable in the shape LocalExecutor wraps."""

    isolation = "caller's"

    def __init__(self, scorer: Scorer):
        self.score = scorer


def as_executor(engine=None, tb_lang: str | None = None, workers: int = 2) -> Executor:
    """``engine`` when it is an Executor (local or Ray, built by the CLI), else a LocalExecutor with
    ``workers`` jobs at once around it (an Engine or a scorer callable; default: the track's engine)."""
    if isinstance(engine, Executor):
        return engine
    if engine is None:
        engine = make_engine(tb_lang)
    return LocalExecutor(engine if callable(getattr(engine, "score", None)) else _ScorerEngine(engine), workers)


def score_all(executor: Executor, jobs: Sequence[tuple[Design, str, int]]) -> list[ScoreResult]:
    """Every job through ``executor``, ``executor.parallelism`` at once, results in order; an exception
    becomes that job's infra_error result (ecov.harness.loop.agent.safe_score)."""
    width = max(1, min(executor.parallelism, len(jobs)))
    if width == 1:
        return [safe_score(executor, *job) for job in jobs]
    with ThreadPoolExecutor(max_workers=width) as pool:
        return list(pool.map(lambda job: safe_score(executor, *job), jobs))
