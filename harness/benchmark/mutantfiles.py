"""A task's mutants file (issue 31): where it lives, reading it, writing it.

``harness/suite/<task>/mutants.json`` for the embedded suite, ``benchmarks/<bench>/mutants/<task>.json``
beside a built benchmark (kept out of the parquet, so the benchmark's rebuilds and the mutants never
conflict). The file is a ``MutantSet`` as JSON: the killable mutants, the design hash they belong to, and
the made/kept/dropped counts (ecov.harness.benchmark.mutants makes it). A file whose design hash is not
the task's is an error, never applied silently nor silently ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

from ecov.harness.contracts.spec import design_sha256
from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.records import MutantSet
from ecov.harness.tasks import Task

EMBEDDED_FILE = "mutants.json"
FOLDER = "mutants"


class MutantsError(ValueError):
    """A mutants file that does not belong to its task's design, or cannot be read."""


def mutants_path(task_id: str, folder, embedded: bool):
    """The file's place (a Path, or a Traversable inside an installed package for the embedded suite)."""
    return folder / EMBEDDED_FILE if embedded else folder / FOLDER / f"{task_id}.json"


def read_mutants(path, task: Task) -> MutantSet:
    try:
        ms = MutantSet.from_dict(json.loads(path.read_text()))
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
        raise MutantsError(f"{path}: not a mutants file ({e})") from None
    if ms.task_id != task.id:
        raise MutantsError(f"{path}: mutants of {ms.task_id!r}, not of {task.id!r}")
    if ms.design_sha256 != design_sha256(task.rtl_files):
        raise MutantsError(f"{path}: made for another version of {task.id}'s RTL (design hash differs); "
                           f"remake it: ecov-data mutants {task.benchmark} --task {task.id} --force")
    return ms


def find_mutants(task: Task, folder, embedded: bool) -> MutantSet | None:
    path = mutants_path(task.id, folder, embedded)
    return read_mutants(path, task) if path.is_file() else None


def attach_mutants(tasks: list[Task], folder: Path) -> list[Task]:
    """Give each task of a built benchmark the mutants shipped beside it (``folder/mutants/<id>.json``)."""
    if (Path(folder) / FOLDER).is_dir():
        for task in tasks:
            task.mutants = find_mutants(task, Path(folder), embedded=False)
    return tasks


def write_mutants(path: Path, ms: MutantSet) -> None:
    write_text_atomic(Path(path), json.dumps(ms.to_dict(), indent=1, sort_keys=True) + "\n")


__all__ = ["EMBEDDED_FILE", "FOLDER", "MutantsError", "attach_mutants", "find_mutants", "mutants_path",
           "read_mutants", "write_mutants"]
