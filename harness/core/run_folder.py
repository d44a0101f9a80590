"""The run folder: the one contract between evaluation, leaderboard and trainers.

Layout::

    RUN_DIR/
      config.json      RunConfig: model, mode, options, dataset id and hash, versions, seeds
      rounds.jsonl     one RoundRecord per (task, sample, round), appended as each round is scored
      samples.jsonl    one SampleRecord per finished (task, sample); its presence marks the sample done
      summary.json     metrics over samples.jsonl (ecov.harness.evaluation.metrics), rewritten atomically
      logs/TASK/       per-task logs (prompts, responses, simulator output)

JSONL files are appended a whole line at a time and fsynced; a torn last line (the process died while
writing) is ignored on read, so a killed run loses at most the round in flight and resumes from
samples.jsonl.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ecov.harness.atomic import write_text_atomic
from ecov.harness.core.protocol import DEFAULT_PROTOCOL
from ecov.harness.records import ScoreResult

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
    tb_lang: str = "sv"  # testbench language track: sv | cocotb (ecov.harness.cocotb); never ranked together

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

    def score(self) -> ScoreResult:
        return ScoreResult.from_dict(self.result)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

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


# ---- tables (pandas) -------------------------------------------------------------------------------
# One flat row per (task, sample, round) with every figure and status, for analysis, export, comparisons
# and the leaderboard. pandas is imported lazily: the run loop itself does not need it.

ROUND_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed",
    "task_id", "sample", "round", "final", "status", "passed", "syntax_ok", "overall",
    "line", "branch", "toggle", "expr", "user", "has_testbench", "parse_error",
    "prompt_tokens", "completion_tokens", "cost", "seconds",
    "sample_rounds", "sample_passed", "passed_round", "sample_final_overall", "sample_best_overall", "error",
)
SAMPLE_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed",
    "task_id", "sample", "rounds", "passed", "passed_round", "syntax_ok", "final_overall", "best_overall",
    "prompt_tokens", "completion_tokens", "cost", "error",
)


def _run_columns(folder: RunFolder) -> dict[str, Any]:
    c = folder.read_config()
    return {"model": c.model, "mode": c.mode, "agent": c.agent, "benchmark": c.benchmark, "split": c.split,
            "dataset_hash": c.dataset_hash, "seed": c.seed}


def _finished_attempts(folder: RunFolder, done: set[tuple[str, int]]) -> dict[tuple[str, int], list[RoundRecord]]:
    """The rounds of each finished sample's last attempt (a round 0 starts a new attempt), in order."""
    out: dict[tuple[str, int], list[RoundRecord]] = {}
    for rec in folder.rounds():
        key = (rec.task_id, rec.sample)
        if key not in done:
            continue
        if rec.round == 0 or key not in out:
            out[key] = []
        out[key].append(rec)
    return out


def _folder(run: str | os.PathLike | RunFolder) -> RunFolder:
    folder = run if isinstance(run, RunFolder) else RunFolder(run)
    if not folder.exists():
        raise FileNotFoundError(f"{folder.root} is not an ecov-eval run folder (no config.json)")
    return folder


def to_frame(run_dir: str | os.PathLike | RunFolder):
    """The run as a pandas DataFrame: one row per (task, sample, round) of the finished samples.

    Coverage columns (``overall``, ``line`` ... ``user``) are the DUT instance's percents of that round;
    ``final`` marks each sample's last round; the ``sample_*`` columns repeat the sample's record. A sample
    that ended before its first round (a model error) gets one row with ``round`` = <NA> and status "".
    Sorted by task, sample, round; columns in ``ROUND_COLUMNS`` order.
    """
    import pandas as pd

    folder = _folder(run_dir)
    run = _run_columns(folder)
    samples = {(s.task_id, s.sample): s for s in folder.samples()}
    attempts = _finished_attempts(folder, set(samples))
    rows = []
    for key, s in samples.items():
        recs = attempts.get(key, [])
        sample_cols = {"sample_rounds": s.rounds, "sample_passed": s.passed, "passed_round": s.passed_round,
                       "sample_final_overall": s.final_overall, "sample_best_overall": s.best_overall,
                       "error": s.error}
        if not recs:
            rows.append({**run, "task_id": s.task_id, "sample": s.sample, "round": None, "final": True,
                         "status": "", "passed": False, "syntax_ok": False, "overall": 0.0,
                         **dict.fromkeys(METRIC_COLUMNS, 0.0), "has_testbench": False, "parse_error": "",
                         "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0, "seconds": 0.0,
                         **sample_cols})
            continue
        for i, rec in enumerate(recs):
            res = rec.score()
            rows.append({**run, "task_id": rec.task_id, "sample": rec.sample, "round": rec.round,
                         "final": i == len(recs) - 1, "status": res.status, "passed": bool(rec.passed),
                         "syntax_ok": res.syntax_ok, "overall": float(res.overall),
                         **{m: res.metric_percent(res.instance, m) for m in METRIC_COLUMNS},
                         "has_testbench": bool(rec.testbench), "parse_error": rec.parse_error,
                         "prompt_tokens": rec.prompt_tokens, "completion_tokens": rec.completion_tokens,
                         "cost": float(rec.cost), "seconds": float(rec.seconds), **sample_cols})
    df = pd.DataFrame(rows, columns=list(ROUND_COLUMNS))
    return _typed(df, {"round": "Int64", "passed_round": "Int64"}).sort_values(
        ["task_id", "sample", "round"], na_position="first", ignore_index=True)


def samples_frame(run_dir: str | os.PathLike | RunFolder):
    """One row per finished (task, sample): its SampleRecord plus the run's identity columns."""
    import pandas as pd

    folder = _folder(run_dir)
    run = _run_columns(folder)
    rows = [{**run, **{k: getattr(s, k) for k in SAMPLE_COLUMNS if k not in run}} for s in folder.samples()]
    df = pd.DataFrame(rows, columns=list(SAMPLE_COLUMNS))
    return _typed(df, {"passed_round": "Int64"}).sort_values(["task_id", "sample"], ignore_index=True)


METRIC_COLUMNS = ("line", "branch", "toggle", "expr", "user")
_BOOL = ("final", "passed", "syntax_ok", "has_testbench", "sample_passed")
_INT = ("seed", "sample", "prompt_tokens", "completion_tokens", "sample_rounds", "rounds")
_FLOAT = ("overall", *METRIC_COLUMNS, "cost", "seconds", "sample_final_overall", "sample_best_overall",
          "final_overall", "best_overall")


def _typed(df, nullable: dict[str, str]):
    """Fixed dtypes, so an exported table reads back equal (CSV and JSONL lose types otherwise)."""
    for c in df.columns:
        if c in nullable:
            df[c] = df[c].astype(nullable[c])
        elif c in _BOOL:
            df[c] = df[c].astype(bool)
        elif c in _INT:
            df[c] = df[c].astype("int64")
        elif c in _FLOAT:
            df[c] = df[c].astype("float64")
        else:
            df[c] = df[c].fillna("").astype(str)
    return df


EXPORT_FORMATS = ("csv", "parquet", "jsonl")


def write_frame(df, path: str | os.PathLike, fmt: str | None = None) -> Path:
    """Write a table as csv, parquet or jsonl (by ``fmt`` or the file suffix)."""
    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".")
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"unknown table format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        df.to_csv(path, index=False)
    elif fmt == "parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_json(path, orient="records", lines=True)
    return path


def read_frame(path: str | os.PathLike, fmt: str | None = None):
    """Read a table written by ``write_frame`` (or ``ecov-eval export``) back with the same dtypes."""
    import pandas as pd

    path = Path(path)
    fmt = fmt or path.suffix.lstrip(".")
    if fmt == "parquet":
        return pd.read_parquet(path)
    if fmt == "csv":
        df = pd.read_csv(path, keep_default_na=False, na_values={"round": [""], "passed_round": [""]})
    elif fmt == "jsonl":
        df = pd.read_json(path, orient="records", lines=True, dtype=False)
    else:
        raise ValueError(f"unknown table format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    return _typed(df, {c: "Int64" for c in ("round", "passed_round") if c in df.columns})
