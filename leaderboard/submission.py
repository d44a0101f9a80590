"""Leaderboard submissions: a run folder (or its archive) plus who made it.

Layout of one submission::

    leaderboard/submissions/NAME/
      submission.json     SubmissionMeta: model, size_b, type, date, link, notes
      run/                the ecov-eval run folder (config.json, rounds.jsonl, samples.jsonl, ...)
        or run.tar.gz     the same folder archived (config.json at its top or one folder down)
      verification.json   written by ``ecov-leaderboard verify`` (optional)

The run folder is never trusted for its numbers: ``verify`` re-scores it and the site shows the result.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import date as _date
from pathlib import Path
from typing import Any

from ecov.harness.core.run_folder import RunFolder
from ecov.leaderboard.schema import SchemaError, check_run_files, check_submission_file
from ecov.leaderboard.untrusted import UntrustedError, check_tree, safe_extract

SUBMISSION_FILE = "submission.json"
VERIFICATION_FILE = "verification.json"
RUN_DIR = "run"
RUN_ARCHIVE = "run.tar.gz"
TYPES = ("api", "open-weights", "baseline", "trained")
# The run files whose content the numbers come from; their digest ties a verification to a run.
RUN_FILES = ("config.json", "rounds.jsonl", "samples.jsonl", "summary.json")

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class SubmissionError(ValueError):
    """A submission is malformed; the message says which file and what is wrong."""


@dataclass
class SubmissionMeta:
    model: str
    type: str
    date: str  # YYYY-MM-DD, the day the run was made
    size_b: float | None = None  # parameters in billions; None when unknown (closed API models)
    link: str = ""
    notes: str = ""

    def problems(self) -> list[str]:
        out = []
        if not self.model.strip():
            out.append("model is empty")
        if self.type not in TYPES:
            out.append(f"type {self.type!r} is not one of {', '.join(TYPES)}")
        if not _DATE_RE.match(self.date or ""):
            out.append(f"date {self.date!r} is not YYYY-MM-DD")
        if self.size_b is not None and (not isinstance(self.size_b, int | float) or self.size_b <= 0):
            out.append(f"size_b {self.size_b!r} must be a positive number of billions or null")
        if self.link and not re.match(r"^https?://", self.link):
            out.append(f"link {self.link!r} must start with http:// or https://")
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SubmissionMeta:
        missing = [k for k in ("model", "type", "date") if k not in d]
        if missing:
            raise SubmissionError(f"{SUBMISSION_FILE} lacks {', '.join(missing)}")
        size = d.get("size_b")
        return cls(
            model=str(d["model"]),
            type=str(d["type"]),
            date=str(d["date"]),
            size_b=float(size) if isinstance(size, int | float) and not isinstance(size, bool) else size,
            link=str(d.get("link") or ""),
            notes=str(d.get("notes") or ""),
        )


@dataclass
class Submission:
    name: str
    path: Path  # the submission folder
    meta: SubmissionMeta
    run_dir: Path  # the run folder (inside a temporary folder for archives)

    @property
    def run(self) -> RunFolder:
        return RunFolder(self.run_dir)

    @property
    def verification_path(self) -> Path:
        return self.path / VERIFICATION_FILE


def check_name(name: str) -> str:
    if not _NAME_RE.match(name):
        raise SubmissionError(
            f"submission name {name!r} must be 1-80 characters of letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


def read_meta(folder: Path) -> SubmissionMeta:
    path = folder / SUBMISSION_FILE
    if not path.is_file():
        raise SubmissionError(f"{folder}: no {SUBMISSION_FILE}")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise SubmissionError(f"{path}: not valid JSON ({e})") from e
    if not isinstance(data, dict):
        raise SubmissionError(f"{path}: expected a JSON object")
    meta = SubmissionMeta.from_dict(data)
    problems = meta.problems()
    if problems:
        raise SubmissionError(f"{path}: " + "; ".join(problems))
    return meta


def _find_run_root(root: Path) -> Path:
    if (root / "config.json").is_file():
        return root
    subs = [p for p in root.iterdir() if p.is_dir() and (p / "config.json").is_file()]
    if len(subs) == 1:
        return subs[0]
    raise SubmissionError(f"{root}: no run folder (config.json) at the top or one folder down")


def _extract(archive: Path, dest: Path) -> Path:
    try:
        safe_extract(archive, dest)  # plain files only, capped; refuses absolute paths and '..'
    except UntrustedError as e:
        raise SubmissionError(str(e)) from e
    except (tarfile.TarError, OSError) as e:
        raise SubmissionError(f"{archive}: cannot extract ({e})") from e
    return _find_run_root(dest)


@contextmanager
def open_submission(folder: str | Path) -> Iterator[Submission]:
    """Load a submission folder; an archived run is extracted to a temporary folder for the duration."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SubmissionError(f"{folder}: not a submission folder")
    try:
        check_tree(folder)  # no file of a submission may lead outside it
        check_submission_file(folder)  # the schema before anything reads a file (leaderboard/schema.py)
    except (UntrustedError, SchemaError) as e:
        raise SubmissionError(str(e)) from e
    meta = read_meta(folder)
    name = folder.name
    if (folder / RUN_DIR).is_dir():
        yield Submission(name, folder, meta, _checked(_find_run_root(folder / RUN_DIR), folder))
        return
    if (folder / RUN_ARCHIVE).is_file():
        with tempfile.TemporaryDirectory(prefix="ecov-sub-") as tmp:
            yield Submission(name, folder, meta, _checked(_extract(folder / RUN_ARCHIVE, Path(tmp)), folder))
        return
    raise SubmissionError(f"{folder}: neither {RUN_DIR}/ nor {RUN_ARCHIVE}")


def _checked(run_dir: Path, folder: Path) -> Path:
    """The run folder, once every file the leaderboard reads has the schema's shape."""
    try:
        check_run_files(run_dir, folder / VERIFICATION_FILE)
    except SchemaError as e:
        raise SubmissionError(f"refused by the schema: {e}") from e
    return run_dir


def list_submissions(root: str | Path) -> list[Path]:
    root = Path(root)
    if not root.is_dir():
        raise SubmissionError(f"{root}: not a folder of submissions")
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / SUBMISSION_FILE).is_file())


def run_digest(run_dir: Path) -> str:
    """sha256 over the run files the numbers come from, so a verification goes stale when they change."""
    h = hashlib.sha256()
    for name in RUN_FILES:
        p = run_dir / name
        h.update(name.encode() + b"\0")
        h.update(p.read_bytes() if p.is_file() else b"<absent>")
        h.update(b"\0")
    return h.hexdigest()


def add_submission(run_dir: str | Path, submissions: str | Path, name: str, meta: SubmissionMeta,
                   archive: bool = False, with_logs: bool = True) -> Path:
    """Copy a run folder into ``submissions/NAME`` and write its submission.json."""
    check_name(name)
    problems = meta.problems()
    if problems:
        raise SubmissionError("; ".join(problems))
    src = Path(run_dir)
    if not (src / "config.json").is_file():
        raise SubmissionError(f"{src}: not a run folder (no config.json)")
    if not (src / "rounds.jsonl").is_file():
        raise SubmissionError(f"{src}: run folder has no rounds.jsonl")
    try:
        check_tree(src)
        check_run_files(src)  # what the site's build would refuse, refused here first
    except (UntrustedError, SchemaError) as e:
        raise SubmissionError(str(e)) from e
    faults = [s for s in RunFolder(src).samples() if s.error]
    if faults:
        raise SubmissionError(f"{src}: {len(faults)} sample(s) ended on a fault, not a result (first: "
                              f"{faults[0].task_id} sample {faults[0].sample}: {faults[0].error[:200]}); "
                              "resume the run until it is complete, then add it")
    dest = Path(submissions) / name
    if dest.exists():
        raise SubmissionError(f"{dest} already exists; pick another --name or remove it")
    dest.mkdir(parents=True)
    try:
        # No run lock, no temporary files of atomic writes; files as plain readable 0644 copies.
        skip = (".lock", ".*.tmp", *(() if with_logs else ("logs",)))
        ignore = shutil.ignore_patterns(*skip)
        if archive:
            with tempfile.TemporaryDirectory() as tmp:
                staged = Path(tmp) / RUN_DIR
                shutil.copytree(src, staged, ignore=ignore, copy_function=shutil.copyfile)
                with tarfile.open(dest / RUN_ARCHIVE, "w:gz") as tar:
                    tar.add(staged, arcname=RUN_DIR)
        else:
            shutil.copytree(src, dest / RUN_DIR, ignore=ignore, copy_function=shutil.copyfile)
        (dest / SUBMISSION_FILE).write_text(json.dumps(meta.to_dict(), indent=2) + "\n")
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return dest


def today() -> str:
    return _date.today().isoformat()
