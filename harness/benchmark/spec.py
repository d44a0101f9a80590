"""A benchmark as one registered object: how it is built, from what, under which target rule and licence,
and where it is listed.

Each builder module (ecov.harness.benchmark.builders.*) ends with ``register(KIND, name, BenchmarkSpec(...))``;
``ecov-data build`` choices, the default upstream paths, the calibration rule text, the leaderboard's table
order and where a shipped copy lives all read these specs. A new benchmark is one builder module plus its
registration (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecov.harness import registry
from ecov.harness.tasks import Task

KIND = "benchmark"
DEFAULT_RULE = "floor(ceiling)"
# Where a checkout next to ../shared finds upstream data when --source is not given.
SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@dataclass(frozen=True)
class BenchmarkSpec:
    name: str
    license: str
    target_rule: str = DEFAULT_RULE  # how calibration sets targets (docs/benchmarks.md)
    build: Callable[..., Any] | None = None  # (source, only=, skip_bad=, **options) -> BuildResult
    default_source: Path | None = None  # upstream data when `ecov-data build` gets no --source
    split: str = "test"  # the split its builder writes
    order: int = 100  # leaderboard: tables of lower order first
    shipped: bool = False  # a built copy ships under benchmarks/NAME (found by name)
    load: Callable[[], list[Task]] | None = None  # a packaged benchmark loads itself (no folder)
    card: str = ""  # one line for listings and dataset cards


def get_benchmark(name: str | None) -> BenchmarkSpec | None:
    """The spec registered as ``name``; None for anything else (a folder, a file, a hub id)."""
    specs = registry.items(KIND)
    return specs.get(str(name)) if name is not None else None


def benchmark_names(buildable: bool = False) -> list[str]:
    """Registered benchmarks (with a builder only, when ``buildable``): CLI choices."""
    return sorted(n for n, s in registry.items(KIND).items() if s.build is not None or not buildable)


def target_rule(name: str | None) -> str:
    spec = get_benchmark(name)
    return spec.target_rule if spec else DEFAULT_RULE


def display_order(name: str) -> int:
    spec = get_benchmark(name)
    return spec.order if spec else len(registry.names(KIND)) + 100
