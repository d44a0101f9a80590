"""Beyond random: which tasks plain random stimulus fails, recorded with the benchmark build.

``builtin/random`` passes many tasks (easy designs are covered by any long enough stimulus), so a
model's pass % mixes what an LLM adds with what random stimulus gets for free. The *random-hard* tasks
of a benchmark are those that builtin/random fails in every one of its n agentic samples; a model's
"pass % on random-hard tasks" is its pass % over those tasks only (task-level mean, as ecov.harness.evaluation.metrics).

The record, ``random_baseline.json``, lies beside the built benchmark (``DIR/random_baseline.json``;
for the embedded suite ``harness/suite/random_baseline.json``; for a shipped benchmark named like
``cvdp-ecov``, in its shipped folder, ``benchmarks/NAME/random_baseline.json``). It holds per task the passing samples in direct
and agentic mode, n, the seed, rounds, protocol and versions it was made with. Make it with
``ecov-data random-baseline BENCHMARK [-n 3]`` (ecov.harness.cli.random_baseline: runs builtin/random twice)
or from existing runs with ``--from-runs DIRECT_RUN AGENTIC_RUN``. The summary views that read it are
ecov.harness.evaluation.views.

The record also holds each task's floor (issue 32): the overall coverage of the two testbenches that drive
nothing (ecov.harness.tracks.sv.floor_tb: ``empty``, ``idle``) and whether one of them meets the task's
targets. Such a task measures nothing: ``measures_nothing_tasks(benchmark)`` lists them for the headline
figures to leave out (calibration records the same in the task's ``source.measures_nothing``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ecov.harness.benchmark.spec import get_benchmark
from ecov.harness.benchmark.store import EMBEDDED, MANIFEST, read_manifest, shipped_dir, write_manifest
from ecov.harness.core.run_folder import RunFolder, write_json_atomic
from ecov.harness.evaluation.compare import protocol_of
from ecov.harness.evaluation.tables import samples_frame

RECORD_NAME = "random_baseline.json"
SUITE_RECORD = Path(__file__).resolve().parents[1] / "suite" / RECORD_NAME
RECORD_VERSION = 1


@dataclass
class TaskBaseline:
    direct: int  # samples that passed in direct mode (of n)
    agentic: int  # samples that passed in agentic mode (of n)
    difficulty: str = ""
    direct_overall: float = 0.0  # mean final overall coverage, direct
    agentic_overall: float = 0.0  # mean final overall coverage, agentic
    empty_overall: float | None = None  # the floors: overall coverage with no stimulus at all
    idle_overall: float | None = None  # ... with clocks and resets only
    floor_meets: bool = False  # a floor meets the task's targets: the task measures nothing


@dataclass
class RandomBaseline:
    benchmark: str
    split: str
    dataset_hash: str
    n: int
    seed: int
    max_rounds: int
    protocol: str
    ecov_version: str
    verilator_version: str
    created: str
    tasks: dict[str, TaskBaseline] = field(default_factory=dict)
    version: int = RECORD_VERSION

    @property
    def random_hard(self) -> set[str]:
        """Tasks builtin/random fails in every agentic sample."""
        return {t for t, b in self.tasks.items() if b.agentic == 0}

    @property
    def measures_nothing(self) -> set[str]:
        """Tasks whose targets a testbench that drives nothing meets."""
        return {t for t, b in self.tasks.items() if b.floor_meets}

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["random_hard"] = sorted(self.random_hard)  # for readers of the file; derived, ignored on read
        d["measures_nothing"] = sorted(self.measures_nothing)  # idem
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RandomBaseline:
        known = set(cls.__dataclass_fields__)
        d = {k: v for k, v in d.items() if k in known}
        d["tasks"] = {t: TaskBaseline(**v) for t, v in (d.get("tasks") or {}).items()}
        return cls(**d)

    def write(self, path: str | os.PathLike) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, self.to_dict())
        return path


def from_runs(direct_run: str | os.PathLike, agentic_run: str | os.PathLike,
              difficulty: dict[str, str] | None = None) -> RandomBaseline:
    """The record from two finished builtin/random run folders (direct and agentic) on the same tasks."""
    fd, fa = RunFolder(direct_run), RunFolder(agentic_run)
    for f, mode in ((fd, "direct"), (fa, "agentic")):
        if not f.exists():
            raise ValueError(f"{f.root} is not an ecov-eval run folder (no config.json)")
        c = f.read_config()
        if c.model != "builtin/random" or c.mode != mode:
            raise ValueError(f"{f.root} is a {c.model} {c.mode} run; expected builtin/random {mode}")
    cd, ca = fd.read_config(), fa.read_config()
    for key in ("benchmark", "split", "dataset_hash", "n_samples", "seed"):
        if getattr(cd, key) != getattr(ca, key):
            raise ValueError(f"the direct and agentic runs differ in {key}: {getattr(cd, key)!r} vs "
                             f"{getattr(ca, key)!r}")
    if protocol_of(fd.root) != protocol_of(fa.root):
        raise ValueError("the direct and agentic runs used different protocol presets")
    frames = {}
    for f, c, mode in ((fd, cd, "direct"), (fa, ca, "agentic")):
        s = samples_frame(f)
        missing = len(c.task_ids or []) * c.n_samples - len(s)
        if missing > 0:
            raise ValueError(f"the {mode} run {f.root} is incomplete ({missing} samples missing): resume it")
        frames[mode] = s.groupby("task_id").agg(passed=("passed", "sum"), overall=("final_overall", "mean"))
    difficulty = difficulty or {}
    tasks = {
        t: TaskBaseline(direct=int(frames["direct"].loc[t, "passed"]), agentic=int(frames["agentic"].loc[t, "passed"]),
                        difficulty=difficulty.get(t, ""),
                        direct_overall=round(float(frames["direct"].loc[t, "overall"]), 2),
                        agentic_overall=round(float(frames["agentic"].loc[t, "overall"]), 2))
        for t in sorted(set(frames["direct"].index) & set(frames["agentic"].index))
    }
    return RandomBaseline(
        benchmark=ca.benchmark, split=ca.split, dataset_hash=ca.dataset_hash, n=ca.n_samples, seed=ca.seed,
        max_rounds=ca.max_rounds, protocol=protocol_of(fa.root), ecov_version=ca.harness_version,
        verilator_version=ca.verilator_version, created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        tasks=tasks)


def add_floors(rec: RandomBaseline, tasks: list, floors: Callable[[Any], dict[str, Any]]) -> RandomBaseline:
    """Each task's floor figures from ``floors(task)`` -> {"empty": ScoreResult, "idle": ScoreResult}."""
    for task in tasks:
        b = rec.tasks.get(task.id)
        if b is None:
            continue
        got = floors(task)
        b.empty_overall = round(got["empty"].overall, 2) if "empty" in got else None
        b.idle_overall = round(got["idle"].overall, 2) if "idle" in got else None
        b.floor_meets = any(r.meets(task.targets) for r in got.values())
    return rec


def record_path(benchmark: str | os.PathLike | None) -> Path | None:
    """Where the record of ``benchmark`` (as a run's config names it) lives, or None when nowhere."""
    if benchmark is None or str(benchmark) == EMBEDDED:
        return SUITE_RECORD if SUITE_RECORD.is_file() else None
    p = Path(benchmark).expanduser()
    if p.exists():
        for d in ([p] if p.is_dir() else []) + list(p.parents)[:3]:
            if (d / RECORD_NAME).is_file():
                return d / RECORD_NAME
    shipped = _shipped(Path(str(benchmark).rstrip("/")).name)
    if shipped is not None and (shipped / RECORD_NAME).is_file():
        return shipped / RECORD_NAME
    return None


def _shipped(name: str) -> Path | None:
    """The shipped built folder of a benchmark named like cvdp-ecov (ecov.harness.benchmark.store.shipped_dir)."""
    spec = get_benchmark(name)
    return shipped_dir(name) if spec is not None and spec.shipped else None


def load_random_baseline(benchmark: str | os.PathLike | None) -> RandomBaseline | None:
    path = record_path(benchmark)
    if path is None:
        return None
    try:
        return RandomBaseline.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def default_out(benchmark: str) -> Path | None:
    if benchmark == EMBEDDED:
        return SUITE_RECORD
    p = Path(benchmark)
    shipped = None if p.exists() else _shipped(benchmark)
    if shipped is not None:  # a shipped benchmark by name: its folder
        return shipped / RECORD_NAME
    if p.is_dir():
        return p / RECORD_NAME
    if p.is_file():
        return p.parent.parent / RECORD_NAME if p.parent.name == "data" else p.parent / RECORD_NAME
    return None


def summary_line(rec: RandomBaseline) -> dict[str, Any]:
    """The record in a few numbers: tasks passed (any of n samples) per mode, and the random-hard count."""
    n = len(rec.tasks)
    return {
        "n": rec.n, "seed": rec.seed, "protocol": rec.protocol, "max_rounds": rec.max_rounds, "tasks": n,
        "direct_passed": sum(b.direct > 0 for b in rec.tasks.values()),
        "agentic_passed": sum(b.agentic > 0 for b in rec.tasks.values()),
        "direct_pass_rate": round(100.0 * sum(b.direct for b in rec.tasks.values()) / (n * rec.n), 2) if n else 0.0,
        "agentic_pass_rate": round(100.0 * sum(b.agentic for b in rec.tasks.values()) / (n * rec.n), 2) if n else 0.0,
        "random_hard": len(rec.random_hard),
        "measures_nothing": len(rec.measures_nothing),
    }


def note_in_manifest(folder: Path, rec: RandomBaseline) -> None:
    """A built folder's manifest carries the summary, so the card and `ecov-data list` can show it."""
    if (folder / MANIFEST).is_file():
        manifest = read_manifest(folder)
        manifest["random_baseline"] = summary_line(rec)
        write_manifest(folder, manifest)


def random_hard_tasks(benchmark: str | os.PathLike | None) -> set[str] | None:
    """Task ids builtin/random fails in all its agentic samples; None when the benchmark has no record."""
    rec = load_random_baseline(benchmark)
    return rec.random_hard if rec else None


def measures_nothing_tasks(benchmark: str | os.PathLike | None) -> set[str] | None:
    """Task ids whose targets a testbench that drives nothing meets (the headline leaves them out); None when
    the benchmark has no record."""
    rec = load_random_baseline(benchmark)
    return rec.measures_nothing if rec else None
