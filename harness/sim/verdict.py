"""What a finished simulation means, for every track: the sandbox's stop, whether its coverage counts,
and the figures of the DUT instance attached to the result."""

from __future__ import annotations

from pathlib import Path

from ecov.harness.core.records import CRASHED, INFRA_ERROR, TIMEOUT, Design, ScoreResult
from ecov.harness.sandbox.base import Limits, ProcResult
from ecov.harness.sim import coverage as cov
from ecov.harness.sim import integrity


def stopped_by_sandbox(ran: ProcResult, limits: Limits, hint: str) -> tuple[str, list[str]] | None:
    """Status and error of a run the sandbox ended (wall clock, output cap, failed start); None otherwise.
    ``limits`` are the ones the run ran under."""
    if ran.timed_out:
        return TIMEOUT, [f"simulation did not finish within {limits.wall_seconds:.0f} s of wall time ({hint})"]
    if ran.output_capped:
        return CRASHED, [f"simulation printed more than {limits.output_bytes} bytes and was stopped"]
    if ran.output.startswith("bwrap:"):
        return INFRA_ERROR, [f"sandbox failed to start: {ran.output.strip()[:300]}"]
    return None


def coverage_problem(got: integrity.RunOutput, design: Design) -> integrity.IntegrityError | None:
    """Why a run's coverage (read back by ``integrity.read_run``) cannot be counted; None when it can.

    Files, not module names, decide what is design below the instance (names found by regex could miss a
    macro-built module); the instance itself must be the DUT module. Shared by every track.
    """
    return got.error or integrity.check_point_set(got.points, got.coverage) or integrity.check_dut(
        got.coverage, design.instance, design.top, None, {Path(f.name).name for f in design.files})


def run_folder_problem(got: integrity.RunOutput) -> integrity.IntegrityError | None:
    """A file in the run's folder the harness would not read (a FIFO, a device, a link, over its cap): the
    run left something hostile where the harness reads, whether or not its figures depend on that file."""
    return got.error if got.error is not None and got.error.rule == "run-folder" else None


def attach_coverage(result: ScoreResult, points: list[cov.CoveragePoint], design: Design, max_uncovered: int,
                    missing: str | None = None) -> None:
    """The figures, table and uncovered listing of ``design.instance``; ``missing`` is the error when it has no points."""
    mine = cov.dut_points(points, design.instance)
    if not mine:
        result.errors.append(missing or f"the coverage holds no points under '{design.instance}'")
        result.coverage = {}
        return
    result.coverage = cov.coverage_table(points, design.instance)
    result.overall = result.coverage[design.instance]["overall"]["percent"]
    sources = {f.name: f.content.splitlines() for f in design.files}
    uncovered = cov.uncovered_points(points, design.instance, sources)
    result.uncovered_total = len(uncovered)
    result.uncovered = uncovered[:max_uncovered]


__all__ = ["stopped_by_sandbox", "coverage_problem", "run_folder_problem", "attach_coverage"]
