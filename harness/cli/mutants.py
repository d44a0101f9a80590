"""``ecov-data mutants NAME``: make (or remake) the bug hunt's killable mutants of a benchmark's tasks.

    ecov-data mutants ecov-embedded                  # harness/suite/<task>/mutants.json
    ecov-data mutants cvdp-ecov --task ID1,ID2       # benchmarks/cvdp-ecov/mutants/<task>.json
    ecov-data mutants DIR --force                    # a built folder: DIR/mutants/<task>.json

Tasks that already have a file are skipped unless ``--force``, so an interrupted run resumes. One line per
task with its made/kept/dropped counts; a task whose mutants cannot be made is named with the cause and
makes the command exit 1 (the others are still written).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from ecov.harness.benchmark.builders.embedded import suite_root
from ecov.harness.benchmark.mutantfiles import mutants_path, write_mutants
from ecov.harness.benchmark.mutants import BATCH, BATCHES, KEEP, RANDOM_CYCLES, MutantGenError, make_mutants
from ecov.harness.benchmark.store import EMBEDDED, BenchmarkNotFound, load_benchmark, shipped_dir
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.bughunt import BughuntEngine


def _where(name: str) -> tuple[Path, bool]:
    """(the folder the mutants files go under, whether it is the embedded suite's layout)."""
    if name == EMBEDDED:
        return Path(str(suite_root())), True
    folder = shipped_dir(name)
    if folder is not None:
        return folder, False
    p = Path(name)
    if p.is_dir():
        return p, False
    raise click.BadParameter(f"{name}: not {EMBEDDED}, a shipped benchmark or a built folder", param_hint="NAME")


@click.command(name="mutants")
@click.argument("name")
@click.option("--task", "task_ids", default="", help="Comma-separated task ids (default: every task).")
@click.option("--force", is_flag=True, help="Remake files that exist.")
@click.option("--keep", default=KEEP, show_default=True, help="Killable mutants kept per task, at most.")
@click.option("--batch", default=BATCH, show_default=True, help="Candidates per schema build.")
@click.option("--batches", default=BATCHES, show_default=True, help="Schema builds per task, at most.")
@click.option("--cycles", default=RANDOM_CYCLES, show_default=True, help="Cycles of the legal random stimulus.")
@click.option("--jobs", default=0, help="Mutant runs at once (default: $ECOV_BUGHUNT_JOBS, else up to 2).")
@click.option("--sandbox", default="auto", show_default=True)
def mutants_cmd(name: str, task_ids: str, force: bool, keep: int, batch: int, batches: int, cycles: int, jobs: int,
                sandbox: str) -> None:
    """Make the killable mutants of benchmark NAME's tasks (docs/benchmarks.md, "Bug hunt")."""
    folder, embedded = _where(name)
    try:
        tasks = load_benchmark(None if name == EMBEDDED else name)
    except (BenchmarkNotFound, FileNotFoundError, ValueError) as e:
        raise click.BadParameter(str(e), param_hint="NAME") from None
    wanted = {t.strip() for t in task_ids.split(",") if t.strip()}
    unknown = sorted(wanted - {t.id for t in tasks})
    if unknown:
        raise click.BadParameter(f"unknown task id(s): {', '.join(unknown)}", param_hint="--task")
    tasks = [t for t in tasks if not wanted or t.id in wanted]
    engine = BughuntEngine(EngineConfig(sandbox=sandbox), jobs=jobs)
    failed: list[str] = []
    totals = {"tasks": 0, "with_10": 0, "kept": 0}
    for i, task in enumerate(tasks, 1):
        path = mutants_path(task.id, folder / task.id if embedded else folder, embedded)
        if path.is_file() and not force:
            click.echo(f"[{i}/{len(tasks)}] {task.id}: exists, skipped")
            continue
        start = time.monotonic()
        try:
            ms = make_mutants(task, engine, keep=keep, batch=batch, batches=batches, cycles=cycles)
        except (MutantGenError, OSError, RuntimeError, ValueError) as e:
            failed.append(task.id)
            click.echo(f"[{i}/{len(tasks)}] {task.id}: FAILED: {e}", err=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_mutants(path, ms)
        totals["tasks"] += 1
        totals["kept"] += len(ms.mutants)
        totals["with_10"] += len(ms.mutants) >= 10
        click.echo(f"[{i}/{len(tasks)}] {task.id}: kept {ms.stats['kept']} of {ms.stats['made']} "
                   f"(dropped {json.dumps(ms.stats['dropped'], sort_keys=True)}) in {time.monotonic() - start:.0f} s",
                   nl=True)
    click.echo(f"{totals['tasks']} task(s) written, {totals['kept']} mutants, {totals['with_10']} with >= 10"
               + (f"; failed: {', '.join(failed)}" if failed else ""))
    if failed:
        raise SystemExit(1)


__all__ = ["mutants_cmd"]
