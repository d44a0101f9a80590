"""The commands the pipeline runs. ECov's own CLIs and accelerate run as ``python -m`` of the driver's own
interpreter, so every step uses the installation the driver imports (a console script found on PATH can
belong to another environment: a virtual environment that sees the system's packages finds the system's
``accelerate``, whose Python imports another ECov). vLLM, often installed apart, is found as a command."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

MODULES = {"ecov-eval": "ecov.harness.cli.eval", "ecov-data": "ecov.harness.cli.data",
           "ecov-train": "ecov.trainers.cli", "ecov-leaderboard": "ecov.leaderboard.cli",
           "accelerate-launch": "accelerate.commands.launch"}


def find_tool(name: str) -> str:
    """A console script: the one next to this interpreter first, else on PATH; "" when there is none."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    return shutil.which(name) or ""


def tool(name: str) -> list[str]:
    """The command line that starts ``name``: ``python -m MODULE`` for the ones in MODULES."""
    if name in MODULES:
        return [sys.executable, "-m", MODULES[name]]
    found = find_tool(name)
    if not found:
        raise FileNotFoundError(f"{name} not found next to {sys.executable} or on PATH")
    return [found]
