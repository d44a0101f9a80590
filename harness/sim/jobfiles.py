"""Writing a design into a job folder: one layout for every step that hands the design to Verilator.

The design's files go, by base name, into ``<folder>/rtl``; Verilator gets ``-Irtl`` and every file that
is not a header. Coverage points then name ``rtl/<file>``, which ``integrity.check_dut`` relies on to
tell design code from testbench code. Used by the SV engine, the cocotb build and the rules' preprocessor.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

RTL_DIR = "rtl"
HEADER_SUFFIXES = (".vh", ".svh", ".h", ".inc")


def write_design(folder: Path, files: Iterable[tuple[str, str]]) -> list[str]:
    """Write ``(name, content)`` pairs under ``folder/rtl``; returns Verilator's source arguments."""
    rtl = Path(folder) / RTL_DIR
    rtl.mkdir()
    sources = [f"-I{RTL_DIR}"]
    for name, content in files:
        base = Path(name).name
        (rtl / base).write_text(content)
        if not base.endswith(HEADER_SUFFIXES):
            sources.append(f"{RTL_DIR}/{base}")
    return sources


__all__ = ["RTL_DIR", "HEADER_SUFFIXES", "write_design"]
