"""One streaming pass over an ecov-eval run folder, keeping of each round only what trainers use.

``read_finished`` reads samples.jsonl for the finished samples (keys and errors), then rounds.jsonl a
line at a time, groups the lines of finished samples as ``ecov.harness.evaluation.runner.finished_rounds``
does (the rounds of each sample's last attempt, in order) and drops the others as read. ``read_run`` turns
each kept line into a ``Round``: the recorded chat becomes a digest, the score its status, coverage,
first errors and state key (the full result only when asked). A synth reads each source folder once,
into one ``RunView``, and every step of its recipe works from that.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ecov.harness.core.records import OK, ScoreResult, Target
from ecov.harness.core.run_folder import RunConfig, RunFolder, read_jsonl
from ecov.harness.core.state import StateKey, key_of
from ecov.harness.tasks import Task
from ecov.trainers.inject import strip_rules

T = TypeVar("T")
Key = tuple[str, int]


def coverage_of(result: ScoreResult, targets: list[Target], mode: str = "overall") -> float:
    """The number states are ranked by and gains are measured in (percentage points).

    ``overall``: the DUT's overall % (mean of line/branch/toggle/expr), what the leaderboard reports.
    ``targets``: the mean over the task's targets of the targeted metric's %, i.e. progress on exactly
    what the pass criterion checks. A testbench that did not compile has coverage 0 either way.
    """
    if not result.compiled:
        return 0.0
    if mode == "overall":
        return float(result.overall)
    if mode == "targets":
        if not targets:
            return float(result.overall)
        return sum(result.metric_percent(t.instance, t.metric) for t in targets) / len(targets)
    raise ValueError(f"unknown coverage mode {mode!r} (overall | targets)")


def prompt_digest(messages: list[dict[str, str]]) -> str:
    """Equal digests <=> equal chats (role and content of each message)."""
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()


@dataclass
class Finished:
    """The finished samples of a run folder: their last attempt's rounds, converted, in (task, sample) order."""

    trajectories: dict[Key, list[Any]]
    task_ids: set[str]  # every task id in rounds.jsonl, finished or not
    errors: dict[Key, str]  # SampleRecord.error of each finished sample (the last record winning)


def read_finished(folder: RunFolder, convert: Callable[[dict[str, Any]], T]) -> Finished:
    """One pass over samples.jsonl, then one over rounds.jsonl; ``convert`` sees each line of a finished sample."""
    errors: dict[Key, str] = {}
    for d in read_jsonl(folder.samples_path):
        errors[(d["task_id"], int(d["sample"]))] = d.get("error", "")
    out: dict[Key, list[T]] = {}
    task_ids: set[str] = set()
    for d in read_jsonl(folder.rounds_path):
        key = (d["task_id"], int(d["sample"]))
        task_ids.add(key[0])
        if key not in errors:
            continue
        if d["round"] == 0:
            out[key] = []
        out.setdefault(key, []).append(convert(d))
    return Finished(dict(sorted(out.items())), task_ids, errors)


@dataclass(slots=True)
class Round:
    """What a training row or a state needs of one recorded round."""

    task_id: str
    sample: int
    round: int
    response: str
    testbench: str
    parse_error: str
    feedback: str
    passed: bool
    status: str
    coverage: float  # coverage_of(result, the task's targets, mode); 0 for a task not in the task set
    errors: list[str]  # the first three
    key: StateKey  # ecov.harness.core.state.round_key
    prompt: str | None  # prompt_digest of the chat sent, rules stripped; None when the run kept none
    result: dict[str, Any] | None = None  # ScoreResult.to_dict(), with keep_result only


def to_round(d: dict[str, Any], task: Task | None, mode: str, keep_result: bool) -> Round:
    res = ScoreResult.from_dict(d["result"])
    msgs = d.get("messages")
    prompt = prompt_digest(strip_rules([{"role": m["role"], "content": m["content"]} for m in msgs])[0]) \
        if msgs else None
    return Round(d["task_id"], int(d["sample"]), int(d["round"]), d["response"], d["testbench"], d["parse_error"],
                 d["feedback"], bool(d["passed"]), res.status,
                 coverage_of(res, task.targets, mode) if task is not None else 0.0, res.errors[:3],
                 key_of(res, bool(d["passed"])), prompt, d["result"] if keep_result else None)


@dataclass
class RunView:
    """What the trainers read of one run folder, read once (``read_run``)."""

    root: Path
    config: RunConfig | None
    trajectories: dict[Key, list[Round]] = field(default_factory=dict)
    task_ids: set[str] = field(default_factory=set)
    coverage: str = "overall"
    results: bool = False  # each Round keeps its full result


def read_run(run: RunFolder, tasks: dict[str, Task], coverage: str = "overall", keep_result: bool = False) -> RunView:
    """Stream ``run`` into a RunView; coverage is measured by ``coverage`` against ``tasks``' targets."""
    if not run.rounds_path.exists():
        raise FileNotFoundError(f"not an ecov-eval run folder (no rounds.jsonl): {run.root}")
    coverage_of(ScoreResult(OK), [], coverage)  # an unknown mode fails before the pass
    fin = read_finished(run, lambda d: to_round(d, tasks.get(d["task_id"]), coverage, keep_result))
    config = run.read_config() if run.exists() else None
    return RunView(run.root, config, fin.trajectories, fin.task_ids, coverage, keep_result)


def view_of(run: RunFolder | RunView, tasks: dict[str, Task], coverage: str = "overall",
            keep_result: bool = False) -> RunView:
    """``run`` itself when already read as asked, else ``read_run``."""
    if isinstance(run, RunView):
        if run.coverage != coverage or (keep_result and not run.results):
            raise ValueError(f"{run.root} was read with coverage {run.coverage!r} (results kept: {run.results}), "
                             f"not {coverage!r} (results: {keep_result})")
        return run
    return read_run(run, tasks, coverage, keep_result)
