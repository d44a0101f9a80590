"""ecov-train: the LLM4Cov recipe, one config per stage.

    ecov-train synth --config trainers/configs/stage1.yaml   # rows + dataset/ (selection, rollouts, rejection, curation)
    ecov-train sft   --config trainers/configs/stage1.yaml   # SFT on output_dir/rows.jsonl
    ecov-train stage --config trainers/configs/stage1.yaml   # both
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import click

from ecov.harness import __version__
from ecov.harness.scoring.executor import executor_from_options, executor_options
from ecov.trainers.config import ConfigError, StageConfig, load_config

_config_opt = click.option("--config", "config_path", required=True, type=click.Path(dir_okay=False),
                           help="Stage config (YAML), e.g. trainers/configs/stage1.yaml.")


def _input_errors() -> tuple[type[Exception], ...]:
    """Errors that mean the config points at something missing or wrong: usage errors (exit 2)."""
    from ecov.harness.benchmark.store import BenchmarkNotFound
    from ecov.harness.models import MissingKeyError, UnknownModelError
    from ecov.trainers.selection import NotDirectRun
    from ecov.trainers.synth import NoTasks

    return (FileNotFoundError, BenchmarkNotFound, MissingKeyError, UnknownModelError, NoTasks, NotDirectRun)


_INPUT_ERRORS = _input_errors()

_workers_opt = click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True,
                            help="Builds and simulations at once with --executor local (revisions of a state, "
                                 "re-scored rows); with --executor ray the cluster's CPUs.")


def _log(msg: str) -> None:
    click.echo(msg, err=True)


def _load(path: str) -> StageConfig:
    try:
        return load_config(path)
    except ConfigError as e:
        raise click.BadParameter(str(e), param_hint="--config") from None


def _bad_input(e: Exception) -> click.UsageError:
    return click.UsageError(f"{type(e).__name__}: {e}")


def _need_train_extra() -> None:
    missing = []
    for mod in ("torch", "transformers", "trl", "datasets"):
        try:
            __import__(mod)
        except ImportError:
            missing.append(mod)
    if missing:
        raise click.ClickException(f"SFT needs {', '.join(missing)}: pip install 'ecov[train]'")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ecov-train")
def main() -> None:
    """Reference trainers: synthesis, worst-state sampling, coverage-guided rejection, SFT."""


def _executor(cfg: StageConfig, executor: str, ray_address: str | None, workers: int):
    """The executor every score of the stage goes through (ecov.harness.scoring.executor)."""
    from ecov.trainers.scoring import make_engine, sources_track

    try:
        track = sources_track(cfg.sources)
    except _INPUT_ERRORS as e:
        raise _bad_input(e) from None
    ex = executor_from_options(executor, ray_address, make_engine(track), workers)
    if executor != "local":
        _log(f"executor: {ex.describe()}")
    return ex


@main.command()
@_config_opt
@executor_options
@_workers_opt
def synth(config_path: str, executor: str, ray_address: str | None, workers: int) -> None:
    """Build the stage's training rows (no SFT): writes rows.jsonl, curation.json and reports."""
    from ecov.trainers.stages import synth_stage

    cfg = _load(config_path)
    scorer = _executor(cfg, executor, ray_address, workers)
    try:
        out = synth_stage(cfg, engine=scorer, log=_log)
    except _INPUT_ERRORS as e:
        raise _bad_input(e) from None
    finally:
        scorer.close()
    click.echo(json.dumps({"rows": len(out.curation.kept), "output_dir": cfg.output_dir, **out.stats}, indent=2))


@main.command()
@_config_opt
@click.option("--rows", "rows_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Rows to train on (default: OUTPUT_DIR/rows.jsonl from `synth`).")
def sft(config_path: str, rows_path: str | None) -> None:
    """Fine-tune student.init (or student.base) on the stage's rows."""
    from ecov.trainers.stages import sft_stage
    from ecov.trainers.synth import read_rows

    cfg = _load(config_path)
    _need_train_extra()
    try:
        rows = read_rows(rows_path) if rows_path else read_rows(cfg.out / "rows.jsonl")
    except FileNotFoundError as e:
        raise _bad_input(e) from None
    from ecov.trainers.sft import MixedStagesError

    try:
        summary = sft_stage(cfg, rows, log=_log)
    except MixedStagesError as e:
        raise _bad_input(e) from None
    except ValueError as e:  # no rows, every row too long, a tokenizer without a chat template
        raise click.ClickException(str(e)) from None
    d = summary.to_dict()
    d.pop("losses")
    click.echo(json.dumps(d, indent=2))


@main.command()
@_config_opt
@click.option("--no-sft", is_flag=True, help="Stop after curation (same as sft.enabled: false).")
@executor_options
@_workers_opt
def stage(config_path: str, no_sft: bool, executor: str, ray_address: str | None, workers: int) -> None:
    """Run a whole stage: synth/sample -> reject -> curate -> SFT."""
    from ecov.trainers.stages import run_stage

    cfg = _load(config_path)
    if no_sft:
        cfg.sft.enabled = False
    if cfg.sft.enabled:
        _need_train_extra()
    from ecov.trainers.sft import MixedStagesError

    scorer = _executor(cfg, executor, ray_address, workers)
    try:
        summary = run_stage(cfg, engine=scorer, log=_log)
    except _INPUT_ERRORS as e:
        raise _bad_input(e) from None
    except MixedStagesError as e:
        raise _bad_input(e) from None
    except ValueError as e:  # e.g. rejection kept no revision, so there is nothing to train on
        raise click.ClickException(f"{e} (the stage's reports are in {cfg.output_dir})") from None
    finally:
        scorer.close()
    click.echo(json.dumps(summary, indent=2))


@main.command()
@click.option("--config", "config_path", required=True, type=click.Path(dir_okay=False),
              help="Pipeline config (YAML), e.g. trainers/configs/pipeline.yaml or pipeline_tiny_cpu.yaml "
                   "(not a stage config: those go to `ecov-train stage`).")
@click.option("--check", is_flag=True, help="Only the preflight: check every path, benchmark, model, tool, "
                                            "port and the disk, print each problem, exit 1 if there is one.")
def pipeline(config_path: str, check: bool) -> None:
    """Run the whole recipe (corpus, teacher runs, stages 0-2 with serving, SFT and evaluation, submission).
    The preflight (--check) runs first. Resumable: rerun the same command after an interruption; a step
    whose config or inputs changed runs again, with every step after it. See docs/trainers.md."""
    from ecov.trainers.pipeline import Pipeline, StepFailed, load_pipeline, plan_steps
    from ecov.trainers.preflight import preflight

    try:
        cfg = load_pipeline(config_path)
    except ConfigError as e:
        raise click.BadParameter(str(e), param_hint="--config") from None
    if check:
        report = preflight(cfg)
        for line in report.checked:
            click.echo(f"ok       {line}")
        for line in report.notes:
            click.echo(f"note     {line}")
        for line in report.problems:
            click.echo(f"PROBLEM  {line}")
        if not report.problems:
            click.echo(f"steps: {', '.join(s.name for s in plan_steps(cfg))}")
        if report.problems:
            click.echo(f"preflight: {len(report.problems)} problem(s); nothing was run", err=True)
            sys.exit(1)
        click.echo("preflight: ok", err=True)
        return
    # A SIGTERM (timeout, scheduler) must unwind like Ctrl-C so the model servers the driver started are
    # stopped (they run in their own process groups and would outlive it).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        summary = Pipeline(cfg, log=lambda m: click.echo(m, err=True)).run()
    except (StepFailed, FileNotFoundError, ConfigError) as e:
        raise click.ClickException(str(e)) from None
    click.echo(json.dumps({"workdir": cfg.workdir, "steps": [{k: v for k, v in s.items() if k in
                                                             ("step", "summary", "seconds")} for s in summary]},
                          indent=2))


@main.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the block here (default: print it).")
def rules(out: Path | None) -> None:
    """The 12 SystemVerilog rules (ECov's wording of the paper's Appendix A) for the teacher's prompt:
    pass the file to `ecov-eval --instructions-suffix` when generating stage-0 data; synth strips it."""
    from ecov.trainers.inject import EXPERT_RULES

    if out is None:
        click.echo(EXPERT_RULES)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(EXPERT_RULES + "\n")
        click.echo(str(out))


if __name__ == "__main__":
    sys.exit(main())
