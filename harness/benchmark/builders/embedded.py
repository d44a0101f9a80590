"""ecov-embedded: the suite of original designs shipped inside the package (harness/suite/<task_id>/).

Each task folder holds ``task.json`` {id, dut_module, dut_instance, difficulty, instructions, targets},
``spec.md``, ``rtl/*.sv`` and ``ref_tb.sv``. It is read through importlib.resources so it works from
an installed wheel with no download.
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from ecov.harness.benchmark.bughunt_refs import attach_embedded
from ecov.harness.benchmark.builders.common import BuildResult, SourceError, is_hdl
from ecov.harness.benchmark.mutantfiles import find_mutants
from ecov.harness.benchmark.spec import KIND, BenchmarkSpec
from ecov.harness.contracts.spec import find_contract
from ecov.harness.core.records import SourceFile, Target
from ecov.harness.registry import register
from ecov.harness.tasks import Task

BENCHMARK = "ecov-embedded"
LICENSE = "Apache-2.0 (ECov original designs)"


def suite_root() -> Traversable:
    return resources.files("ecov.harness") / "suite"


def _text(node: Traversable) -> str:
    return node.read_bytes().decode("utf-8", errors="replace")


def load_task_dir(folder: Traversable | Path) -> Task:
    where = str(folder)
    tj = folder / "task.json"
    if not tj.is_file():
        raise SourceError(f"{where}: no task.json")
    try:
        meta = json.loads(_text(tj))
    except json.JSONDecodeError as e:
        raise SourceError(f"{where}/task.json: bad JSON ({e.msg} at line {e.lineno})") from None
    missing = [k for k in ("id", "dut_module", "dut_instance", "targets") if not meta.get(k)]
    if missing:
        raise SourceError(f"{where}/task.json: missing {', '.join(missing)}")
    rtl_dir = folder / "rtl"
    rtl = sorted((n for n in rtl_dir.iterdir() if n.is_file() and is_hdl(n.name)), key=lambda n: n.name) \
        if rtl_dir.is_dir() else []
    if not rtl:
        raise SourceError(f"{where}: no rtl/*.sv")
    spec = folder / "spec.md"
    ref = folder / "ref_tb.sv"
    try:
        targets = [Target(t.get("instance") or meta["dut_instance"], t["metric"], float(t["percent"]))
                   for t in meta["targets"]]
    except (KeyError, TypeError, ValueError) as e:
        raise SourceError(f"{where}/task.json: bad target ({e!r}); want {{instance, metric, percent}}") from None
    source = {"upstream": "ECov original design", "upstream_id": str(meta["id"]), "license": LICENSE,
              "target_rule": "ecov-embedded"}
    source.update({k: str(v) for k, v in (meta.get("source") or {}).items()})
    return Task(
        id=str(meta["id"]),
        benchmark=BENCHMARK,
        rtl_files=[SourceFile(n.name, _text(n)) for n in rtl],
        spec_files=[SourceFile("spec.md", _text(spec))] if spec.is_file() else [],
        dut_module=str(meta["dut_module"]),
        dut_instance=str(meta["dut_instance"]),
        instructions=str(meta.get("instructions") or ""),
        targets=targets,
        difficulty=str(meta.get("difficulty") or ""),
        source=source,
        reference_tbs=[SourceFile("ref_tb.sv", _text(ref))] if ref.is_file() else [],
    )


def load_suite(root: Traversable | Path | None = None) -> list[Task]:
    """All tasks of the embedded suite (or of a folder in the same format), sorted by id."""
    root = suite_root() if root is None else root
    if not root.is_dir():
        raise SourceError(f"embedded suite folder {root} is missing")
    dirs = [d for d in root.iterdir() if d.is_dir() and (d / "task.json").is_file()]
    if not dirs:
        raise SourceError(f"no task folders (<task_id>/task.json) in {root}")
    tasks = []
    for d in dirs:
        task = load_task_dir(d)
        task.contract = find_contract(task.id, d, embedded=True)  # harness-owned, never in the row
        task.mutants = find_mutants(task, d, embedded=True)  # likewise (bug hunt)
        tasks.append(task)
    return attach_embedded(sorted(tasks, key=lambda t: t.id), root)


def build(source: Path | None = None, only: list[str] | None = None, skip_bad: bool = False) -> BuildResult:
    """Export the embedded suite (or a folder in its format) like any other benchmark build."""
    tasks = load_suite(Path(source) if source else None)
    if only:
        unknown = sorted(set(only) - {t.id for t in tasks})
        if unknown:
            raise SourceError(f"unknown embedded task id(s): {', '.join(unknown)}")
        tasks = [t for t in tasks if t.id in set(only)]
    return BuildResult(BENCHMARK, tasks=tasks, source=str(source or suite_root()))


SPEC = register(KIND, BENCHMARK, BenchmarkSpec(
    name=BENCHMARK, license=LICENSE, target_rule="authored targets (checked, never rewritten)", build=build,
    order=2, load=load_suite, card="ECov's own designs, shipped inside the package"))
