"""The console scripts the pipeline runs (ecov-eval, ecov-train, accelerate, vllm, ...), found the way a
user's shell would find the ones of this installation."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def find_tool(name: str) -> str:
    """The script next to this interpreter first (a virtual environment not on PATH), else on PATH; ""."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    return shutil.which(name) or ""


def tool(name: str) -> list[str]:
    found = find_tool(name)
    if not found:
        raise FileNotFoundError(f"{name} not found next to {sys.executable} or on PATH")
    return [found]
