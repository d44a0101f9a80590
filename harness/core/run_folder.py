"""The run folder: the one contract between evaluation, leaderboard and trainers.

Layout::

    RUN_DIR/
      config.json      RunConfig: model, mode, options, dataset id and hash, versions, seeds
      rounds.jsonl     one RoundRecord per (task, sample, round), appended as each round is scored
      samples.jsonl    one SampleRecord per finished (task, sample); its presence marks the sample done
      summary.json     metrics over samples.jsonl (ecov.harness.evaluation.metrics), rewritten atomically
      logs/TASK/       per-task logs (prompts, responses, simulator output)

JSONL files are appended a whole line at a time and fsynced; a torn last line (the process died while
writing) is ignored on read and cut off (``repair_jsonl``) before a resumed run appends again, so a
killed run loses at most the round in flight and resumes from samples.jsonl.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.protocol import DEFAULT_PROTOCOL
from ecov.harness.core.records import ScoreResult

SCHEMA_VERSION = 1


@dataclass
class RunConfig:
    model: str
    mode: str  # direct | agentic
    agent: str  # memoryless | history | direct
    benchmark: str
    dataset_hash: str
    n_samples: int = 1
    max_rounds: int = 0  # 0: the protocol's (resolved and written by ecov.harness.evaluation.runner)
    temperature: float = 0.7
    top_p: float = 0.8
    max_tokens: int = 8192
    seed: int = 1
    api_base: str | None = None
    harness_version: str = ""
    verilator_version: str = ""
    created: str = ""
    split: str = "test"
    task_ids: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION
    # The evaluation protocol (ecov.harness.core.protocol): llm4cov (the paper's loop) or ecov. Runs written before
    # protocols existed carry none and read as "ecov", the loop they ran.
    protocol: str = DEFAULT_PROTOCOL
    tb_lang: str = "sv"  # testbench language track: sv | cocotb (ecov.harness.tracks.cocotb); never ranked together

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunConfig:
        known = set(cls.__dataclass_fields__)
        d = {"protocol": "ecov", **d}
        return cls(**{k: v for k, v in d.items() if k in known})

    def identity(self) -> dict[str, Any]:
        """The fields a resumed run must share with the run it continues."""
        keys = ("model", "mode", "agent", "benchmark", "dataset_hash", "max_rounds", "temperature",
                "top_p", "max_tokens", "seed", "split", "protocol", "tb_lang")
        return {k: getattr(self, k) for k in keys}


@dataclass
class RoundRecord:
    task_id: str
    sample: int
    round: int  # 0-based
    # sha256 of the exact chat sent this round (tracks/sv/prompts.prompt_hash, written by the agent loop):
    # the leaderboard's verify rebuilds the chat for the claimed protocol and track and compares it.
    prompt_hash: str
    response: str
    testbench: str  # the testbench that was scored this round ("" when the response could not be used)
    parse_error: str  # why the response gave no testbench, "" when it did
    feedback: str  # o_t rendered for the next round
    result: dict[str, Any]  # ScoreResult.to_dict()
    passed: bool
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    seconds: float = 0.0
    messages: list[dict[str, str]] | None = None  # the exact chat sent (kept for training rows)
    finish_reason: str = ""  # the provider's finish reason for ``response``
    # Format re-asks (llm4cov protocol): unusable answers asked again with the same chat before this
    # round's ``response``; they spend no round. Their texts are kept for audit and builtin/replay.
    reasks: int = 0
    reask_reasons: list[str] = field(default_factory=list)
    rejected_responses: list[str] = field(default_factory=list)
    rejected_finish: list[str] = field(default_factory=list)
    state_round: int | None = None  # the round whose testbench and feedback the prompt showed (None: none)
    new_best: bool = False  # this round's state replaced the memory (llm4cov: a new best)
    # The task's contract (issue 22): targets met on legal coverage this round; None without a contract.
    legal_passed: bool | None = None
    # Transient faults (429, 5xx, timeouts, answers without a message) retried before this round's
    # answers, and the API seed each request sent (re-asks included; None when the provider takes none).
    retries: int = 0
    api_seeds: list[int | None] = field(default_factory=list)
    # The bug hunt (issue 31): no false alarm and the task's kill-rate target met this round; None outside
    # the bughunt protocol (and then absent from the record).
    bughunt_passed: bool | None = None

    def score(self) -> ScoreResult:
        return ScoreResult.from_dict(self.result)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if self.bughunt_passed is None:
            d.pop("bughunt_passed")
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RoundRecord:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class SampleRecord:
    task_id: str
    sample: int
    rounds: int
    passed: bool
    passed_round: int | None  # first round (0-based) at which all targets were met
    syntax_ok: bool  # the final testbench compiled and ran
    final_overall: float
    best_overall: float
    overall_by_round: list[float]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    error: str = ""  # why the sample ended early (a model error after retries); "" when it ran normally
    # Added with protocols (absent in older runs; ecov.harness.evaluation.metrics falls back on the fields above).
    protocol: str = ""
    best_round: int | None = None  # the round of the best state (ran, has coverage, met targets, overall)
    best_state_overall: float | None = None  # that state's overall: the llm4cov Avg Cov of the sample
    best_overall_by_round: list[float] = field(default_factory=list)  # best state's overall after each round
    reasks: int = 0  # format re-asks over all rounds
    stop_reason: str = ""  # full_coverage | targets_met | rounds | format | model_error
    # Legal figures (issue 22), only for tasks with a contract: first round whose targets were met on
    # legal coverage, the legal overall per round, and whether the last scored round broke a rule.
    contract: bool = False
    legal_passed_round: int | None = None
    legal_overall_by_round: list[float] = field(default_factory=list)
    violated: bool = False
    # The contract's bins (issue 32): the most that one scored round hit before its first broken rule,
    # and how many the contract has; None without a contract (or in records from before bins were kept).
    legal_bins_hit: int | None = None
    legal_bins: int | None = None
    # The bug hunt (issue 31), only under the bughunt protocol: the final round's ``status``, ``killed``,
    # ``total``, ``kill_rate`` (% of the task's killable mutants), ``false_alarm`` and ``passed`` (target met),
    # and ``kill_rate_by_round``. Absent from the record otherwise.
    bughunt: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.bughunt:
            d.pop("bughunt")
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SampleRecord:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


def write_json_atomic(path: Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True), fsync=True)


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    line = json.dumps(record, sort_keys=True) + "\n"
    with open(path, "a") as f:
        f.write(line)
        f.flush()
        os.fsync(f.fileno())


def repair_jsonl(path: Path) -> int:
    """Cut a torn last line (a writer killed mid-line) so that the next append starts a line of its own;
    returns the bytes cut. Without this the next record would be glued to the torn one and lost."""
    try:
        with open(path, "rb+") as f:
            data = f.read()
            if not data or data.endswith(b"\n"):
                return 0
            keep = data.rfind(b"\n") + 1
            f.truncate(keep)
            f.flush()
            os.fsync(f.fileno())
            return len(data) - keep
    except FileNotFoundError:
        return 0


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        return
    with open(path) as f:
        for line in f:
            if not line.endswith("\n"):
                break  # torn last line from a killed writer
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


class RunFolder:
    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)

    config_path = property(lambda self: self.root / "config.json")
    rounds_path = property(lambda self: self.root / "rounds.jsonl")
    samples_path = property(lambda self: self.root / "samples.jsonl")
    summary_path = property(lambda self: self.root / "summary.json")

    def log_dir(self, task_id: str) -> Path:
        d = self.root / "logs" / task_id.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        return d

    def exists(self) -> bool:
        return self.config_path.exists()

    def write_config(self, config: RunConfig) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.config_path, config.to_dict())

    def read_config(self) -> RunConfig:
        return RunConfig.from_dict(json.loads(self.config_path.read_text()))

    def append_round(self, rec: RoundRecord) -> None:
        append_jsonl(self.rounds_path, rec.to_dict())

    def append_sample(self, rec: SampleRecord) -> None:
        append_jsonl(self.samples_path, rec.to_dict())

    def rounds(self) -> list[RoundRecord]:
        return [RoundRecord.from_dict(d) for d in read_jsonl(self.rounds_path)]

    def samples(self) -> list[SampleRecord]:
        """Finished samples, the last record winning if a sample was written twice."""
        seen: dict[tuple[str, int], SampleRecord] = {}
        for d in read_jsonl(self.samples_path):
            rec = SampleRecord.from_dict(d)
            seen[(rec.task_id, rec.sample)] = rec
        return list(seen.values())

    def done(self) -> set[tuple[str, int]]:
        return {(s.task_id, s.sample) for s in self.samples()}

    def write_summary(self, summary: dict[str, Any]) -> None:
        write_json_atomic(self.summary_path, summary)

    def read_summary(self) -> dict[str, Any]:
        return json.loads(self.summary_path.read_text())
