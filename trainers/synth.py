"""Turn ecov-eval run folders into states and single-step training rows.

The agent is memoryless (LLM4Cov): a state is (task, x_t, o_t) = the task, the current testbench and
the feedback on it, and the policy maps a state to the next response. A recorded round r gives
state s_r = (task, testbench in force after round r, feedback of round r); the training target for
s_r is the response of round r+1. Round 0's response answers the initial state (task, None, None).

Prompts are rebuilt with the run's track (``tb_io(protocol, tb_lang).messages``), the one definition evaluation uses, so a
training prompt is byte-for-byte the text the model sees at evaluation; when a round recorded the
chat it was sent, the rebuilt prompt is compared to it and mismatches are counted in the stats.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.run_folder import RunFolder, read_jsonl
from ecov.harness.core.state import StateTracker
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import tb_io
from ecov.trainers.runview import Round, RunView, prompt_digest, view_of


@dataclass
class State:
    """A point the student reached: the testbench in force and the feedback it got."""

    task_id: str
    sample: int
    round: int
    testbench: str
    feedback: str
    coverage: float  # see coverage_of
    status: str
    passed: bool
    source: str = ""  # run folder it came from
    result: dict[str, Any] = field(default_factory=dict, repr=False)  # ScoreResult.to_dict()
    response: str = field(default="", repr=False)  # the answer that produced the testbench (replayed in rollouts)
    selected_as: str = ""  # llm4cov selection: xrun_fail | worst | median | best | random

    @property
    def key(self) -> str:
        return f"{self.task_id}#s{self.sample}r{self.round}@{Path(self.source).name}"

    def to_dict(self, with_result: bool = False) -> dict[str, Any]:
        d = asdict(self)
        d["key"] = self.key
        if not with_result:
            d.pop("result")
            d.pop("response")
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class Row:
    """One training example: the chat prompt of a state and the assistant response to learn.

    Serialised with ``prompt`` / ``completion`` columns (trl's conversational prompt-completion format),
    so rows.jsonl loads straight into ``datasets`` and the loss covers the response only.
    """

    task_id: str
    stage: int
    prompt: list[dict[str, str]]
    response: str
    state: dict[str, Any]  # key, sample, round, coverage of the state the prompt shows
    source: str  # run folder (stage 0) or reviser model (stages 1, 2)
    meta: dict[str, Any] = field(default_factory=dict)  # parse_error, status, coverage, gain, ...

    @property
    def messages(self) -> list[dict[str, str]]:
        return [*self.prompt, {"role": "assistant", "content": self.response}]

    @property
    def key(self) -> str:
        return f"{self.state.get('key', self.task_id)}->{self.meta.get('candidate', 'next')}"

    def digest(self) -> str:
        blob = json.dumps([self.prompt, self.response], sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "stage": self.stage,
            "prompt": self.prompt,
            "completion": [{"role": "assistant", "content": self.response}],
            "state": self.state,
            "source": self.source,
            "meta": self.meta,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Row:
        completion = d.get("completion") or []
        response = completion[-1]["content"] if completion else d.get("response", "")
        return cls(d["task_id"], int(d["stage"]), d["prompt"], response, d.get("state") or {},
                   d.get("source", ""), d.get("meta") or {})


# -- tasks -------------------------------------------------------------------------------------------

class NoTasks(ValueError):
    """The configured task source holds no tasks, or lines that are not task records."""


def load_tasks(benchmark: str = "", split: str = "train", path: str = "") -> dict[str, Task]:
    """Tasks by id, from a JSONL file of Task.to_dict() lines or through ecov.harness.benchmark.store."""
    if path:
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"task file not found: {p}")
        try:
            tasks = [Task.from_dict(d) for d in read_jsonl(p)]
        except (KeyError, TypeError, ValueError) as e:
            raise NoTasks(f"{p}: a line is not a task record ({type(e).__name__}: {e})") from None
    else:
        from ecov.harness.benchmark.store import load_benchmark

        tasks = list(load_benchmark(benchmark, split))
    if not tasks:
        raise NoTasks(f"no tasks in {path or benchmark!r} (split {split!r})")
    return {t.id: t for t in tasks}


def write_tasks(path: Path, tasks: list[Task]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(t.to_dict(), sort_keys=True) + "\n" for t in tasks))


# -- states ----------------------------------------------------------------------------------------

def _current_testbenches(rounds: list[Round]) -> list[str]:
    """x_t after each round: the round's testbench, or the one before when the response gave none."""
    out, cur = [], ""
    for r in rounds:
        cur = r.testbench or cur
        out.append(cur)
    return out


def states_from_run(run: RunFolder | RunView, tasks: dict[str, Task], coverage: str = "overall") -> list[State]:
    """Every state a recorded run reached that has a testbench to revise."""
    view = view_of(run, tasks, coverage, keep_result=True)
    out: list[State] = []
    for (task_id, sample), rounds in view.trajectories.items():
        if task_id not in tasks:
            continue
        for r, tb in zip(rounds, _current_testbenches(rounds), strict=True):
            if not r.testbench:
                continue  # the response gave no testbench: the state is the previous one, seen already
            out.append(State(task_id, sample, r.round, tb, r.feedback, round(r.coverage, 2), r.status,
                             r.passed, str(view.root), r.result or {}))
    return out


@dataclass
class SynthStats:
    rounds: int = 0
    rows: int = 0
    unknown_task: int = 0
    prompt_checked: int = 0
    prompt_mismatch: int = 0
    mismatch_keys: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def trajectory_rows(run: RunFolder | RunView, tasks: dict[str, Task], stage: int = 0,
                    coverage: str = "overall") -> tuple[list[Row], SynthStats]:
    """Stage-0 rows: every recorded response, paired with the state it answered.

    Row meta keeps what the run recorded about the response (parse_error, status, coverage, passed)
    so that curation can drop unusable responses without simulating again.
    """
    stats = SynthStats()
    rows = list(iter_trajectory_rows(view_of(run, tasks, coverage), tasks, stats, stage))
    stats.rows = len(rows)
    return rows, stats


def iter_trajectory_rows(view: RunView, tasks: dict[str, Task], stats: SynthStats, stage: int = 0) -> Iterator[Row]:
    """The rows of ``trajectory_rows``, one at a time, counting into ``stats`` as they go."""
    config = view.config
    proto = get_protocol(config.protocol if config else None)
    io = tb_io(proto, config.tb_lang if config else None)  # the run's track: its prompts, as evaluation built them
    source = str(view.root)
    for (task_id, sample), rounds in view.trajectories.items():
        stats.rounds += len(rounds)
        task = tasks.get(task_id)
        if task is None:
            stats.unknown_task += len(rounds)
            continue
        current = _current_testbenches(rounds)
        prev_tb: str | None = None
        prev_fb: str | None = None
        prev_cov = 0.0
        prev_round = -1
        # The protocol's state tracker, replayed over the scored rounds as the agent ran it: under best-state
        # memory (llm4cov) the prompt showed the best state so far, not the last one.
        states: StateTracker[tuple[str, str, int, float]] = StateTracker(proto)
        for i, r in enumerate(rounds):
            if proto.memory == "best" and states.best is not None:
                prev_tb, prev_fb, prev_round, prev_cov = states.best
            prompt = io.messages(task, prev_tb, prev_fb)
            if r.prompt is not None:
                stats.prompt_checked += 1
                if r.prompt != prompt_digest(prompt):
                    stats.prompt_mismatch += 1
                    stats.mismatch_keys.append(f"{task_id}#s{sample}r{r.round}")
            cov = r.coverage
            if r.testbench:
                states.add(r.key, (r.testbench, r.feedback, r.round, cov))
            state = {"key": f"{task_id}#s{sample}r{prev_round}@{view.root.name}", "sample": sample,
                     "round": prev_round, "coverage": round(prev_cov, 2)}
            meta = {"parse_error": r.parse_error, "status": r.status, "coverage": round(cov, 2),
                    "gain": round(cov - prev_cov, 2), "passed": r.passed, "round": r.round,
                    "errors": r.errors, "state_testbench": prev_tb or ""}
            yield Row(task_id, stage, prompt, r.response, state, source, meta)
            # The next state (as ecov.harness.loop.agent builds it): the testbench in force after this round,
            # None while no answer gave one, and this round's feedback (the parse error when unusable).
            prev_tb, prev_fb, prev_round = current[i] or None, r.feedback, r.round
            if r.testbench:
                prev_cov = cov


def write_rows(path: Path, rows: list[Row]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r.to_dict(), sort_keys=True) + "\n")


def read_rows(path: Path) -> list[Row]:
    if not Path(path).is_file():
        raise FileNotFoundError(f"rows file not found: {path}")
    return [Row.from_dict(d) for d in read_jsonl(Path(path))]
