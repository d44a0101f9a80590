"""``builtin/golden-capture``: the bug hunt's oracle row (issue 31).

builtin/random's stimulus, checked every stimulus cycle against the outputs the golden design gave on that
same stimulus (recorded by the harness in a run of its own; ecov.harness.tracks.sv.golden_capture). It is
the ceiling of checking random stimulus: it catches every mutant the random stimulus makes visible at a
sampled cycle, which a model can only match by predicting the outputs from the specification. It reads the
RTL (to run it), like builtin/random, so it is a baseline row, never a model's result. SystemVerilog only:
the run's track must offer it (``Track.golden_capture``).
"""

from __future__ import annotations

from ecov.harness.models.base import MODEL, Completion, ModelError, ModelRequest
from ecov.harness.registry import register
from ecov.harness.tracks.base import get_track
from ecov.harness.tracks.random_plan import PlanError

NAME = "builtin/golden-capture"


class GoldenCaptureModel:
    name = NAME
    # Its answers are a function of the request (builtin/random's plan, the golden design's outputs on it, in a
    # harness run that the same seed and simulator repeat): the leaderboard's build re-makes them, so its row is
    # the build's own (leaderboard/site.py admits a baseline only then).
    reproducible = True

    def __init__(self, cycles: int | None = None):
        if cycles is not None and cycles < 1:
            raise ModelError(f"{NAME}: cycles must be positive, got {cycles}")
        self.cycles = cycles

    def complete(self, req: ModelRequest) -> Completion:
        track = get_track(req.tb_lang)
        if track.golden_capture is None:
            raise ModelError(f"{NAME}: the {track.name} track has no golden-capture testbench (SystemVerilog only)")
        try:
            text = track.golden_capture(req, self.cycles)
        except (PlanError, RuntimeError) as e:  # a capture that cannot run is the harness's failure, named
            raise ModelError(f"{NAME}: {e}") from e
        return Completion(text=text, model=NAME)


def make(*, extra: dict | None = None, **_) -> GoldenCaptureModel:
    """get_model's factory: ``extra`` may hold ``cycles`` (the round-0 run length, as builtin/random's)."""
    cycles = (extra or {}).get("cycles")
    return GoldenCaptureModel(cycles=None if cycles is None else int(cycles))


register(MODEL, NAME, make)
