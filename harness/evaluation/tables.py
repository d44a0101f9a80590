"""Run folders as tables (pandas): one flat row per (task, sample, round) or per (task, sample) with every
figure and status, for analysis, export, comparisons and the leaderboard. pandas is imported lazily: the
run loop itself does not need it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ecov.harness.core.run_folder import RoundRecord, RunFolder

ROUND_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed",
    "task_id", "sample", "round", "final", "status", "passed", "syntax_ok", "overall",
    "line", "branch", "toggle", "expr", "user", "has_testbench", "parse_error",
    "prompt_tokens", "completion_tokens", "cost", "seconds",
    "sample_rounds", "sample_passed", "passed_round", "sample_final_overall", "sample_best_overall", "error",
    "protocol", "tb_lang", "finish_reason", "reasks", "retries", "stop_reason", "best_state_overall",
)
SAMPLE_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed",
    "task_id", "sample", "rounds", "passed", "passed_round", "syntax_ok", "final_overall", "best_overall",
    "prompt_tokens", "completion_tokens", "cost", "error",
    "protocol", "tb_lang", "reasks", "stop_reason", "best_state_overall",
)
# A text cell starting with one of these is a formula to a spreadsheet: exported with a leading "'".
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _run_columns(folder: RunFolder) -> dict[str, Any]:
    c = folder.read_config()
    return {"model": c.model, "mode": c.mode, "agent": c.agent, "benchmark": c.benchmark, "split": c.split,
            "dataset_hash": c.dataset_hash, "seed": c.seed, "protocol": c.protocol, "tb_lang": c.tb_lang}


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
                       "error": s.error, "stop_reason": s.stop_reason, "best_state_overall": s.best_state_overall}
        if not recs:
            rows.append({**run, "task_id": s.task_id, "sample": s.sample, "round": None, "final": True,
                         "status": "", "passed": False, "syntax_ok": False, "overall": 0.0,
                         **dict.fromkeys(METRIC_COLUMNS, 0.0), "has_testbench": False, "parse_error": "",
                         "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0, "seconds": 0.0,
                         "finish_reason": "", "reasks": 0, "retries": 0, **sample_cols})
            continue
        for i, rec in enumerate(recs):
            res = rec.score()
            rows.append({**run, "task_id": rec.task_id, "sample": rec.sample, "round": rec.round,
                         "final": i == len(recs) - 1, "status": res.status, "passed": bool(rec.passed),
                         "syntax_ok": res.syntax_ok, "overall": float(res.overall),
                         **{m: res.metric_percent(res.instance, m) for m in METRIC_COLUMNS},
                         "has_testbench": bool(rec.testbench), "parse_error": rec.parse_error,
                         "prompt_tokens": rec.prompt_tokens, "completion_tokens": rec.completion_tokens,
                         "cost": float(rec.cost), "seconds": float(rec.seconds),
                         "finish_reason": rec.finish_reason, "reasks": rec.reasks, "retries": rec.retries,
                         **sample_cols})
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
_INT = ("seed", "sample", "prompt_tokens", "completion_tokens", "sample_rounds", "rounds", "reasks", "retries")
_FLOAT = ("overall", *METRIC_COLUMNS, "cost", "seconds", "sample_final_overall", "sample_best_overall",
          "final_overall", "best_overall", "best_state_overall")


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
        csv_safe(df).to_csv(path, index=False)
    elif fmt == "parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_json(path, orient="records", lines=True)
    return path


def csv_safe(df):
    """A copy whose text cells cannot run as spreadsheet formulas (model answers, task ids are untrusted)."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    out = df.copy()
    for c in out.columns:
        if is_object_dtype(out[c]) or is_string_dtype(out[c]):
            out[c] = out[c].map(lambda v: "'" + v if isinstance(v, str) and v.startswith(FORMULA_START) else v)
    return out


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
