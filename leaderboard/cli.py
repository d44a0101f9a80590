"""ecov-leaderboard: add run folders as submissions, verify them by re-scoring, build the static site."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ecov.harness import __version__
from ecov.harness.scoring.executor import executor_from_options, executor_options
from ecov.leaderboard.submission import (
    TYPES,
    VERIFICATION_FILE,
    SubmissionError,
    SubmissionMeta,
    add_submission,
    open_submission,
    today,
)

DEFAULT_SUBMISSIONS = Path(__file__).parent / "submissions"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ecov-leaderboard")
def main() -> None:
    """ECov leaderboard: submissions, verification and the static site."""


@main.command()
@click.argument("submission", type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verification as JSON instead of a report.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Where to write the verification (default: SUBMISSION/{VERIFICATION_FILE}).")
@click.option("--no-write", is_flag=True, help="Do not write the verification file, only print it.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Testbenches simulated at once [default: 1; with --executor ray, the cluster's CPUs].")
@executor_options
def verify(submission: Path, as_json: bool, out: Path | None, no_write: bool, quiet: bool, jobs: int | None,
           executor: str, ray_address: str | None) -> None:
    """Re-score every testbench of SUBMISSION and compare with what it recorded.

    Exit status 0 when every number reproduces, 1 when some differ or nothing could be checked.
    """
    from ecov.leaderboard.verify import verify_submission

    def progress(msg: str) -> None:
        if not quiet:
            click.echo(msg, err=True)

    from ecov.harness.scoring.config import EngineConfig
    from ecov.harness.tracks.base import get_track
    from ecov.leaderboard.untrusted import UntrustedError, write_inside

    try:
        with open_submission(submission) as sub:
            # A fresh engine of the run's own track whose disk cache is off: every testbench is built and
            # run again, by the scorer of the language it is written in.
            engine = get_track(sub.run.read_config().tb_lang).make_scorer(EngineConfig(use_cache=False))
            scorer = executor_from_options(executor, ray_address, engine)
            try:
                ver = verify_submission(sub, score=scorer, progress=progress,
                                        jobs=jobs or (scorer.parallelism if executor == "ray" else 1))
            finally:
                scorer.close()
            target = out or sub.verification_path
    except SubmissionError as e:
        raise click.UsageError(str(e)) from e
    if not no_write:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_inside(target, json.dumps(ver.to_dict(), indent=2, default=str) + "\n")
        except UntrustedError as e:
            raise click.UsageError(str(e)) from e
    if as_json:
        click.echo(json.dumps(ver.to_dict(), indent=2, default=str))
    else:
        click.echo(ver.report())
        if not no_write:
            click.echo(f"wrote {target}", err=True)
    sys.exit(0 if ver.ok else 1)


@main.command()
@click.option("--submissions", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_SUBMISSIONS,
              show_default=True, help="Folder holding one folder per submission.")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the site into (index.html, static/, s/).")
@click.option("--verify", "verify_", is_flag=True,
              help="Verify every submission in this build: only that earns the verified badge (a committed "
                   "verification.json alone shows as claimed).")
@click.option("--verify-cache", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --verify: the build's own folder of earlier verifications, reused while the run, its "
                   "benchmark and the scorer are unchanged; must be outside --submissions "
                   "[default: $ECOV_CACHE_DIR/leaderboard-verify].")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --verify: testbenches simulated at once.")
@click.option("--quiet", "-q", is_flag=True, help="With --verify: no progress lines on stderr.")
def build(submissions: Path, out: Path, verify_: bool, verify_cache: Path | None, jobs: int, quiet: bool) -> None:
    """Build the static site from the submissions folder."""
    from ecov.leaderboard.buildverify import BuildVerifier, VerifyCache
    from ecov.leaderboard.site import build_site

    verifier = None
    try:
        if verify_:
            from ecov.harness.core.paths import default_cache_dir

            cache = VerifyCache(verify_cache or default_cache_dir() / "leaderboard-verify", submissions)
            verifier = BuildVerifier(cache, jobs=jobs, progress=None if quiet else lambda m: click.echo(m, err=True))
        elif verify_cache is not None:
            raise SubmissionError("--verify-cache is used only with --verify")
        report = build_site(submissions, out, verifier=verifier)
    except SubmissionError as e:
        raise click.UsageError(str(e)) from e
    for s in report.skipped:
        click.echo(f"left out: {s}", err=True)
    for v in report.verified:
        click.echo(f"verified by this build: {v}", err=True)
    click.echo(f"built {out / 'index.html'}: {len(report.entries)} submissions in "
               f"{len(report.tables)} tables ({', '.join(report.tables) or 'none'})")


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--name", required=True, help="Submission folder name (letters, digits, . _ -).")
@click.option("--model", required=True, help="Model name as shown on the leaderboard.")
@click.option("--type", "type_", required=True, type=click.Choice(TYPES), help="Kind of model.")
@click.option("--size-b", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Parameters in billions (leave out when unknown).")
@click.option("--link", default="", help="Model card, paper or repository URL.")
@click.option("--date", default=None, help="YYYY-MM-DD of the run (default: the run's config, else today).")
@click.option("--notes", default="", help="Free text shown on the submission page.")
@click.option("--submissions", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_SUBMISSIONS,
              show_default=True)
@click.option("--archive", is_flag=True, help="Store the run as run.tar.gz instead of a folder.")
@click.option("--no-logs", is_flag=True, help="Leave the run's logs/ folder out.")
def add(run_dir: Path, name: str, model: str, type_: str, size_b: float | None, link: str, date: str | None,
        notes: str, submissions: Path, archive: bool, no_logs: bool) -> None:
    """Copy the run folder RUN_DIR into the submissions folder with its metadata."""
    if date is None:
        try:
            created = json.loads((run_dir / "config.json").read_text()).get("created") or ""
        except (OSError, json.JSONDecodeError):
            created = ""
        date = created[:10] if len(created) >= 10 else today()
    meta = SubmissionMeta(model=model, type=type_, date=date, size_b=size_b, link=link, notes=notes)
    try:
        dest = add_submission(run_dir, submissions, name, meta, archive=archive, with_logs=not no_logs)
    except SubmissionError as e:
        raise click.UsageError(str(e)) from e
    click.echo(f"added {dest}; next: ecov-leaderboard verify {dest}")


if __name__ == "__main__":
    main()
