"""Benchmark builders: upstream data (a path) -> ``Task`` records. See docs/benchmarks.md."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ecov.harness.benchmark.builders import autoeval, cvdp, ecov_train, embedded
from ecov.harness.benchmark.builders.common import BuildResult, Skipped, SourceError

BUILDERS: dict[str, Callable[..., BuildResult]] = {
    cvdp.BENCHMARK: cvdp.build,
    autoeval.BENCHMARK: autoeval.build,
    embedded.BENCHMARK: embedded.build,
    ecov_train.BENCHMARK: ecov_train.build,
}
# The split a builder writes (default: test).
SPLITS: dict[str, str] = {ecov_train.BENCHMARK: ecov_train.SPLIT}

_SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data"
# Where a checkout next to ../shared finds upstream data when --source is not given.
DEFAULT_SOURCES: dict[str, Path | None] = {
    cvdp.BENCHMARK: _SHARED,
    autoeval.BENCHMARK: _SHARED / "verilog-eval",
    embedded.BENCHMARK: None,
    ecov_train.BENCHMARK: None,  # --source: a hub id (zhuyaoyu/CodeV-R1-dataset) or local JSONL/parquet
}

__all__ = ["BUILDERS", "DEFAULT_SOURCES", "SPLITS", "BuildResult", "Skipped", "SourceError"]
