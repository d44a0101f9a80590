"""Benchmark builders: upstream data (a path) -> ``Task`` records. See docs/benchmarks.md."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ecov.harness.benchmark.builders import autoeval, cvdp, embedded
from ecov.harness.benchmark.builders.common import BuildResult, Skipped, SourceError

BUILDERS: dict[str, Callable[..., BuildResult]] = {
    cvdp.BENCHMARK: cvdp.build,
    autoeval.BENCHMARK: autoeval.build,
    embedded.BENCHMARK: embedded.build,
}

_SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data"
# Where a checkout next to ../shared finds upstream data when --source is not given.
DEFAULT_SOURCES: dict[str, Path | None] = {
    cvdp.BENCHMARK: _SHARED,
    autoeval.BENCHMARK: _SHARED / "verilog-eval",
    embedded.BENCHMARK: None,
}

__all__ = ["BUILDERS", "DEFAULT_SOURCES", "BuildResult", "Skipped", "SourceError"]
