"""Where the harness keeps things on this machine: the content-keyed cache and the job folders."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def default_cache_dir() -> Path:
    """Score cache, Verilator runtime and object cache: ``$ECOV_CACHE_DIR``, else ``~/.cache/ecov``."""
    return Path(os.environ.get("ECOV_CACHE_DIR") or Path.home() / ".cache" / "ecov")


def jobs_dir() -> Path:
    """Job folders live under the system temp dir: the simulation, run as nobody, must reach its own."""
    jobs = Path(os.environ.get("ECOV_JOBS_DIR") or Path(tempfile.gettempdir()) / f"ecov-jobs-{os.getuid()}")
    jobs.mkdir(parents=True, exist_ok=True)
    os.chmod(jobs, 0o711)
    return jobs


__all__ = ["default_cache_dir", "jobs_dir"]
