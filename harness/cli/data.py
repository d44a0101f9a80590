"""``ecov-data``: build, validate (calibrate), publish and list ECov benchmarks.

    ecov-data build autoeval-ecov --source ../shared/data/verilog-eval --out build/autoeval-ecov
    ecov-data validate build/autoeval-ecov --write-targets --json build/autoeval-cal.json
    ecov-data publish build/autoeval-ecov --repo-id ORG/autoeval-ecov
    ecov-data list [ecov-embedded | DIR | ORG/NAME]
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from ecov.harness import __version__
from ecov.harness.benchmark.bughunt_refs import write_bughunt_files
from ecov.harness.benchmark.builders.common import SourceError
from ecov.harness.benchmark.builders.ecov_train import BENCHMARK as TRAIN
from ecov.harness.benchmark.builders.ecov_train import TrainOptions
from ecov.harness.benchmark.spec import benchmark_names, get_benchmark
from ecov.harness.benchmark.store import (
    EMBEDDED,
    BenchmarkNotFound,
    dataset_hash,
    find_data_file,
    load_benchmark,
    load_folder,
    read_manifest,
    save_tasks,
    shipped_dir,
    write_manifest,
)
from ecov.harness.cli.mutants import mutants_cmd
from ecov.harness.cli.random_baseline import random_baseline_cmd
from ecov.harness.scoring.executor import executor_from_options, executor_options


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _portable(path) -> str:
    """The source path as recorded in a manifest: relative to the current folder when below its parent
    (``../shared/data``), so a shipped manifest does not carry one machine's absolute paths."""
    import os

    p = Path(str(path)).resolve()
    try:
        return os.path.relpath(p, Path.cwd()) if p.is_relative_to(Path.cwd().parent) else str(path)
    except ValueError:
        return str(path)


def _split_ids(only: str | None) -> list[str] | None:
    return [s.strip() for s in only.split(",") if s.strip()] if only else None


def _load(name: str, split: str):
    try:
        return load_benchmark(name, split)
    except (BenchmarkNotFound, FileNotFoundError, SourceError, ValueError) as e:
        # A benchmark that is not there is a usage error: exit 2, as ecov-eval --benchmark does.
        raise click.BadParameter(str(e), param_hint="BENCHMARK") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ecov-data")
def main() -> None:
    """Build, calibrate, publish and list ECov benchmarks (see docs/benchmarks.md)."""


@main.command()
@click.argument("name", type=click.Choice(benchmark_names(buildable=True)))
@click.option("--source", help="Upstream data: a path (default: ../shared/data next to the repo); for ecov-train "
              "also a hub id such as zhuyaoyu/CodeV-R1-dataset.")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Folder to write.")
@click.option("--format", "fmt", type=click.Choice(["parquet", "jsonl"]), default="parquet", show_default=True)
@click.option("--only", help="Comma-separated upstream ids to build (a slice).")
@click.option("--limit", type=click.IntRange(min=1), help="Keep the first N tasks (by id).")
@click.option("--skip-bad", is_flag=True, help="List malformed upstream items as left out instead of failing.")
@click.option("--tokenizer", default=None, help="ecov-train: tokenizer counting RTL tokens for the length split "
              "[default: Qwen/Qwen3-Coder-30B-A3B-Instruct, as released; 'whitespace' counts words].")
@click.option("--split-tokens", type=click.IntRange(min=1), default=1000, show_default=True,
              help="ecov-train: RTL tokens above which a design is long (released: 1000).")
@click.option("--keep", type=click.Choice(["all", "long", "short"]), default="all", show_default=True,
              help="ecov-train: keep designs on one side of the 1k-token RTL split (labelled in `difficulty`).")
@click.option("--against", multiple=True, help="ecov-train: evaluation benchmarks the contamination filter "
              "compares with (repeatable) [default: cvdp-ecov, autoeval-ecov, ecov-embedded].")
@click.option("--threshold", type=click.FloatRange(min=0, max=1, min_open=True), default=0.5, show_default=True,
              help="ecov-train: ROUGE-L F1 at which a design counts as contaminated (released: 0.5).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="ecov-train: worker processes for the contamination filter.")
def build(name: str, source: str | None, out: Path, fmt: str, only: str | None, limit: int | None,
          skip_bad: bool, tokenizer: str | None, split_tokens: int, keep: str, against: tuple[str, ...], threshold: float,
          jobs: int) -> None:
    """Build benchmark NAME from upstream data into OUT (data/test.<fmt> + manifest.json).

    Targets are provisional until `ecov-data validate OUT --write-targets` applies the target rule.
    """
    spec = get_benchmark(name)
    if source is None:
        src = spec.default_source
        if spec.load is None and (src is None or not src.exists()):
            raise click.UsageError(f"--source is required: default {src} does not exist")
    elif name == TRAIN:
        src = source  # a path or a hub id: the builder tells them apart
    else:
        src = Path(source)
        if not src.exists():
            raise click.BadParameter(f"{source} does not exist", param_hint="--source")
    kwargs = {}
    if name == TRAIN:
        kwargs["options"] = TrainOptions(tokenizer=tokenizer or TrainOptions.tokenizer, split_tokens=split_tokens, keep=keep,
                                         against=against or TrainOptions.against, threshold=threshold,
                                         jobs=jobs)
    try:
        res = spec.build(src, only=_split_ids(only), skip_bad=skip_bad, **kwargs)
    except (SourceError, BenchmarkNotFound) as e:
        raise click.ClickException(f"cannot build {name}: {e}") from None
    tasks = sorted(res.tasks, key=lambda t: t.id)[:limit] if limit else res.tasks
    if not tasks:
        raise click.ClickException(f"no {name} tasks in {src}")
    path = save_tasks(tasks, out, split=spec.split, fmt=fmt)
    manifest = {
        "benchmark": name, "built_at": _now(), "harness_version": __version__,
        "source": _portable(res.source) if Path(str(res.source)).exists() else str(res.source), "info": res.info, "count": len(tasks),
        "skipped": [s.to_dict() for s in res.skipped], "dataset_hash": dataset_hash(tasks),
        "calibration": None,
    }
    write_manifest(out, manifest)
    hunted = write_bughunt_files(tasks, out)  # the tasks' mutants, where the builder gives them (issue 31)
    click.echo(f"{name}: {len(tasks)} tasks -> {path}" + (f"; bug-hunt mutants of {hunted} tasks" if hunted else ""))
    if res.skipped:
        click.echo(f"left out ({len(res.skipped)}):")
        for s in res.skipped:
            click.echo(f"  {s.id}: {s.reason}")
    click.echo(f"dataset hash {manifest['dataset_hash']}")


@main.command()
@click.argument("benchmark")
@click.option("--split", default="test", show_default=True)
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), help="Write the table as JSON.")
@click.option("--write-targets", is_flag=True, help="Rewrite the built folder's targets by the benchmark's rule.")
@click.option("--only", help="Comma-separated task ids.")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N tasks.")
@click.option("--seed", default=1, show_default=True)
@click.option("--random-cycles", default=5000, show_default=True, help="Length of the random-stimulus fallback.")
@click.option("--quiet", is_flag=True, help="No per-task progress lines on stderr.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Tasks calibrated at once [default: 1; with --executor ray, the cluster's CPUs].")
@executor_options
def validate(benchmark: str, split: str, json_out: Path | None, write_targets: bool, only: str | None,
             limit: int | None, seed: int, random_cycles: int, quiet: bool, jobs: int | None, executor: str,
             ray_address: str | None) -> None:
    """Run every reference testbench of BENCHMARK (a folder, ecov-embedded or a hub id) and print the
    ceiling each task reaches against its targets, beside what two testbenches that drive nothing reach
    (the floors). Exit 1 when some task's targets are not met, or a floor meets the targets of a task not
    recorded as measuring nothing."""
    from ecov.harness.benchmark.calibrate import (
        calibrate,
        engine_scorer,
        summary,
        table,
        unmarked_floor_passes,
    )

    folder = Path(benchmark)
    if write_targets and not (folder.is_dir() and (folder / "manifest.json").is_file()):
        raise click.UsageError("--write-targets needs a built folder (one with manifest.json)")
    tasks = _load(benchmark, split)
    ids = _split_ids(only)
    if ids:
        unknown = sorted(set(ids) - {t.id for t in tasks})
        if unknown:
            raise click.UsageError(f"unknown task id(s): {', '.join(unknown)}")
        tasks = [t for t in tasks if t.id in ids]
    if limit:
        tasks = tasks[:limit]
    if write_targets and (ids or limit):
        raise click.UsageError("--write-targets rewrites the whole folder; do not combine it with --only/--limit")
    try:
        from ecov.harness.tracks.sv.scorer import Engine
    except ImportError as e:
        raise click.ClickException(f"the scoring engine is not available: {e}") from None
    scorer = executor_from_options(executor, ray_address, Engine())
    score = engine_scorer(scorer=scorer)
    n = len(tasks)
    done = [0]

    def progress(cal) -> None:
        done[0] += 1
        if not quiet:
            ceil = ", ".join(f"{v:.2f}" for v in cal.ceiling.values()) if cal.ok_runs else "-"
            state = "met" if cal.met else ("UNCALIBRATED" if cal.problem else "not met")
            click.echo(f"[{done[0]}/{n}] {cal.task_id}: ceiling {ceil} ({cal.by or 'no run finished'}) {state}",
                       err=True)

    try:
        cals = calibrate(tasks, score, seed=seed, random_cycles=random_cycles, progress=progress,
                         jobs=jobs or (scorer.parallelism if executor == "ray" else 1))
    finally:
        scorer.close()
    summ = summary(cals)
    click.echo(table(cals))
    click.echo(summ["line"])
    report = {"benchmark": benchmark, "at": _now(), "seed": seed, "summary": summ,
              "tasks": [c.to_dict() for c in cals]}
    if write_targets:
        report["after"] = _write_targets(folder, split, tasks, cals, summ, seed)
        click.echo(report["after"]["line"])
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(report, indent=2, sort_keys=True))
    if not write_targets:
        floor = unmarked_floor_passes(tasks, cals)
        if floor:
            click.echo(f"a testbench that drives nothing meets the targets of {len(floor)} task(s) not recorded as "
                       f"measuring nothing (rebuild with --write-targets): {', '.join(floor)}", err=True)
        if summ["met"] < summ["tasks"] or floor:
            sys.exit(1)


def _write_targets(folder: Path, split: str, tasks, cals, summ, seed: int) -> dict:
    from ecov.harness.benchmark.calibrate import apply_rule, target_key

    kept, left_out = [], []
    for task, cal in zip(tasks, cals, strict=True):
        new, reason = apply_rule(task, cal)
        if new is None:
            left_out.append({"id": task.id, "reason": f"cannot be calibrated: {reason}"})
        else:
            kept.append((new, cal))
    met_after = sum(
        any(r.status == "ok" and all(r.values.get(target_key(t), 0.0) >= t.percent for t in new.targets)
            for r in cal.runs)
        for new, cal in kept
    )
    new_tasks = [t for t, _ in kept]
    fmt = find_data_file(folder, split).suffix.lstrip(".")
    save_tasks(new_tasks, folder, split=split, fmt=fmt)
    manifest = read_manifest(folder)
    nothing = [{"id": t.id, "why": t.source["measures_nothing"]} for t in new_tasks if t.source.get("measures_nothing")]
    after = f"after the rule: {met_after}/{len(new_tasks)} kept tasks' targets met by a reference run; " \
            f"{len(left_out)} left out; {len(nothing)} measure nothing (a testbench that drives nothing meets them)"
    manifest.update({
        "count": len(new_tasks),
        "dataset_hash": dataset_hash(new_tasks),
        "calibration": {"at": _now(), "seed": seed, "before": summ, "after": after,
                        "met_after": met_after, "left_out": left_out, "measures_nothing": nothing},
    })
    write_manifest(folder, manifest)
    return {"line": after, "met": met_after, "kept": len(new_tasks), "left_out": left_out,
            "measures_nothing": nothing}


@main.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--repo-id", required=True, help="Hub dataset id, owner/name.")
@click.option("--token", envvar="HF_TOKEN", help="Hub token with write access (default: $HF_TOKEN).")
@click.option("--private", is_flag=True)
@click.option("--endpoint", envvar="HF_ENDPOINT", help="Hub endpoint (default: $HF_ENDPOINT or huggingface.co).")
@click.option("--dry-run", is_flag=True, help="Only write README.md (the dataset card) and print it.")
def publish(folder: Path, repo_id: str, token: str | None, private: bool, endpoint: str | None,
            dry_run: bool) -> None:
    """Upload a built FOLDER (a benchmark, or an ecov-train OUTPUT_DIR/dataset) to the hub as dataset REPO_ID,
    with its dataset card."""
    from ecov.harness.benchmark.publish import PublishError, card_for
    from ecov.harness.benchmark.publish import publish as do_publish

    if "/" not in repo_id:
        raise click.UsageError(f"--repo-id must be owner/name, not {repo_id!r}")
    if not (folder / "manifest.json").is_file():
        raise click.UsageError(f"{folder} is not a built benchmark folder (no manifest.json)")
    if dry_run:
        try:
            card = card_for(folder)
        except PublishError as e:
            raise click.ClickException(str(e)) from None
        (folder / "README.md").write_text(card)
        click.echo(card)
        return
    try:
        url = do_publish(folder, repo_id, token=token, private=private, endpoint=endpoint)
    except PublishError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"published {folder} -> {url}")


def _bughunt_counts(tasks) -> dict:
    """Bug hunt (issue 31): tasks with killable mutants, and the mutants they hold."""
    with_mutants = [t for t in tasks if t.mutants is not None and t.mutants.mutants]
    return {"bughunt_tasks": len(with_mutants), "mutants": sum(len(t.mutants.mutants) for t in with_mutants)}


def _list_json(benchmark: str | None, split: str) -> None:
    if benchmark is not None:
        tasks = _load(benchmark, split)
        click.echo(json.dumps({"benchmark": benchmark, "tasks": len(tasks), **_bughunt_counts(tasks),
                               "task_list": [{"id": t.id, "dut_module": t.dut_module, "mutants":
                                              len(t.mutants.mutants) if t.mutants else 0} for t in tasks]},
                              indent=1))
        return
    out = []
    for name in benchmark_names(buildable=True):
        spec = get_benchmark(name)
        row: dict = {"name": name, "shipped": spec.load is not None or spec.shipped}
        try:
            if spec.load is not None:
                tasks = spec.load()
            elif spec.shipped and shipped_dir(name) is not None:
                tasks = load_benchmark(name, split)
            else:
                tasks = None
        except (SourceError, ValueError, OSError) as e:
            row["error"] = str(e)
            tasks = None
        if tasks is not None:
            row.update(tasks=len(tasks), **_bughunt_counts(tasks))
        out.append(row)
    click.echo(json.dumps(out, indent=1))


@main.command(name="list")
@click.argument("benchmark", required=False)
@click.option("--split", default="test", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable: per benchmark its tasks and bughunt_tasks "
              "(tasks with killable mutants) and mutants.")
def list_cmd(benchmark: str | None, split: str, as_json: bool) -> None:
    """List the known benchmarks, or the tasks of BENCHMARK (a name, folder or hub id)."""
    if as_json:
        _list_json(benchmark, split)
        return
    if benchmark is None:
        for name in benchmark_names(buildable=True):
            spec = get_benchmark(name)
            src = spec.default_source
            if spec.load is not None:
                try:
                    n = f"{len(spec.load())} tasks, shipped in the package" + (" (default)" if name == EMBEDDED else "")
                except (SourceError, ValueError) as e:
                    n = f"unavailable: {e}"
            elif spec.shipped and (folder := shipped_dir(name)) is not None:
                try:
                    n = f"{len(load_folder(folder, split))} tasks, shipped built and calibrated ({folder})"
                except (SourceError, ValueError, OSError) as e:
                    n = f"shipped in {folder} but unreadable: {e}"
            else:
                n = f"build with: ecov-data build {name} --source PATH --out DIR" + \
                    (f" (default source {src}{'' if src and src.exists() else ', missing'})" if src else "")
            click.echo(f"{name:15s} {n}")
        return
    tasks = _load(benchmark, split)
    for t in tasks:
        tg = ", ".join(f"{x.instance}.{x.metric}>={x.percent:g}" for x in t.targets)
        click.echo(f"{t.id:40s} {t.dut_module:24s} {t.dut_instance:10s} {t.difficulty or '-':7s} {tg}")
    click.echo(f"{len(tasks)} tasks, dataset hash {dataset_hash(tasks)}")


main.add_command(random_baseline_cmd)  # issue 15: the random-hard record
main.add_command(mutants_cmd)  # issue 31: the bug hunt's mutants

if __name__ == "__main__":
    main()
