"""The submission files' schema: every file is checked here before anything else reads it.

A submission is hostile input. Each of its JSON files (submission.json, the run's config.json,
rounds.jsonl, samples.jsonl, summary.json and a committed verification.json) is read within bounds
(ecov.harness.core.bounded_json: size, nesting depth, finite numbers) and validated against a typed
pydantic model in strict mode: types (no ``"mode": 5``, no ``"testbench": 5``, no ``1e9`` for an
integer), ranges (n, rounds, sizes, percents), string and list lengths, and names the registry knows
(protocol, track). ``open_submission`` calls ``check_run_files`` first, so grouping, charts, templates
and verify only ever see data of these shapes; a submission that fails is refused with the reason
(file, line, field, what is wrong).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ecov.harness import registry
from ecov.harness.core import bounded_json
from ecov.harness.core.limits import MAX_ANSWER_CHARS, MAX_ROUNDS, MAX_SAMPLES

MAX_DEPTH = 32  # ECov's own files nest 6 deep; the summary and config's extra a little more
MAX_FILE_BYTES = 16 * 1024 * 1024  # submission.json, config.json, summary.json, verification.json
MAX_LINE_BYTES = 8 * 1024 * 1024  # one record of rounds.jsonl or samples.jsonl
MAX_VERIFICATION_BYTES = 256 * 1024 * 1024
MAX_RECORDS = 2_000_000  # lines of one JSONL file
MAX_TEXT = 4 * 1024 * 1024  # a chat message, feedback or log text
MAX_NAME = 300  # task ids, benchmark names, instances, statuses
MAX_LIST = 100_000
MAX_TOKENS = 10**9
MAX_ERRORS_SHOWN = 5

Name = Annotated[str, Field(max_length=MAX_NAME)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Answer = Annotated[str, Field(max_length=MAX_ANSWER_CHARS)]
Count = Annotated[int, Field(ge=0, le=2**53)]
Tokens = Annotated[int, Field(ge=0, le=MAX_TOKENS)]
Percent = Annotated[float, Field(ge=0.0, le=100.0)]
Seconds = Annotated[float, Field(ge=0.0, le=10**7)]
Round = Annotated[int, Field(ge=0, lt=MAX_ROUNDS)]
SampleIndex = Annotated[int, Field(ge=0, lt=MAX_SAMPLES)]


class SchemaError(ValueError):
    """A submission file does not have the shape ECov writes; the message says which and where."""


class _Strict(BaseModel):
    # strict: no coercion (5 is no string, 1.0 no integer, true no number); unknown keys are ignored by
    # the readers, so they are here too (their size and depth are bounded by the file's).
    model_config = ConfigDict(strict=True, extra="ignore", allow_inf_nan=False, frozen=True)


class SubmissionFile(_Strict):
    model: Annotated[str, Field(min_length=1, max_length=100)]
    type: Literal["api", "open-weights", "baseline", "trained"]
    date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
    # Billions of parameters: a million to a hundred trillion (a log-scale chart plots it).
    size_b: Annotated[float, Field(ge=1e-3, le=1e5)] | None = None
    link: Annotated[str, Field(max_length=500, pattern=r"^(https?://\S*)?$")] = ""
    notes: Annotated[str, Field(max_length=5000)] = ""


def _registered(kind: str, value: str) -> str:
    names = registry.names(kind)
    if value not in names:
        raise ValueError(f"{value!r} is not a registered {kind} ({', '.join(names)})")
    return value


class ConfigFile(_Strict):
    model: Annotated[str, Field(max_length=MAX_NAME)]
    mode: Literal["direct", "agentic"]
    agent: Literal["memoryless", "history", "direct"]
    benchmark: Name
    dataset_hash: Name
    n_samples: Annotated[int, Field(ge=1, le=MAX_SAMPLES)] = 1
    max_rounds: Annotated[int, Field(ge=0, le=MAX_ROUNDS)] = 0
    temperature: Annotated[float, Field(ge=0.0, le=10.0)] = 0.7
    top_p: Annotated[float, Field(ge=0.0, le=1.0)] = 0.8
    max_tokens: Tokens = 8192
    seed: Annotated[int, Field(ge=-(2**31), le=2**31)] = 1
    api_base: Annotated[str, Field(max_length=2000)] | None = None
    harness_version: Name = ""
    verilator_version: Name = ""
    created: Name = ""
    split: Name = "test"
    task_ids: Annotated[list[Name], Field(max_length=MAX_LIST)] | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    schema_version: Annotated[int, Field(ge=0, le=1000)] = 1
    protocol: Name = "ecov"
    tb_lang: Name = "sv"

    @field_validator("protocol")
    @classmethod
    def _protocol(cls, v: str) -> str:
        return _registered("protocol", v)

    @field_validator("tb_lang")
    @classmethod
    def _track(cls, v: str) -> str:
        return _registered("track", v)

    @model_validator(mode="after")
    def _agent_of_mode(self) -> ConfigFile:
        if self.mode == "agentic" and self.agent == "direct":
            raise ValueError("an agentic run's agent is memoryless or history, not direct")
        return self


class Figure(_Strict):
    covered: Count
    total: Count
    percent: Percent


Coverage = Annotated[dict[Name, Annotated[dict[Name, Figure], Field(max_length=64)]], Field(max_length=MAX_LIST)]


class Uncovered(_Strict):
    instance: Name
    metric: Name
    file: Name
    line: Count
    detail: Text
    text: Text = ""


class Violation(_Strict):
    rule: Name
    time_ns: Annotated[float, Field(ge=0.0)]
    ports: Annotated[list[Name], Field(max_length=MAX_LIST)] = Field(default_factory=list)
    spec: Text = ""


class Legal(_Strict):
    violation: Violation | None = None
    violations: dict[Name, Count] = Field(default_factory=dict)
    coverage: Coverage = Field(default_factory=dict)
    overall: Percent = 0.0
    bins: Annotated[list[Name], Field(max_length=MAX_LIST)] = Field(default_factory=list)
    bins_total: Count = 0
    bins_all: Annotated[list[Name], Field(max_length=MAX_LIST)] = Field(default_factory=list)


class Result(_Strict):
    """A ScoreResult as recorded (ScoreResult.to_dict)."""

    status: Name
    instance: Name = ""
    coverage: Coverage = Field(default_factory=dict)
    overall: Percent = 0.0
    uncovered: Annotated[list[Uncovered], Field(max_length=MAX_LIST)] = Field(default_factory=list)
    uncovered_total: Count = 0
    errors: Annotated[list[Text], Field(max_length=1000)] = Field(default_factory=list)
    warnings: Annotated[list[Text], Field(max_length=1000)] = Field(default_factory=list)
    log_tail: Text = ""
    isolation: Name = ""
    isolated: bool = True
    seed: Annotated[int, Field(ge=-(2**31), le=2**31)] = 1
    seconds: Seconds = 0.0
    cached: bool = False
    key: Name = ""
    phases: Annotated[dict[Name, Seconds], Field(max_length=64)] = Field(default_factory=dict)
    legal: Legal = Field(default_factory=Legal)  # {} when the design has no contract


class Message(_Strict):
    role: Annotated[str, Field(max_length=32)]
    content: Text


class _Spend(_Strict):
    """What a round, or a sample over its rounds, cost."""

    prompt_tokens: Tokens = 0
    completion_tokens: Tokens = 0
    cost: Annotated[float, Field(ge=0.0, le=1e6)] = 0.0


class RoundLine(_Spend):
    task_id: Name
    sample: SampleIndex
    round: Round
    prompt_hash: Annotated[str, Field(max_length=128)]
    response: Answer
    testbench: Text  # ecov patches apply to the previous testbench: it may outgrow one answer
    parse_error: Text
    feedback: Text
    result: Result
    passed: bool
    seconds: Seconds = 0.0
    messages: Annotated[list[Message], Field(max_length=1000)] | None = None
    finish_reason: Annotated[str, Field(max_length=64)] = ""
    reasks: Annotated[int, Field(ge=0, le=100)] = 0
    reask_reasons: Annotated[list[Text], Field(max_length=100)] = Field(default_factory=list)
    rejected_responses: Annotated[list[Answer], Field(max_length=100)] = Field(default_factory=list)
    rejected_finish: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=100)] = \
        Field(default_factory=list)
    state_round: Round | None = None
    new_best: bool = False
    legal_passed: bool | None = None
    retries: Annotated[int, Field(ge=0, le=10**6)] = 0
    api_seeds: Annotated[list[int | None], Field(max_length=1000)] = Field(default_factory=list)


RoundFigures = Annotated[list[Percent], Field(max_length=MAX_ROUNDS)]


class SampleLine(_Spend):
    task_id: Name
    sample: SampleIndex
    rounds: Annotated[int, Field(ge=0, le=MAX_ROUNDS)]
    passed: bool
    passed_round: Round | None
    syntax_ok: bool
    final_overall: Percent
    best_overall: Percent
    overall_by_round: RoundFigures
    error: Text = ""
    protocol: Name = ""
    best_round: Round | None = None
    best_state_overall: Percent | None = None
    best_overall_by_round: RoundFigures = Field(default_factory=list)
    reasks: Annotated[int, Field(ge=0, le=100 * MAX_ROUNDS)] = 0
    stop_reason: Name = ""
    contract: bool = False
    legal_passed_round: Round | None = None
    legal_overall_by_round: RoundFigures = Field(default_factory=list)
    violated: bool = False
    legal_bins_hit: Count | None = None
    legal_bins: Count | None = None


class Summary(_Strict):
    """summary.json: the site recomputes it; verify compares its numbers. Any JSON object within bounds."""

    model_config = ConfigDict(strict=True, extra="allow", allow_inf_nan=False, frozen=True)


class DifferenceEntry(_Strict):
    task_id: Name
    sample: SampleIndex | None
    round: Round | None
    field: Name
    submitted: Any = None
    rescored: Any = None


class VerificationFile(_Strict):
    """A committed verification.json: only a claim, shown as such; its shape is checked all the same."""

    submission: Name
    verdict: Name
    run_digest: Name
    checked_rounds: Count = 0
    scored: Count = 0
    skipped_rounds: Count = 0
    checked_samples: Count = 0
    differences: Annotated[list[DifferenceEntry], Field(max_length=MAX_LIST)] = Field(default_factory=list)
    failures: Annotated[list[DifferenceEntry], Field(max_length=MAX_LIST)] = Field(default_factory=list)
    errors: Annotated[list[Text], Field(max_length=1000)] = Field(default_factory=list)
    warnings: Annotated[list[Text], Field(max_length=1000)] = Field(default_factory=list)
    nonstandard: Annotated[list[Text], Field(max_length=1000)] = Field(default_factory=list)


def _problem(file: str, e: ValidationError | ValueError) -> SchemaError:
    if isinstance(e, ValidationError):
        parts = []
        for err in e.errors(include_url=False, include_input=False)[:MAX_ERRORS_SHOWN]:
            where = ".".join(str(x) for x in err["loc"]) or "(top)"
            parts.append(f"{where}: {err['msg']}")
        more = e.error_count() - MAX_ERRORS_SHOWN
        return SchemaError(f"{file}: " + "; ".join(parts) + (f"; and {more} more" if more > 0 else ""))
    return SchemaError(f"{file}: {e}")


def check_file(path: Path, model: type[_Strict], *, required: bool = True, max_bytes: int = MAX_FILE_BYTES) -> None:
    """Validate one JSON file against ``model``; SchemaError names the file and what is wrong."""
    if not path.is_file():
        if required:
            raise SchemaError(f"{path.name}: missing")
        return
    try:
        data = bounded_json.read(path, max_depth=MAX_DEPTH, max_bytes=max_bytes)
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        model.model_validate(data)
    except (ValidationError, ValueError) as e:
        raise _problem(path.name, e) from None
    except OSError as e:
        raise SchemaError(f"{path.name}: cannot be read ({e})") from None


def check_jsonl(path: Path, model: type[_Strict], *, required: bool = True) -> int:
    """Validate every record of a JSONL file as the run folder's reader takes them (a torn last line,
    without its newline, is ignored by the readers and here); returns the number of records."""
    if not path.is_file():
        if required:
            raise SchemaError(f"{path.name}: missing")
        return 0
    size = path.stat().st_size
    count = 0
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.endswith(b"\n"):
                break  # torn last line: the readers skip it
            if len(raw) > MAX_LINE_BYTES:
                raise SchemaError(f"{path.name} line {number}: {len(raw):,} bytes, over the limit of "
                                  f"{MAX_LINE_BYTES:,}")
            if not raw.strip():
                continue
            count += 1
            if count > MAX_RECORDS:
                raise SchemaError(f"{path.name}: more than {MAX_RECORDS:,} records ({size:,} bytes)")
            try:
                data = bounded_json.loads(raw, max_depth=MAX_DEPTH, max_bytes=MAX_LINE_BYTES, what="the record")
                if not isinstance(data, dict):
                    raise ValueError("expected a JSON object")
                model.model_validate(data)
            except (ValidationError, ValueError) as e:
                raise _problem(f"{path.name} line {number}", e) from None
    return count


def check_submission_file(folder: Path) -> None:
    check_file(folder / "submission.json", SubmissionFile)


def check_run_files(run_dir: Path, verification: Path | None = None) -> None:
    """Every file of a run folder the leaderboard reads (and a committed verification.json)."""
    check_file(run_dir / "config.json", ConfigFile)
    check_jsonl(run_dir / "rounds.jsonl", RoundLine)
    check_jsonl(run_dir / "samples.jsonl", SampleLine, required=False)
    check_file(run_dir / "summary.json", Summary, required=False)
    if verification is not None:
        # It carries the re-derived samples: as large as samples.jsonl may be.
        check_file(verification, VerificationFile, required=False, max_bytes=MAX_VERIFICATION_BYTES)


__all__ = ["SchemaError", "check_run_files", "check_submission_file", "check_file", "check_jsonl"]
