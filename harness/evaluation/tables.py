"""Run folders as tables (pandas): one flat row per (task, sample, round) or per (task, sample) with every
figure and status, for analysis, export, comparisons and the leaderboard. pandas is imported lazily: the
run loop itself does not need it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ecov.harness.core.run_folder import RoundRecord, RunFolder
from ecov.harness.evaluation.metrics import ecov_passed, summarize

ROUND_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed",
    "task_id", "sample", "round", "final", "status", "passed", "syntax_ok", "overall",
    "line", "branch", "toggle", "expr", "user", "has_testbench", "parse_error",
    "prompt_tokens", "completion_tokens", "cost", "seconds",
    "sample_rounds", "sample_passed", "passed_round", "sample_final_overall", "sample_best_overall", "error",
    "protocol", "tb_lang", "finish_reason", "reasks", "retries", "stop_reason", "best_state_overall",
    *("contract", "ecov_passed", "legal_passed", "legal_overall", "violation_rule", "violation_ns", "violations",
      "bins_hit", "bins"),
)
SAMPLE_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed",
    "task_id", "sample", "rounds", "passed", "passed_round", "syntax_ok", "final_overall", "best_overall",
    "prompt_tokens", "completion_tokens", "cost", "error",
    "protocol", "tb_lang", "reasks", "stop_reason", "best_state_overall",
    *("contract", "ecov_passed", "legal_passed_round", "violated", "legal_bins_hit", "legal_bins"),
)
# One row per task (``--level tasks``): summary.json's per-task figures; the mean of a rate column over
# the rows is the run's figure (every task weighs the same).
TASK_COLUMNS = (
    "model", "mode", "agent", "benchmark", "split", "dataset_hash", "seed", "protocol", "tb_lang",
    "task_id", "samples", "passed_samples", "pass_rate", "contract", "ecov_passed_samples", "ecov_pass_rate",
    "legal_passed_samples", "legal_best_overall", "legal_bins_hit", "legal_bins", "best_overall", "mean_overall",
    "syntax_ok_samples",
)
# summary.json's per-task keys under their names in the tasks table (counts of samples say so).
_TASK_KEYS = {"passed": "passed_samples", "ecov_passed": "ecov_passed_samples",
              "legal_passed": "legal_passed_samples", "syntax_ok": "syntax_ok_samples"}
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
                         "finish_reason": "", "reasks": 0, "retries": 0, **sample_cols,
                         **round_legal(None, s.contract)})
            continue
        for i, rec in enumerate(recs):
            res = rec.score()
            rows.append({**round_legal(rec, s.contract),**run, "task_id": rec.task_id, "sample": rec.sample, "round": rec.round,
                         "final": i == len(recs) - 1, "status": res.status, "passed": bool(rec.passed),
                         "syntax_ok": res.syntax_ok, "overall": float(res.overall),
                         **{m: res.metric_percent(res.instance, m) for m in METRIC_COLUMNS},
                         "has_testbench": bool(rec.testbench), "parse_error": rec.parse_error,
                         "prompt_tokens": rec.prompt_tokens, "completion_tokens": rec.completion_tokens,
                         "cost": float(rec.cost), "seconds": float(rec.seconds),
                         "finish_reason": rec.finish_reason, "reasks": rec.reasks, "retries": rec.retries,
                         **sample_cols})
    df = pd.DataFrame(rows, columns=list(ROUND_COLUMNS))
    return _typed(df, NULLABLE).sort_values(["task_id", "sample", "round"], na_position="first", ignore_index=True)


def round_legal(rec: RoundRecord | None, contract: bool) -> dict[str, Any]:
    """A round's legal columns (issue 32): its legal verdict, legal coverage, first broken rule (rule, ns)
    and the count of all broken-rule events, bins hit before the first one; empty without a contract.
    ``ecov_passed`` is the round's pass as the ECov headline counts it."""
    legal = ((rec.result or {}).get("legal") or {}) if rec is not None else {}
    contract = contract or (rec is not None and rec.legal_passed is not None)
    passed = bool(rec is not None and rec.passed)
    if not contract:
        return {"contract": False, "ecov_passed": passed, "legal_passed": None, "legal_overall": None,
                "violation_rule": "", "violation_ns": None, "violations": None, "bins_hit": None, "bins": None}
    first = legal.get("violation") or {}
    return {"contract": True, "ecov_passed": bool(rec is not None and rec.legal_passed),
            "legal_passed": bool(rec is not None and rec.legal_passed),
            "legal_overall": float(legal.get("overall") or 0.0), "violation_rule": first.get("rule", ""),
            "violation_ns": first.get("time_ns"), "violations": sum((legal.get("violations") or {}).values()),
            "bins_hit": len(legal.get("bins") or []), "bins": legal.get("bins_total")}


def samples_frame(run_dir: str | os.PathLike | RunFolder):
    """One row per finished (task, sample): its SampleRecord plus the run's identity columns."""
    import pandas as pd

    folder = _folder(run_dir)
    run = _run_columns(folder)
    derived = ("ecov_passed",)
    rows = [{**run, **{k: getattr(s, k) for k in SAMPLE_COLUMNS if k not in run and k not in derived},
             "ecov_passed": ecov_passed(s, s.contract)} for s in folder.samples()]
    df = pd.DataFrame(rows, columns=list(SAMPLE_COLUMNS))
    return _typed(df, NULLABLE).sort_values(["task_id", "sample"], ignore_index=True)


def tasks_frame(run_dir: str | os.PathLike | RunFolder):
    """One row per task with its figures as summary.json has them (``ecov_pass_rate`` beside the paper's
    ``pass_rate``); legal columns are empty on tasks without a contract."""
    import pandas as pd

    folder = _folder(run_dir)
    run = _run_columns(folder)
    c = folder.read_config()
    per_task = summarize(folder.samples(), max(c.max_rounds, 1), protocol=c.protocol)["per_task"]
    rows = [{**run, "task_id": t, **{_TASK_KEYS.get(k, k): v for k, v in d.items()}} for t, d in per_task.items()]
    df = pd.DataFrame(rows, columns=list(TASK_COLUMNS))
    return _typed(df, NULLABLE).sort_values(["task_id"], ignore_index=True)


METRIC_COLUMNS = ("line", "branch", "toggle", "expr", "user")
_BOOL = ("final", "passed", "syntax_ok", "has_testbench", "sample_passed", "contract", "ecov_passed", "violated")
_INT = ("seed", "sample", "prompt_tokens", "completion_tokens", "sample_rounds", "rounds", "reasks", "retries",
        "samples", "passed_samples", "ecov_passed_samples", "syntax_ok_samples")
_FLOAT = ("overall", *METRIC_COLUMNS, "cost", "seconds", "sample_final_overall", "sample_best_overall",
          "final_overall", "best_overall", "best_state_overall", "pass_rate", "ecov_pass_rate", "mean_overall")
# Columns that may hold no value (read back as <NA>): rounds of a sample that had none, and the legal
# columns of tasks without a contract.
NULLABLE = {"round": "Int64", "passed_round": "Int64", "legal_passed_round": "Int64", "legal_passed": "boolean",
            "legal_overall": "Float64", "violation_ns": "Float64", "violations": "Int64", "bins_hit": "Int64",
            "bins": "Int64", "legal_bins_hit": "Float64", "legal_bins": "Int64", "legal_passed_samples": "Int64",
            "legal_best_overall": "Float64"}


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
        df = pd.read_csv(path, keep_default_na=False, na_values=dict.fromkeys(NULLABLE, [""]))
    elif fmt == "jsonl":
        df = pd.read_json(path, orient="records", lines=True, dtype=False)
    else:
        raise ValueError(f"unknown table format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    return _typed(df, {c: t for c, t in NULLABLE.items() if c in df.columns})
