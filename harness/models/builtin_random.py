"""``builtin/random``: the constrained-random baseline every LLM must beat.

It reads no chat. The stimulus plan (ports, clocks and resets, phase-varying bias mixes, reseeded segments
kept across agentic rounds) is ecov.harness.tracks.random_plan; the run's track renders it in its
testbench language (``Track.random_answer``), so this model knows no testbench language itself. The text
is a pure function of (task, sample, round, seed, last result).
"""

from __future__ import annotations

from ecov.harness.models.base import MODEL, Completion, ModelError, ModelRequest
from ecov.harness.registry import register
from ecov.harness.tracks.base import get_track
from ecov.harness.tracks.random_plan import PlanError

NAME = "builtin/random"


class RandomModel:
    name = NAME
    # Its answers are a pure function of the request: the leaderboard's build re-makes them (leaderboard/verify.py).
    reproducible = True

    def __init__(self, cycles: int | None = None):
        """``cycles``: the round-0 run length; None: the track's own (Python stimulus starts shorter)."""
        if cycles is not None and cycles < 1:
            raise ModelError(f"builtin/random: cycles must be positive, got {cycles}")
        self.cycles = cycles

    def complete(self, req: ModelRequest) -> Completion:
        try:
            text = get_track(req.tb_lang).random_answer(req, self.cycles)
        except PlanError as e:
            raise ModelError(str(e)) from e
        return Completion(text=text, model=NAME)


def make(*, extra: dict | None = None, **_) -> RandomModel:
    """get_model's factory: ``extra`` may hold ``cycles`` (the round-0 run length)."""
    cycles = (extra or {}).get("cycles")
    return RandomModel(cycles=None if cycles is None else int(cycles))


register(MODEL, NAME, make)
