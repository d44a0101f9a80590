"""The bug hunt's files beside a benchmark (issue 31): self-checking reference testbenches and kill-rate targets.

Neither is part of the dataset row, so neither moves a dataset hash nor a coverage figure:

- ``bughunt_references/<task>.sv`` (cvdp-ecov: ECov's coverage reference with the same stimulus and a
  scoreboard written from the spec; autoeval-ecov: VerilogEval's own test, its first mismatch ending the
  run). The embedded suite's ``ref_tb.sv`` already checks against a model, so it is its own, except where
  the task's folder holds ``bughunt_tb.sv``: the same stimulus with checks the spec also states.
- ``bughunt_targets.json`` (``harness/suite/bughunt_targets.json`` for the embedded suite): per task the
  kill rate (%) a sample must reach to pass, calibrated from the reference (ecov.harness.benchmark.calibrate
  ``bughunt_target``), with the reference's own figures and notes.

The loader (ecov.harness.benchmark.store, builders/embedded.py) attaches both to ``Task.bughunt_tbs`` and
``Task.bughunt_target``; builtin/reference answers with the first under the bughunt protocol.
"""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ecov.harness.benchmark.mutantfiles import mutants_path, write_mutants
from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.records import SourceFile
from ecov.harness.tasks import Task

REFERENCES = "bughunt_references"
TARGETS = "bughunt_targets.json"
# The message of the check that autoeval-ecov's references add to VerilogEval's test.
AUTOEVAL_MARK = "ECov bug hunt"


def repo_benchmarks() -> Path:
    """The source checkout's benchmarks/ folder (where the scripts write)."""
    return Path(__file__).resolve().parents[2] / "benchmarks"


def references_dir(benchmark: str, folder: Path | None = None) -> Path:
    """Where a built benchmark's self-checking references live (``folder``: the built benchmark's)."""
    return (folder or repo_benchmarks() / benchmark) / REFERENCES


def read_targets(node: Path | Traversable) -> dict[str, Any]:
    """``bughunt_targets.json`` at ``node`` ({} when absent): {"rule", "notes", "tasks": {id: {"target", ...}}}."""
    if not node.is_file():
        return {}
    data = json.loads(node.read_bytes().decode())
    if not isinstance(data.get("tasks"), dict):
        raise ValueError(f"{node}: expected an object with a 'tasks' object")
    return data


def apply_targets(tasks: list[Task], targets: dict[str, Any]) -> list[Task]:
    for task in tasks:
        entry = (targets.get("tasks") or {}).get(task.id) or {}
        if entry.get("target") is not None:
            task.bughunt_target = float(entry["target"])
    return tasks


def attach_bughunt(tasks: list[Task], folder: Path) -> list[Task]:
    """Give each task of a built benchmark folder its self-checking references and its kill-rate target."""
    refs = folder / REFERENCES
    for task in tasks:
        path = refs / f"{task.id}.sv"
        if path.is_file():
            task.bughunt_tbs = [SourceFile(f"bughunt_{task.id}.sv", path.read_text(errors="replace"))]
    return apply_targets(tasks, read_targets(folder / TARGETS))


EMBEDDED_REFERENCE = "bughunt_tb.sv"


def attach_embedded(tasks: list[Task], root: Path | Traversable) -> list[Task]:
    """The embedded suite: each ``ref_tb.sv`` checks against a model, so it is the task's self-checking
    reference, unless the task's folder holds ``bughunt_tb.sv`` (the same stimulus with more checks, kept apart
    so that the coverage reference, and the dataset hash, stay as they are); the targets sit at the suite's
    root."""
    for task in tasks:
        own = root / task.id / EMBEDDED_REFERENCE
        if own.is_file():
            task.bughunt_tbs = [SourceFile(EMBEDDED_REFERENCE, own.read_bytes().decode("utf-8", errors="replace"))]
        else:
            task.bughunt_tbs = list(task.reference_tbs[:1])
    return apply_targets(tasks, read_targets(root / TARGETS))


def coverage_reference(task: Task) -> SourceFile:
    """The coverage reference whose stimulus the self-checking one keeps: VerilogEval's test for
    autoeval-ecov, the first calibration testbench otherwise."""
    upstream = [f for f in task.reference_tbs if f.name == "verilog_eval_test.sv"]
    return upstream[0] if upstream else task.reference_tbs[0]


def bughunt_reference(task: Task) -> SourceFile | None:
    return task.bughunt_tbs[0] if task.bughunt_tbs else None


def write_bughunt_files(tasks: list[Task], folder: Path) -> int:
    """Write the bug hunt's files of ``tasks`` beside a built benchmark, in the layout attach_mutants and
    attach_bughunt read back (``mutants/<id>.json``, ``bughunt_references/<id>.sv``, ``bughunt_targets.json``),
    so that a built, and so a published, copy of a benchmark whose tasks carry mutants (the embedded suite's
    live in its package) scores the bug hunt as the original does. Returns how many tasks had mutants."""
    folder = Path(folder)
    hunted = [t for t in tasks if t.mutants is not None]
    for task in hunted:
        path = mutants_path(task.id, folder, embedded=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_mutants(path, task.mutants)
        ref = bughunt_reference(task)
        if ref is not None:
            (folder / REFERENCES).mkdir(exist_ok=True)
            write_text_atomic(folder / REFERENCES / f"{task.id}.sv", ref.content)
    if hunted:
        targets = {"notes": "the kill-rate targets of the benchmark this folder was built from",
                   "tasks": {t.id: {"target": t.bughunt_target} for t in hunted}}
        write_text_atomic(folder / TARGETS, json.dumps(targets, indent=1, sort_keys=True) + "\n")
    return len(hunted)


__all__ = ["REFERENCES", "TARGETS", "AUTOEVAL_MARK", "attach_bughunt", "write_bughunt_files", "attach_embedded", "apply_targets",
           "read_targets", "references_dir", "coverage_reference", "bughunt_reference"]
