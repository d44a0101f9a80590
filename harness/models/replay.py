"""``builtin/replay``: answer with the responses recorded in an earlier run folder.

Used to re-score a run (new simulator, new metric) without paying for the model again, and by the
leaderboard's verify to re-derive every round of a submission through the agent loop itself. Rounds
are matched by (task_id, sample, round); when a round was written twice (a resumed run), the last wins.
A round that was re-asked (llm4cov protocol) replays its unusable answers first, then the used one; the
round's tokens and cost come with the used one (the record holds their sum over the attempts). An
answer over the length limit is recorded cut (core/limits.py): it is replayed at its recorded length,
so the loop refuses it as it did.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ecov.harness.core.limits import MAX_ANSWER_CHARS, oversized_length
from ecov.harness.core.run_folder import RoundRecord, RunFolder
from ecov.harness.models.base import MODEL, Completion, ModelError, ModelRequest
from ecov.harness.registry import register

MAX_REPLAYED_CHARS = 64 * MAX_ANSWER_CHARS  # an oversized answer is padded back to at most this length


def _as_sent(text: str, error: str) -> str:
    """The recorded (cut) text of an answer the loop refused for its length, padded back to that length."""
    n = oversized_length(error)
    if n is None or n <= len(text):
        return text
    return text + " " * (min(n, MAX_REPLAYED_CHARS) - len(text))


class ReplayModel:
    name = "builtin/replay"

    def __init__(self, run_dir: Path | str | None = None, *, rounds: Iterable[RoundRecord] | None = None,
                 source_model: str = ""):
        """From a run folder, or from ``rounds`` already read (the leaderboard's verify)."""
        if rounds is None:
            folder = RunFolder(run_dir)
            if not folder.rounds_path.exists():
                raise ModelError(f"builtin/replay: {folder.rounds_path} does not exist (not a run folder?)")
            self.run_dir = folder.root
            source_model = folder.read_config().model if folder.exists() else ""
            rounds = folder.rounds()
        else:
            self.run_dir = Path(run_dir or "(recorded rounds)")
        self.source_model = source_model
        self._rounds: dict[tuple[str, int, int], RoundRecord] = {}
        for rec in rounds:
            self._rounds[(rec.task_id, rec.sample, rec.round)] = rec  # dict: read-only after init

    def complete(self, req: ModelRequest) -> Completion:
        key = (req.task.id, req.sample, req.round)
        rec = self._rounds.get(key)
        if rec is None:
            have = sorted(r + 1 for (t, s, r) in self._rounds if t == req.task.id and s == req.sample)  # 1-based
            hint = f"recorded rounds for this sample: {have}" if have else "no rounds recorded for this sample"
            raise ModelError(f"builtin/replay: {self.run_dir} has no response for task {req.task.id!r} "
                             f"sample {req.sample} round {req.round + 1} ({hint})")
        rejected = rec.rejected_responses or []
        if req.attempt < len(rejected):  # a re-asked round: replay the unusable answers first, in order
            reasons, finishes = rec.reask_reasons or [], rec.rejected_finish or []
            finish = finishes[req.attempt] if req.attempt < len(finishes) else ""
            text = _as_sent(rejected[req.attempt], reasons[req.attempt] if req.attempt < len(reasons) else "")
            return Completion(text=text, cached=True, model=self.source_model or self.name, finish_reason=finish)
        return Completion(text=_as_sent(rec.response, rec.parse_error), prompt_tokens=rec.prompt_tokens,
                          completion_tokens=rec.completion_tokens, cost=rec.cost, cached=True,
                          model=self.source_model or self.name, finish_reason=rec.finish_reason)


def make(*, replay_run: Path | str | None = None, **_) -> ReplayModel:
    if replay_run is None:
        raise ModelError("builtin/replay needs replay_run (the run folder to replay)")
    return ReplayModel(replay_run)


register(MODEL, ReplayModel.name, make)
