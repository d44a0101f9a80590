"""`ecov-score`: score one testbench against one design and print the result."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ecov.harness.core.records import Design, SourceFile
from ecov.harness.loop.feedback import render_feedback
from ecov.harness.sandbox.factory import sandbox_names
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.base import DEFAULT_TRACK, get_track, track_names


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rtl", "rtl", multiple=True, required=True, type=click.Path(exists=True, dir_okay=False),
              help="Design source file (repeat for several).")
@click.option("--top", required=True, help="Top module of the design (the DUT).")
@click.option("--instance", required=True, help="Instance name the testbench gives the DUT.")
@click.option("--tb", "tb", required=True, type=click.Path(exists=True, dir_okay=False), help="Testbench file.")
@click.option("--seed", default=1, show_default=True, type=int, help="Simulation seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option("--sandbox", default="auto", show_default=True,
              type=click.Choice(sandbox_names()))
@click.option("--timeout", default=60.0, show_default=True, type=float, help="Simulation wall-clock limit (s).")
@click.option("--no-cache", is_flag=True, help="Always build and run, never reuse a stored result.")
@click.option("--tb-lang", type=click.Choice(track_names()), default=DEFAULT_TRACK, show_default=True,
              help="the testbench's language: " + "; ".join(f"{t}: {get_track(t).description}" for t in track_names())
              + " (a track other than sv needs the bwrap or docker sandbox).")
def cli(rtl, top, instance, tb, seed, as_json, sandbox, timeout, no_cache, tb_lang):
    """Score TB against the design: coverage of the DUT instance, per metric and instance."""
    files = tuple(SourceFile(Path(p).name, Path(p).read_text(errors="replace")) for p in rtl)
    names = [f.name for f in files]
    if len(set(names)) != len(names):
        raise click.UsageError("two --rtl files share a file name; rename one")
    design = Design(files, top, instance)
    try:
        engine = get_track(tb_lang).make_scorer(EngineConfig(sandbox=sandbox, run_seconds=timeout, use_cache=not no_cache))
    except (RuntimeError, ValueError) as exc:
        raise click.UsageError(str(exc)) from exc
    result = engine.score(design, Path(tb).read_text(errors="replace"), seed=seed)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, sort_keys=True))
    else:
        click.echo(render_feedback(result, max_chars=20000))
        iso = result.isolation if result.isolated else f"{result.isolation}, NOT isolated"
        click.echo(f"Overall ({instance}): {result.overall:.2f}%  [isolation: {iso}, "
                   f"{result.seconds:.2f} s{', cached' if result.cached else ''}]")


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="ecov-score", standalone_mode=True)
    except SystemExit as exc:
        # click exits 2 on usage errors already; anything else that produced a result is 0.
        sys.exit(exc.code)


if __name__ == "__main__":
    main()
