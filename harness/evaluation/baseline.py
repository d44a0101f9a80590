"""Beyond random: which tasks plain random stimulus fails, recorded with the benchmark build.

``builtin/random`` passes many tasks (easy designs are covered by any long enough stimulus), so a
model's pass % mixes what an LLM adds with what random stimulus gets for free. The *random-hard* tasks
of a benchmark are those that builtin/random fails in every one of its n agentic samples; a model's
"pass % on random-hard tasks" is its pass % over those tasks only (task-level mean, as ecov.harness.evaluation.metrics).

The record, ``random_baseline.json``, lies beside the built benchmark (``DIR/random_baseline.json``;
for the embedded suite ``harness/suite/random_baseline.json``; for a shipped benchmark named like
``cvdp-ecov``, in its shipped folder, ``benchmarks/NAME/random_baseline.json``). It holds per task the passing samples in direct
and agentic mode, n, the seed, rounds, protocol and versions it was made with. Make it with
``ecov-data random-baseline BENCHMARK [-n 3]`` (runs builtin/random twice) or from existing runs with
``--from-runs DIRECT_RUN AGENTIC_RUN``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

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

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["random_hard"] = sorted(self.random_hard)  # for readers of the file; derived, ignored on read
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RandomBaseline:
        known = set(cls.__dataclass_fields__)
        d = {k: v for k, v in d.items() if k in known}
        d["tasks"] = {t: TaskBaseline(**v) for t, v in (d.get("tasks") or {}).items()}
        return cls(**d)

    def write(self, path: str | os.PathLike) -> Path:
        from ecov.harness.core.run_folder import write_json_atomic

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, self.to_dict())
        return path


def from_runs(direct_run: str | os.PathLike, agentic_run: str | os.PathLike,
              difficulty: dict[str, str] | None = None) -> RandomBaseline:
    """The record from two finished builtin/random run folders (direct and agentic) on the same tasks."""
    from ecov.harness.core.run_folder import RunFolder
    from ecov.harness.evaluation.compare import protocol_of
    from ecov.harness.evaluation.tables import samples_frame

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


def record_path(benchmark: str | os.PathLike | None) -> Path | None:
    """Where the record of ``benchmark`` (as a run's config names it) lives, or None when nowhere."""
    from ecov.harness.benchmark.store import EMBEDDED

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
    from ecov.harness.benchmark.store import BUILT, shipped_dir

    return shipped_dir(name) if name in BUILT else None


def load_random_baseline(benchmark: str | os.PathLike | None) -> RandomBaseline | None:
    path = record_path(benchmark)
    if path is None:
        return None
    try:
        return RandomBaseline.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def random_hard_tasks(benchmark: str | os.PathLike | None) -> set[str] | None:
    """Task ids builtin/random fails in all its agentic samples; None when the benchmark has no record."""
    rec = load_random_baseline(benchmark)
    return rec.random_hard if rec else None


def random_hard_summary(benchmark: str | os.PathLike | None, per_task: dict[str, dict[str, Any]]) -> dict | None:
    """{"pass_rate", "tasks", "of"}: pass % over the run's random-hard tasks (summary ``per_task`` rows);
    None without a record, pass_rate None when the run has none of those tasks."""
    hard = random_hard_tasks(benchmark)
    if hard is None:
        return None
    rates = [float(d["pass_rate"]) for t, d in per_task.items() if t in hard and d.get("samples")]
    return {"pass_rate": round(sum(rates) / len(rates), 2) if rates else None, "tasks": len(rates),
            "of": len(hard)}


def difficulty_of(benchmark: str | os.PathLike | None) -> dict[str, str]:
    """task -> difficulty, from the benchmark's record, else from the benchmark itself when it is the
    embedded suite or a local folder (never the hub: a summary must not wait on the network)."""
    rec = load_random_baseline(benchmark)
    if rec and any(b.difficulty for b in rec.tasks.values()):
        return {t: b.difficulty for t, b in rec.tasks.items() if b.difficulty}
    from ecov.harness.benchmark.store import EMBEDDED, load_benchmark

    name = EMBEDDED if benchmark is None else str(benchmark)
    if name != EMBEDDED and not Path(name).exists():
        return {}
    try:
        return {t.id: t.difficulty for t in load_benchmark(name) if t.difficulty}
    except Exception:  # noqa: BLE001 - difficulty is a view; the summary stands without it
        return {}


def difficulty_summary(difficulty: dict[str, str], per_task: dict[str, dict[str, Any]]) -> dict[str, dict]:
    """{level: {"pass_rate", "tasks"}} over the run's tasks (task-level mean of summary ``per_task`` rates)."""
    import pandas as pd

    rows = [{"difficulty": difficulty[t], "pass_rate": float(d["pass_rate"])} for t, d in per_task.items()
            if difficulty.get(t) and d.get("samples")]
    if not rows:
        return {}
    g = pd.DataFrame(rows).groupby("difficulty")["pass_rate"].agg(["mean", "size"])
    order = [d for d in ("easy", "medium", "hard") if d in g.index] + sorted(set(g.index) - {"easy", "medium", "hard"})
    return {d: {"pass_rate": round(float(g.loc[d, "mean"]), 2), "tasks": int(g.loc[d, "size"])} for d in order}


def summary_views(benchmark: str | os.PathLike | None, per_task: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The keys ecov.harness.evaluation.runner adds to summary.json: ``random_hard`` and ``by_difficulty`` (when known)."""
    out: dict[str, Any] = {}
    hard = random_hard_summary(benchmark, per_task)
    if hard is not None:
        out["random_hard"] = hard
    by = difficulty_summary(difficulty_of(benchmark), per_task)
    if by:
        out["by_difficulty"] = by
    return out


def default_out(benchmark: str) -> Path | None:
    from ecov.harness.benchmark.store import EMBEDDED

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


@click.command(name="random-baseline")
@click.argument("benchmark")
@click.option("-n", "n_samples", type=click.IntRange(min=1), default=3, show_default=True,
              help="builtin/random samples per task and mode.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--max-rounds", type=click.IntRange(min=0), default=0, show_default=True,
              help="agentic rounds (0: the protocol's).")
@click.option("--protocol", default="llm4cov", show_default=True, type=click.Choice(["llm4cov", "ecov"]),
              help="evaluation protocol of both runs (ecov.harness.core.protocol).")
@click.option("--split", default="test", show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--runs", "runs_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="where the two run folders go (resumable) [default: runs/random-baseline_<benchmark>_*]")
@click.option("--from-runs", "existing", nargs=2, type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, metavar="DIRECT_RUN AGENTIC_RUN",
              help="make the record from two finished builtin/random runs instead of running them.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"[default: beside the built benchmark, BENCHMARK/{RECORD_NAME}; embedded: harness/suite/]")
def random_baseline_cmd(benchmark, n_samples, seed, max_rounds, protocol, split, workers, runs_dir, existing, out):
    """Record which tasks of BENCHMARK builtin/random fails (random_baseline.json): runs builtin/random
    in direct and agentic mode, n samples each, and writes per task the passing samples of each mode."""
    from ecov.harness.cli.eval import slug

    out = out or default_out(benchmark)
    if out is None:
        raise click.UsageError(f"{benchmark} is not a local folder: give --out FILE")
    if existing:
        direct, agentic = existing
    else:
        direct, agentic = _run_both(benchmark, split, n_samples, seed, max_rounds, protocol, workers,
                                    runs_dir or Path("runs"), slug(benchmark))
    try:
        from ecov.harness.benchmark.store import load_benchmark

        diff = {t.id: t.difficulty for t in load_benchmark(None if benchmark == "ecov-embedded" else benchmark,
                                                             split)}
    except Exception:  # noqa: BLE001 - difficulty is a convenience; the record stands without it
        diff = {}
    try:
        rec = from_runs(direct, agentic, diff)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    path = rec.write(out)
    _note_in_manifest(path.parent, rec)
    hard = sorted(rec.random_hard)
    click.echo(f"{rec.benchmark}: builtin/random x{rec.n} (seed {rec.seed}) fails {len(hard)} of {len(rec.tasks)} "
               f"tasks in agentic mode -> {path}")
    if hard:
        click.echo("random-hard: " + ", ".join(hard))


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
    }


def _note_in_manifest(folder: Path, rec: RandomBaseline) -> None:
    """A built folder's manifest carries the summary, so the card and `ecov-data list` can show it."""
    from ecov.harness.benchmark.store import MANIFEST, read_manifest, write_manifest

    if (folder / MANIFEST).is_file():
        manifest = read_manifest(folder)
        manifest["random_baseline"] = summary_line(rec)
        write_manifest(folder, manifest)


def _run_both(benchmark, split, n, seed, max_rounds, protocol, workers, runs_dir: Path,
              tag: str) -> tuple[Path, Path]:
    from ecov.harness.benchmark.store import dataset_hash
    from ecov.harness.cli.eval import _load_tasks
    from ecov.harness.core.run_folder import RunConfig
    from ecov.harness.evaluation.runner import run_eval
    from ecov.harness.models import get_model

    tasks = _load_tasks(benchmark, split, (), None)
    folders = []
    for mode in ("direct", "agentic"):
        folder = runs_dir / f"random-baseline_{tag}_{mode}"
        config = RunConfig(model="builtin/random", mode=mode, agent="memoryless" if mode == "agentic" else "direct",
                           benchmark=benchmark, dataset_hash=dataset_hash(tasks), n_samples=n,
                           max_rounds=max_rounds if mode == "agentic" else 1, seed=seed, split=split,
                           protocol=protocol)
        click.echo(f"builtin/random {mode}, n={n}: {folder}", err=True)
        run_eval(tasks, get_model("builtin/random"), config, folder, workers=workers)
        folders.append(folder)
    return folders[0], folders[1]
