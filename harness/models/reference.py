"""``builtin/reference``: the ceiling row. Answers each task with its own reference testbench.

The reference testbenches (``Task.reference_tbs``) are the calibration testbenches the targets were set
from; ``ecov.harness.tracks.sv.prompts`` never shows them to a model. This builtin reads them from the task record (as
builtin/random reads the RTL) so every benchmark table has a ceiling beside its random floor. Under the
bughunt protocol it answers with the task's self-checking references (``Task.bughunt_tbs``, issue 31). Round r
answers with reference r (the last one once they run out), so an agentic run tries each reference in
turn; direct mode answers with the first. The answer is formatted like an LLM's: the file name, then a
fenced ``systemverilog`` block.
"""

from __future__ import annotations

from ecov.harness.core.protocol import get_protocol
from ecov.harness.models.base import MODEL, Completion, ModelError, ModelRequest
from ecov.harness.registry import register

NAME = "builtin/reference"


class ReferenceModel:
    name = NAME
    # Its answers are a pure function of the request: the leaderboard's build re-makes them (leaderboard/verify.py).
    reproducible = True

    def complete(self, req: ModelRequest) -> Completion:
        bughunt = get_protocol(req.protocol or None).bughunt
        refs = req.task.bughunt_tbs if bughunt else req.task.reference_tbs
        if not refs:
            kind = "self-checking (bug hunt) reference" if bughunt else "reference"
            raise ModelError(f"builtin/reference: task {req.task.id!r} has no {kind} testbench")
        ref = refs[min(req.round, len(refs) - 1)]
        name = ref.name if ref.name.endswith((".sv", ".v", ".svh", ".vh")) else "tb.sv"
        body = ref.content if ref.content.endswith("\n") else ref.content + "\n"
        return Completion(text=f"{name}\n```systemverilog\n{body}```\n", model=NAME)


def make(**_) -> ReferenceModel:
    return ReferenceModel()


register(MODEL, NAME, make)
