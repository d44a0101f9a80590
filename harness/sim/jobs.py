"""Job folders: a fresh one per build or run, and a run's private output folder, read back and removed."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ecov.harness.core.paths import jobs_dir
from ecov.harness.core.safe_read import remove_tree
from ecov.harness.sandbox.base import ProcResult
from ecov.harness.sim import integrity


def run_with_out_dir(run: Callable[[Path, str], ProcResult]) -> tuple[ProcResult, integrity.RunOutput]:
    """``run(out, nonce)`` with a fresh private output folder (integrity.new_run_dir), read back and removed
    on every path (an exception or KeyboardInterrupt included)."""
    out, nonce = integrity.new_run_dir(jobs_dir())
    try:
        ran = run(out, nonce)
        return ran, integrity.read_run(out, nonce)
    finally:
        integrity.remove_run_dir(out)


@contextmanager
def job_folder(prefix: str, keep: bool = False) -> Iterator[Path]:
    """A fresh job folder under ``jobs_dir()``, removed afterwards (on every path) unless ``keep``."""
    job = Path(tempfile.mkdtemp(prefix=prefix, dir=jobs_dir()))
    try:
        yield job
    finally:
        if not keep:
            remove_tree(job)



__all__ = ["job_folder", "run_with_out_dir"]
