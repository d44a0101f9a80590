"""``ecov-eval``: evaluate a model on a benchmark; ``ecov-eval report RUN_DIR`` prints a run's summary again,
``ecov-eval export RUN_DIR`` writes it as a table, ``ecov-eval compare RUN_A RUN_B`` compares two runs,
``ecov-eval view RUN_DIR`` writes it as local HTML pages.

``main`` dispatches by hand on the subcommands because the evaluation itself takes its options on the root
command (``ecov-eval --model X``), which a click group would not allow.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sys
from pathlib import Path

import click

from ecov.harness import __version__
from ecov.harness.benchmark.store import EMBEDDED, TaskSelectionError, select_tasks
from ecov.harness.cli.config_file import expand_config
from ecov.harness.cli.inputs import EXIT_INFRA, describe_os_error, writable_folder
from ecov.harness.core.limits import DEFAULT_REQUEST_TIMEOUT, MAX_REQUEST_TIMEOUT, MAX_ROUNDS, MAX_SAMPLES
from ecov.harness.core.protocol import DEFAULT_PROTOCOL, get_protocol, protocol_names
from ecov.harness.loop.agent import AGENTS, MODES
from ecov.harness.loop.bughunt_round import BughuntRoundScorer
from ecov.harness.models import builtin_names
from ecov.harness.models.probe import EndpointUnreachable, api_for, probe
from ecov.harness.sandbox.factory import sandbox_names
from ecov.harness.scoring.executor import LocalExecutor, executor_from_options, executor_options
from ecov.harness.tracks.base import DEFAULT_TRACK, get_track, make_bughunt_engine, tb_io, track_names

DEFAULT_BENCHMARK = EMBEDDED


def slug(text: str) -> str:
    text = text.rstrip("/")
    if "/" in text and Path(text).exists():  # a folder or file path: its name
        text = Path(text).stem if Path(text).is_file() else Path(text).name
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or "x"


def default_out(model: str, mode: str, agent: str, benchmark: str, protocol: str = DEFAULT_PROTOCOL,
                tb_lang: str = DEFAULT_TRACK) -> Path:
    """Stable, so that running the same command again resumes: runs/<model>_<mode>_<benchmark>
    (``-<protocol>`` after the mode for a protocol other than the default, then the track's run tag:
    ``-<tb_lang>`` for a track other than the default)."""
    tag = mode if mode == "direct" or agent == "memoryless" else f"{mode}-{agent}"
    if protocol != DEFAULT_PROTOCOL:
        tag += f"-{protocol}"
    tag += get_track(tb_lang).run_tag
    return Path("runs") / f"{slug(model)}_{tag}_{slug(benchmark)}"


def _load_tasks(benchmark: str, split: str, task_ids: tuple[str, ...], limit: int | None):
    if benchmark == EMBEDDED and split != "test":
        raise click.BadParameter(f"{EMBEDDED} has one split, 'test'; not {split!r}", param_hint="--split")
    try:
        return select_tasks(benchmark, split, task_ids, limit)
    except TaskSelectionError as e:
        raise click.BadParameter(str(e), param_hint=e.param) from None


# The run finished but some samples ended on a model-server or harness fault: the harness's code for
# "could not do its work", never a score.
EXIT_FAULTS = EXIT_INFRA


def request_options(extra_body: str | None, extra_headers: tuple[str, ...], price) -> dict:
    """The --extra-body/--extra-header/--price options as the model's ``extra`` (checked here, once)."""
    out: dict = {}
    if extra_body:
        try:
            body = json.loads(extra_body)
        except json.JSONDecodeError as e:
            raise click.BadParameter(f"not JSON: {e}", param_hint="--extra-body") from None
        if not isinstance(body, dict):
            raise click.BadParameter("must be a JSON object", param_hint="--extra-body")
        out["extra_body"] = body
    headers = {}
    for h in extra_headers:
        name, sep, value = h.partition(":")
        if not sep or not name.strip():
            raise click.BadParameter(f"{h!r} is not NAME:VALUE", param_hint="--extra-header")
        headers[name.strip()] = value.strip()
    if headers:
        out["extra_headers"] = headers
    if price:
        out["price_in"], out["price_out"] = price
    return out


def _probe_first(model: str, api_base: str, api_key: str | None) -> None:
    """A dead or wrong --api-base fails here, naming the URL and the cause (the run's own probe asks again
    for providers without one, once the model is built)."""
    try:
        probe(api_base, {"Authorization": f"Bearer {api_key}"} if api_key else None, api=api_for(model))
    except EndpointUnreachable as e:
        click.echo(f"Error: {e}. No sample was run; fix that and run the same command again.", err=True)
        sys.exit(EXIT_FAULTS)


def _get_model(name: str, **kwargs):
    from ecov.harness.models import ModelError, get_model

    try:
        return get_model(name, **{k: v for k, v in kwargs.items() if v is not None})
    except ModelError as e:
        raise click.BadParameter(str(e), param_hint="--model") from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ecov-eval")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), expose_value=False,
              help="YAML (or .json) file of any of these options, e.g. `model: openai/gpt-4o-mini`, "
                   "`task-id: [uart]`; options typed after it override the file's.")
@click.option("--model", required=True, help="LiteLLM model string (openai/..., anthropic/..., hosted_vllm/..., "
              f"ollama/...) or a builtin: {', '.join(builtin_names())} (docs/models.md).")
@click.option("--mode", type=click.Choice(MODES), default="agentic", show_default=True)
@click.option("--agent", type=click.Choice(AGENTS), default="memoryless", show_default=True,
              help="agentic mode: memoryless (prompt = task + current testbench + last feedback) or history "
                   "(one growing conversation).")
@click.option("--benchmark", default=DEFAULT_BENCHMARK, show_default=True,
              help="ecov-embedded, a built benchmark folder or file, or a hub dataset id.")
@click.option("--split", default="test", show_default=True)
@click.option("-n", "n_samples", type=click.IntRange(min=1, max=MAX_SAMPLES), default=1, show_default=True,
              help="samples per task (pass@k for k <= n).")
@click.option("--protocol", type=click.Choice(protocol_names()), default=DEFAULT_PROTOCOL, show_default=True,
              help="evaluation protocol: llm4cov (the paper's loop: stimulus-only prompt, 4 rounds, best-state "
                   "memory, format re-asks, stop at 100%) or ecov (targets in the prompt, patches, uncovered-line "
                   "feedback, stop when every target is met). See docs/evaluation.md.")
@click.option("--max-rounds", type=click.IntRange(min=1, max=MAX_ROUNDS), default=None,
              help="agentic rounds per sample, the first included [default: the protocol's: llm4cov 4, "
                   "ecov 5] (direct mode: always 1).")
@click.option("--temperature", type=click.FloatRange(min=0.0), default=0.7, show_default=True)
@click.option("--top-p", type=click.FloatRange(min=0.0, max=1.0, min_open=True), default=0.8, show_default=True)
@click.option("--max-tokens", type=click.IntRange(min=1), default=8192, show_default=True)
@click.option("--api-base", default=None, help="OpenAI-compatible endpoint (a vLLM or Ollama server).")
@click.option("--api-key", default=None, envvar="ECOV_API_KEY",
              help="API key for the model server (else the provider's variable, e.g. OPENAI_API_KEY); "
                   "never written to the run folder.")
@click.option("--request-timeout", "--timeout", "request_timeout",
              type=click.FloatRange(min=1, max=MAX_REQUEST_TIMEOUT), default=DEFAULT_REQUEST_TIMEOUT,
              show_default=True, help="seconds one model request may take before it is retried.")
@click.option("--extra-body", default=None, metavar="JSON",
              help='extra fields for each request body, e.g. \'{"stop": ["</s>"], "repetition_penalty": 1.1}\'.')
@click.option("--extra-header", "extra_headers", multiple=True, metavar="NAME:VALUE",
              help="an extra HTTP header for each request (repeatable).")
@click.option("--price", "price", type=(click.FloatRange(min=0), click.FloatRange(min=0)), default=None,
              metavar="IN OUT", help="USD per million prompt and completion tokens [default: LiteLLM's price "
                                     "map; 0 for a local --api-base].")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="samples evaluated at once [default: 2; with --executor ray, the cluster's CPUs].")
@click.option("--concurrency", type=click.IntRange(min=1), default=None,
              help="model calls in flight at once (default: --workers).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="simulation seed; sample s asks the model with seed + s.")
@click.option("--task-id", "task_ids", multiple=True, help="run only this task (repeatable).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="run only the first N tasks.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="run folder [default: runs/<model>_<mode>_<benchmark>]; an existing one is resumed.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="model response cache (default: the model layer's).")
@click.option("--replay-run", type=click.Path(exists=True, file_okay=False), default=None,
              help="builtin/replay: the run folder whose responses to replay.")
@click.option("--max-retries", type=click.IntRange(min=0), default=5, show_default=True)
@click.option("--sandbox", type=click.Choice(sandbox_names()), default="auto",
              show_default=True, help="isolation for builds and simulations (see docs/scoring.md).")
@click.option("--sim-timeout", type=click.FloatRange(min=1), default=60.0, show_default=True,
              help="simulation wall-clock limit per testbench, seconds.")
@click.option("--no-progress", is_flag=True, help="no progress bar.")
@click.option("--tb-lang", type=click.Choice(track_names()), default=DEFAULT_TRACK, show_default=True,
              help="testbench language track: " + "; ".join(f"{t}: {get_track(t).description}" for t in track_names())
              + " (a track other than sv needs the bwrap or docker sandbox; see docs/scoring.md).")
@click.option("--instructions-suffix", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="append this file's text to every task's instructions (training-data generation only, e.g. "
                   "the LLM4Cov rules from `ecov-train rules`); the tasks, so the dataset hash, change: such a "
                   "run is not a benchmark result.")
@executor_options
def eval_cmd(model, mode, agent, benchmark, split, n_samples, protocol, max_rounds, temperature, top_p, max_tokens,
             api_base, api_key, request_timeout, extra_body, extra_headers, price, workers, concurrency, seed,
             task_ids, limit, out, cache_dir, replay_run, max_retries, sandbox, sim_timeout, no_progress, tb_lang,
             instructions_suffix, executor, ray_address):
    """Evaluate a model's testbenches on a benchmark: writes a run folder (resumed when it exists) and
    prints the summary. `ecov-eval report RUN_DIR` prints a run's summary again, `ecov-eval export RUN_DIR`
    writes it as a table, `ecov-eval compare RUN_A RUN_B` compares two runs. See docs/evaluation.md.
    """
    from ecov.harness.benchmark.store import dataset_hash
    from ecov.harness.core.run_folder import RunConfig
    from ecov.harness.evaluation.report import folder_outcome_lines, format_summary
    from ecov.harness.evaluation.runner import RunMismatch, run_eval

    if model == "builtin/replay" and not replay_run:
        raise click.BadParameter("builtin/replay needs --replay-run RUN_DIR", param_hint="--model")
    try:  # a protocol the track has no prompts for (bughunt under cocotb) fails before anything is loaded
        tb_io(get_protocol(protocol), tb_lang)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--tb-lang") from None
    tasks = _load_tasks(benchmark, split, task_ids, limit)
    # The run's identity is the benchmark's content, not the selection: --limit 5 then --limit 6, or a
    # new --task-id, extends the same folder (docs/evaluation.md); a changed task changes the hash.
    everything = _load_tasks(benchmark, split, (), None) if (task_ids or limit is not None) else tasks
    suffix = None
    if instructions_suffix is not None:
        text = instructions_suffix.read_text().rstrip("\n")
        tasks = [dataclasses.replace(t, instructions=t.instructions + "\n" + text) for t in tasks]
        everything = [dataclasses.replace(t, instructions=t.instructions + "\n" + text) for t in everything]
        suffix = {"path": str(instructions_suffix), "sha256": hashlib.sha256(text.encode()).hexdigest()}
    request = request_options(extra_body, extra_headers, price)
    if api_base and not model.startswith("builtin/"):
        _probe_first(model, api_base, api_key)  # seconds before LiteLLM is even imported
    llm = _get_model(model, api_base=api_base, temperature=temperature, top_p=top_p, max_tokens=max_tokens,
                     cache_dir=cache_dir, max_retries=max_retries, replay_run=replay_run, timeout=request_timeout,
                     extra={**request, **({"api_key": api_key} if api_key else {})} or None)
    if not api_base and hasattr(llm, "probe"):  # a provider's default endpoint (OpenAI, Anthropic, Ollama)
        try:
            looked = llm.probe()
        except EndpointUnreachable as e:
            click.echo(f"Error: {e}. No sample was run; fix that and run the same command again.", err=True)
            sys.exit(EXIT_FAULTS)
        if looked is not None and looked.note:
            click.echo(f"note: {looked.note}", err=True)
    rounds = 1 if mode == "direct" else (max_rounds or get_protocol(protocol).rounds)
    config = RunConfig(
        model=model, mode=mode, agent=agent if mode == "agentic" else "direct", benchmark=benchmark,
        dataset_hash=dataset_hash(everything), n_samples=n_samples, max_rounds=rounds,
        temperature=temperature, top_p=top_p, max_tokens=max_tokens, seed=seed, api_base=api_base,
        split=split, protocol=protocol,
        extra={"workers": workers, "concurrency": concurrency or workers, "sandbox": sandbox,
               "sim_timeout": sim_timeout, "request_timeout": request_timeout,
               **({"extra_body": request["extra_body"]} if "extra_body" in request else {}),
               **({"extra_headers": sorted(request["extra_headers"])} if "extra_headers" in request else {}),
               **({"price_per_mtok": list(price)} if price else {}),
               **({"instructions_suffix": suffix} if suffix else {})},
        tb_lang=tb_lang,
    )
    from ecov.harness.scoring.config import EngineConfig

    try:
        engine = get_track(tb_lang).make_scorer(EngineConfig(sandbox=sandbox, run_seconds=sim_timeout))
    except (RuntimeError, ValueError) as e:
        raise click.BadParameter(str(e), param_hint="--sandbox") from None
    if get_protocol(protocol).bughunt:  # each round runs the task's mutants: this machine's pool only
        if not any(t.mutants is not None and t.mutants.mutants for t in tasks):
            raise click.BadParameter(f"no task of {benchmark} carries killable mutants, so the bug hunt has "
                                     "nothing to score (make them: ecov-data mutants BENCHMARK)",
                                     param_hint="--protocol")
        if executor != "local":
            raise click.BadParameter("the bug hunt scores on this machine's pool (--executor local)",
                                     param_hint="--executor")
        bughunt = make_bughunt_engine(tb_lang, EngineConfig(sandbox=sandbox, run_seconds=sim_timeout))
        scorer = LocalExecutor(bughunt.engine, workers or 2)
        round_scorer = BughuntRoundScorer(bughunt)
    else:
        scorer = executor_from_options(executor, ray_address, engine, workers or 2)  # see docs/scale.md
        round_scorer = scorer
    workers = workers or scorer.parallelism
    config.extra.update(workers=workers, concurrency=concurrency or workers, executor=executor)
    if executor != "local":
        click.echo(f"executor: {scorer.describe()}", err=True)
    elif not engine.sandbox.isolated:
        from ecov.harness.sandbox.rlimit import NOT_ISOLATED

        click.echo(f"warning: sandbox '{engine.isolation}' is {NOT_ISOLATED}", err=True)
    runtime = getattr(getattr(engine, "backend", None), "runtime", None)
    if runtime is not None and not (runtime.folder / ".complete").exists():
        click.echo("First score on this machine: building Verilator's runtime objects once (about 40 s).",
                   err=True)
    try:  # the folder is made only once every option is known to be usable
        out = writable_folder(out or default_out(model, mode, agent, benchmark, protocol, tb_lang), "--out")
        outcome = run_eval(tasks, llm, config, out, scorer=round_scorer, workers=workers,
                           concurrency=concurrency, progress=not no_progress,
                           notify=lambda line: click.echo(line, err=True))
    except RunMismatch as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:  # a full disk, a folder made read-only mid-run: the harness's failure, not a score
        click.echo(f"Error: cannot write the run folder {out}: {describe_os_error(e)}. Finished samples are "
                   "kept: fix that and run the same command again to resume.", err=True)
        sys.exit(EXIT_INFRA)
    finally:
        scorer.close()
    shown = outcome.shown  # with --limit/--task-id on a bigger folder: the tasks this command ran
    faults = shown.get("faults") or 0
    if faults:  # the error first: the figures below leave the faulted samples out, and say INCOMPLETE
        click.echo(f"Error: {faults} sample{'s' if faults != 1 else ''} ended on a fault, not a result "
                   "(the run is incomplete; run the same command again to retry them):", err=True)
        for line in shown.get("fault_examples") or []:
            click.echo(f"  {line}", err=True)
    click.echo("\n".join([format_summary(shown), *folder_outcome_lines(out, set(shown["per_task"]))]))
    if outcome.selection is not None:
        click.echo(f"\n(The {shown['tasks_expected']} tasks this command selected; the folder holds "
                   f"{outcome.summary['tasks_expected']}: `ecov-eval report {out}` summarises them all.)")
    click.echo(f"\nRun folder: {out}  ({outcome.ran} samples run now, {outcome.skipped} already done)")
    if outcome.interrupted:
        click.echo("Interrupted: finished samples are kept. Run the same command again to resume.", err=True)
        sys.exit(130)
    if faults:
        sys.exit(EXIT_FAULTS)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="print summary.json instead of the table.")
@click.option("--tasks/--no-tasks", default=True, show_default=True, help="per-task rows.")
def report_cmd(run_dir, as_json, tasks):
    """Print the summary of RUN_DIR again (recomputed from its finished samples)."""
    from ecov.harness.core.run_folder import RunFolder
    from ecov.harness.evaluation.report import folder_outcome_lines, format_summary
    from ecov.harness.evaluation.runner import build_summary

    folder = RunFolder(run_dir)
    if not folder.exists():
        raise click.BadParameter(f"{run_dir} is not an ecov-eval run folder (no config.json)",
                                 param_hint="RUN_DIR")
    summary = build_summary(folder)
    if folder.summary_path.exists():  # keep the wall time of the last invocation
        old = folder.read_summary()
        if "seconds" in old:
            summary["seconds"] = old["seconds"]
    click.echo(json.dumps(summary, indent=2, sort_keys=True) if as_json
               else "\n".join([format_summary(summary, tasks), *folder_outcome_lines(run_dir)]))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet", "jsonl"]), default="csv", show_default=True)
@click.option("--level", type=click.Choice(["rounds", "samples", "tasks"]), default="rounds", show_default=True,
              help="rounds: one row per task x sample x round (ecov.harness.evaluation.tables.to_frame); samples: one per "
                   "task x sample; tasks: one per task, with ecov_pass_rate beside the paper's pass_rate.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="file to write [default: RUN_DIR/results.<level>.<format>]; '-' prints csv/jsonl.")
def export_cmd(run_dir, fmt, level, out):
    """Export RUN_DIR as a table (csv, parquet or jsonl) with every figure and status."""
    from ecov.harness.evaluation.tables import csv_safe, samples_frame, tasks_frame, to_frame, write_frame

    try:
        df = {"rounds": to_frame, "samples": samples_frame, "tasks": tasks_frame}[level](run_dir)
    except FileNotFoundError as e:
        raise click.BadParameter(str(e), param_hint="RUN_DIR") from None
    if str(out) == "-":
        if fmt == "parquet":
            raise click.BadParameter("parquet cannot go to stdout; give a file", param_hint="--out")
        click.echo(csv_safe(df).to_csv(index=False) if fmt == "csv" else df.to_json(orient="records", lines=True), nl=False)
        return
    path = write_frame(df, out or Path(run_dir) / f"results.{level}.{fmt}", fmt)
    click.echo(f"wrote {path}: {len(df)} rows x {len(df.columns)} columns", err=True)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("run_a", type=click.Path(file_okay=False, path_type=Path))
@click.argument("run_b", type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="print the comparison as JSON.")
@click.option("--resamples", type=click.IntRange(min=100), default=10_000, show_default=True,
              help="bootstrap resamples.")
@click.option("--seed", type=int, default=0, show_default=True, help="bootstrap seed.")
def compare_cmd(run_a, run_b, as_json, resamples, seed):
    """Paired comparison of RUN_B against RUN_A (B - A) on the same tasks: pass % and coverage differences
    with 95% bootstrap intervals, McNemar's exact test on per-task pass, tasks won and lost, per round.
    """
    from ecov.harness.evaluation.compare import CompareError, compare_runs, format_comparison

    try:
        comp = compare_runs(run_a, run_b, resamples=resamples, seed=seed)
    except CompareError as e:
        raise click.UsageError(f"cannot compare: {e}") from None
    click.echo(json.dumps(comp.to_dict(), indent=2, sort_keys=True) if as_json else format_comparison(comp))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="folder to write the pages into [default: RUN_DIR/view].")
def view_cmd(run_dir, out):
    """Write RUN_DIR as local HTML pages (the leaderboard's own templates): the summary, each task's targets
    against what was reached, and every round's testbench, diff, feedback and raw response. Open the
    index.html it prints in a browser; nothing is fetched from elsewhere."""
    from ecov.leaderboard.view import ViewError, write_view

    try:
        index = write_view(run_dir, out)
    except ViewError as e:
        raise click.BadParameter(str(e), param_hint="RUN_DIR") from None
    except OSError as e:
        raise click.ClickException(f"cannot write the view: {e.strerror or e}: {e.filename or out}") from None
    click.echo(f"wrote {index}  (open it in a browser: file://{index.resolve()})")


SUBCOMMANDS = {"report": report_cmd, "export": export_cmd, "compare": compare_cmd, "view": view_cmd}


def _subcommands_epilog() -> str:
    """``ecov-eval --help`` lists the subcommands ``main`` dispatches before click sees the root command."""
    usage = {name: " ".join([name, *(p.human_readable_name for p in cmd.params if isinstance(p, click.Argument))])
             for name, cmd in SUBCOMMANDS.items()}
    rows = [f"  {usage[name]:<22}{cmd.get_short_help_str(limit=56)}" for name, cmd in SUBCOMMANDS.items()]
    return ("\b\nSubcommands (ecov-eval SUBCOMMAND -h for each):\n" + "\n".join(rows)
            + "\n\nMore: docs/evaluation.md (modes, protocols, metrics), docs/models.md (models, baselines).")


eval_cmd.epilog = _subcommands_epilog()


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] in SUBCOMMANDS:
        SUBCOMMANDS[args[0]].main(args[1:], prog_name=f"ecov-eval {args[0]}")
    else:
        try:
            args = expand_config(args, eval_cmd)  # --config FILE.yaml: any option, from a file
        except click.BadParameter as e:
            e.show()
            sys.exit(e.exit_code)
        eval_cmd.main(args, prog_name="ecov-eval")

if __name__ == "__main__":
    main()
