"""Scorer settings every track shares: which sandbox, the limits of a build and of a run, the cache."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ecov.harness.sandbox.base import Limits
from ecov.harness.sim.verilator import BuildOptions


@dataclass
class EngineConfig:
    sandbox: str = "auto"  # auto, or a registered sandbox (ecov.harness.sandbox.factory.sandbox_names)
    compile_seconds: float = 300.0
    run_seconds: float = 60.0
    memory_mb: int = 4096
    output_bytes: int = 1_000_000
    # RLIMIT_NPROC counts every process of the user machine-wide: every concurrent simulation runs as
    # nobody, and bwrap's exited namespace processes wait for the machine's init to reap them. 64 made
    # bwrap fail to fork (EAGAIN) when the bug hunt's mutant replays ran beside other jobs; 256 still stops
    # a fork bomb.
    processes: int = 256
    max_uncovered: int = 200
    trace_mb: int = 128  # cap of run 1's recording of the DUT's inputs (the replay scoring); over it: crashed
    cache_dir: Path | None = None
    use_cache: bool = True
    keep_jobs: bool = False
    build: BuildOptions = field(default_factory=BuildOptions)

    def build_limits(self) -> Limits:
        return Limits(wall_seconds=self.compile_seconds, cpu_seconds=int(self.compile_seconds) + 10,
                      memory_mb=max(self.memory_mb, 4096), output_bytes=self.output_bytes, processes=256)

    def run_limits(self) -> Limits:
        return Limits(wall_seconds=self.run_seconds, cpu_seconds=int(self.run_seconds) + 5,
                      memory_mb=self.memory_mb, output_bytes=self.output_bytes, processes=self.processes)



__all__ = ["EngineConfig"]
