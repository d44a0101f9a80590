"""``builtin/replay``: answer with the responses recorded in an earlier run folder.

Used to re-score a run (new simulator, new metric) without paying for the model again. Rounds are
matched by (task_id, sample, round); when a round was written twice (a resumed run), the last wins.
A round that was re-asked (llm4cov protocol) replays its unusable answers first, then the used one.
"""

from __future__ import annotations

from pathlib import Path

from ecov.harness.core.run_folder import RoundRecord, RunFolder
from ecov.harness.models.base import MODEL, Completion, ModelError, ModelRequest
from ecov.harness.registry import register


class ReplayModel:
    name = "builtin/replay"

    def __init__(self, run_dir: Path | str):
        folder = RunFolder(run_dir)
        if not folder.rounds_path.exists():
            raise ModelError(f"builtin/replay: {folder.rounds_path} does not exist (not a run folder?)")
        self.run_dir = folder.root
        self.source_model = folder.read_config().model if folder.exists() else ""
        self._rounds: dict[tuple[str, int, int], RoundRecord] = {}
        for rec in folder.rounds():
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
            text, finish = rejected[req.attempt], (rec.rejected_finish or [""] * len(rejected))[req.attempt]
        else:
            text, finish = rec.response, rec.finish_reason
        return Completion(text=text, prompt_tokens=rec.prompt_tokens,
                          completion_tokens=rec.completion_tokens, cost=rec.cost, cached=True,
                          model=self.source_model or self.name, finish_reason=finish)


def make(*, replay_run: Path | str | None = None, **_) -> ReplayModel:
    if replay_run is None:
        raise ModelError("builtin/replay needs replay_run (the run folder to replay)")
    return ReplayModel(replay_run)


register(MODEL, ReplayModel.name, make)
