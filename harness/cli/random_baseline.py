"""``ecov-data random-baseline``: record which tasks of a benchmark builtin/random fails
(random_baseline.json, ecov.harness.evaluation.baseline) by running it in direct and agentic mode."""

from __future__ import annotations

from pathlib import Path

import click

from ecov.harness.benchmark.calibrate import floor_testbenches
from ecov.harness.benchmark.store import TaskSelectionError, dataset_hash, load_benchmark, select_tasks
from ecov.harness.cli.eval import slug
from ecov.harness.core.protocol import DEFAULT_PROTOCOL, protocol_names
from ecov.harness.core.run_folder import RunConfig
from ecov.harness.evaluation.baseline import RECORD_NAME, add_floors, default_out, from_runs, note_in_manifest
from ecov.harness.evaluation.runner import run_eval
from ecov.harness.models import get_model
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine


@click.command(name="random-baseline")
@click.argument("benchmark")
@click.option("-n", "n_samples", type=click.IntRange(min=1), default=3, show_default=True,
              help="builtin/random samples per task and mode.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--max-rounds", type=click.IntRange(min=0), default=0, show_default=True,
              help="agentic rounds (0: the protocol's).")
@click.option("--protocol", default=DEFAULT_PROTOCOL, show_default=True, type=click.Choice(protocol_names()),
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
    out = out or default_out(benchmark)
    if out is None:
        raise click.UsageError(f"{benchmark} is not a local folder: give --out FILE")
    if existing:
        direct, agentic = existing
    else:
        direct, agentic = _run_both(benchmark, split, n_samples, seed, max_rounds, protocol, workers,
                                    runs_dir or Path("runs"), slug(benchmark))
    try:
        diff = {t.id: t.difficulty for t in load_benchmark(None if benchmark == "ecov-embedded" else benchmark,
                                                             split)}
    except Exception:  # noqa: BLE001 - difficulty is a convenience; the record stands without it
        diff = {}
    try:
        rec = from_runs(direct, agentic, diff)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    try:
        tasks = select_tasks(benchmark, split)
    except Exception as e:  # noqa: BLE001 - the record stands without its floors, and says so
        click.echo(f"warning: no floors recorded (the tasks of {benchmark} cannot be loaded: {e})", err=True)
    else:
        add_floors(rec, tasks, _floor_scorer())
    path = rec.write(out)
    note_in_manifest(path.parent, rec)
    hard = sorted(rec.random_hard)
    click.echo(f"{rec.benchmark}: builtin/random x{rec.n} (seed {rec.seed}) fails {len(hard)} of {len(rec.tasks)} "
               f"tasks in agentic mode -> {path}")
    if hard:
        click.echo("random-hard: " + ", ".join(hard))
    if rec.measures_nothing:
        click.echo("measures nothing (a testbench that drives nothing meets the targets): "
                   + ", ".join(sorted(rec.measures_nothing)))


def _tasks(benchmark: str, split: str) -> list:
    try:
        return select_tasks(benchmark, split)
    except TaskSelectionError as e:
        raise click.BadParameter(str(e), param_hint=e.param) from None


def _floor_scorer():
    """task -> {floor: ScoreResult}: the floor testbenches (calibrate.floor_testbenches) through the SV engine."""
    engine = Engine(EngineConfig())

    def floors(task) -> dict:
        try:
            tbs = floor_testbenches(task)
        except ValueError as e:
            raise click.ClickException(str(e)) from None
        out = {}
        for name, tb in tbs:
            res = engine.score(task.design, tb)
            if res.status not in ("ok", "no_finish"):
                raise click.ClickException(f"{task.id}: the {name} testbench did not run ({res.status}: "
                                           f"{'; '.join(res.errors[:2])})")
            out[name.split(":", 1)[1]] = res
        return out

    return floors


def _run_both(benchmark, split, n, seed, max_rounds, protocol, workers, runs_dir: Path,
              tag: str) -> tuple[Path, Path]:
    tasks = _tasks(benchmark, split)
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
