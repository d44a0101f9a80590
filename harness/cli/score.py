"""`ecov-score`: score one testbench against one design and print the result."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ecov.harness import __version__
from ecov.harness.cli.inputs import (
    EXIT_INFRA,
    MAX_RTL_BYTES,
    MAX_TB_BYTES,
    check_instance,
    check_top,
    describe_os_error,
    positive_seconds,
    readable,
    source_text,
)
from ecov.harness.core.records import (
    COMPILE_ERROR,
    CRASHED,
    INFRA_ERROR,
    NO_FINISH,
    OK,
    REJECTED,
    TIMEOUT,
    Design,
    ScoreResult,
    SourceFile,
)
from ecov.harness.loop.feedback import render_feedback
from ecov.harness.sandbox.factory import sandbox_names
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.rules import parses
from ecov.harness.tracks.base import DEFAULT_TRACK, get_track, track_names
from ecov.harness.tracks.cocotb import TB_FILE as COCOTB_TB
from ecov.harness.tracks.sv.scorer import TB_FILE as SV_TB

# The name each track compiles a testbench under; messages show the user's own file name instead.
INTERNAL_TB = {"sv": SV_TB, "cocotb": COCOTB_TB}
# Exit codes (docs/scoring.md): a script can tell each outcome apart without parsing the output.
EXIT_OK = 0  # compiled and ran to $finish; with --task: every target met
EXIT_TARGETS_MISSED = 1  # --task: it ran, but a target is not met
# EXIT_USAGE (2): a bad option or input file (one line says which and why)
EXIT_CODES = {COMPILE_ERROR: 3, REJECTED: 4, TIMEOUT: 5, CRASHED: 5, NO_FINISH: 5, INFRA_ERROR: EXIT_INFRA}
EXIT_HELP = ("Exit status: 0 ran to $finish (with --task: every target met); 1 with --task: ran, a target missed; "
             "2 bad option or input; 3 compile_error; 4 rejected by the test rules; 5 timeout, crashed or "
             "no_finish; 6 infra_error (the harness or sandbox failed, not the testbench).")


def exit_code(result: ScoreResult, targets: list | None) -> int:
    code = EXIT_CODES.get(result.status, EXIT_OK if result.status == OK else EXIT_CODES[INFRA_ERROR])
    if code == EXIT_OK and targets is not None and not result.meets(targets):
        return EXIT_TARGETS_MISSED
    return code


def _task_design(task_id: str, benchmark: str | None):
    from ecov.harness.benchmark.store import BenchmarkNotFound, load_benchmark

    try:
        tasks = load_benchmark(benchmark)
    except (BenchmarkNotFound, FileNotFoundError, ValueError) as e:
        raise click.BadParameter(str(e), param_hint="--benchmark") from None
    found = next((t for t in tasks if t.id == task_id), None)
    if found is None:
        ids = sorted(t.id for t in tasks)
        raise click.BadParameter(f"no task {task_id!r} in {benchmark or 'ecov-embedded'} (it has: "
                                 f"{', '.join(ids[:15])}{' ...' if len(ids) > 15 else ''})", param_hint="--task")
    return found


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_HELP)
@click.version_option(__version__, prog_name="ecov-score")
@click.option("--rtl", "rtl", multiple=True, type=click.Path(dir_okay=False),
              help="Design source file (repeat for several). Not with --task.")
@click.option("--top", default=None, help="Top module of the design (the DUT). Not with --task.")
@click.option("--instance", default=None, help="Instance name the testbench gives the DUT. Not with --task.")
@click.option("--task", "task_id", default=None,
              help="Score against this task's design and print pass/fail against its targets.")
@click.option("--benchmark", default=None, help="The benchmark --task is from [default: ecov-embedded].")
@click.option("--tb", "tb", required=True, type=click.Path(dir_okay=False), help="Testbench file.")
@click.option("--seed", default=1, show_default=True, type=int, help="Simulation seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option("--sandbox", default="auto", show_default=True,
              type=click.Choice(sandbox_names()))
@click.option("--timeout", default=60.0, show_default=True, type=float, callback=positive_seconds,
              help="Simulation wall-clock limit (s), above 0.")
@click.option("--no-cache", is_flag=True, help="Always build and run, never reuse a stored result.")
@click.option("--tb-lang", type=click.Choice(track_names()), default=DEFAULT_TRACK, show_default=True,
              help="the testbench's language: " + "; ".join(f"{t}: {get_track(t).description}" for t in track_names())
              + " (a track other than sv needs the bwrap or docker sandbox).")
def cli(rtl, top, instance, task_id, benchmark, tb, seed, as_json, sandbox, timeout, no_cache, tb_lang):
    """Score TB against the design: coverage of the DUT instance, per metric and instance."""
    targets = None
    if task_id is not None:
        if rtl or top or instance:
            raise click.UsageError("--task takes the design from the task: leave out --rtl, --top and --instance")
        task = _task_design(task_id, benchmark)
        design, targets, instance = task.design, list(task.targets), task.dut_instance
    else:
        if benchmark:
            raise click.UsageError("--benchmark goes with --task")
        missing = [o for o, v in (("--rtl", rtl), ("--top", top), ("--instance", instance)) if not v]
        if missing:
            raise click.UsageError(f"missing {', '.join(missing)} (or give --task ID)")
        texts = [source_text(p, "--rtl", MAX_RTL_BYTES) for p in rtl]
        if sum(len(t) for t in texts) > MAX_RTL_BYTES:
            raise click.BadParameter(f"the --rtl files together exceed {MAX_RTL_BYTES / 1e6:.0f} MB",
                                     param_hint="--rtl")
        files = tuple(SourceFile(Path(p).name, t) for p, t in zip(rtl, texts, strict=True))
        names = [f.name for f in files]
        if len(set(names)) != len(names):
            raise click.UsageError("two --rtl files share a file name; rename one")
        check_top(top, texts)
        design = Design(files, top, instance)
    testbench = source_text(tb, "--tb", MAX_TB_BYTES)
    if task_id is None and get_track(tb_lang).names_instance and parses(testbench):
        check_instance(instance, testbench)  # a quick hint on --instance; unparsable text goes to the compiler
    try:
        engine = get_track(tb_lang).make_scorer(EngineConfig(sandbox=sandbox, run_seconds=timeout, use_cache=not no_cache))
    except (RuntimeError, ValueError) as exc:
        raise click.UsageError(str(exc)) from exc
    try:
        result = engine.score(design, testbench, seed=seed)
    except OSError as e:  # the harness's own failure (disk, sandbox): not a score
        click.echo(f"Error: the harness failed while scoring {tb}: {describe_os_error(e)}", err=True)
        sys.exit(EXIT_CODES[INFRA_ERROR])
    if result.status == OK and instance not in (result.coverage or {}):
        # The figures would be those of no instance at all: the options and the files disagree.
        found = sorted({k.split(".")[0] for k in result.coverage or {}})
        raise click.BadParameter(f"the testbench has no top-level instance {instance!r}"
                                 + (f" (found: {', '.join(found)})" if found else "")
                                 + (f"; task {task_id} scores the DUT instantiated as {instance!r}" if task_id else ""),
                                 param_hint="--tb" if task_id else "--instance")
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, sort_keys=True))
    else:
        tb_name = Path(tb).name
        click.echo(readable(render_feedback(result, max_chars=20000), tb_name, INTERNAL_TB.get(tb_lang, SV_TB)))
        iso = result.isolation if result.isolated else f"{result.isolation}, NOT isolated"
        click.echo(f"Overall ({instance}): {result.overall:.2f}%  [{tb_name}; status {result.status}; isolation: "
                   f"{iso}, {result.seconds:.2f} s{', cached' if result.cached else ''}]")
        if targets is not None:
            for t in targets:
                got = result.metric_percent(t.instance, t.metric) if result.ran else 0.0
                click.echo(f"  target {t.instance} {t.metric} >= {t.percent:g}%: {got:.2f}% "
                           f"{'met' if result.ran and got >= t.percent else 'NOT met'}")
            click.echo(f"Task {task_id}: {'PASS' if result.meets(targets) else 'FAIL'}")
    sys.exit(exit_code(result, targets))


def main(argv: list[str] | None = None) -> None:
    cli.main(args=argv, prog_name="ecov-score", standalone_mode=True)


if __name__ == "__main__":
    main()
