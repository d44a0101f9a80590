"""JSON read within bounds: size and nesting depth checked before the parser runs, numbers finite.

Python's json parser recurses once per nested ``[`` or ``{``: 200k of them raise RecursionError (not a
ValueError), and a depth just under the interpreter's limit parses but blows up whatever walks the result
next (dataclasses.asdict, json.dumps, a template). A submission, a cache entry or a record read back from
disk is checked here first: a bounded scan of the bracket depth outside strings (it stops at the first
bracket past the limit, so hostile input costs no more than the limit), then the parse, which refuses
``NaN``, ``Infinity`` and numbers that overflow to infinity. Every failure is a ``JSONLimitError``
(a ``ValueError``), so a caller's one ``except ValueError`` drops the bad input.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

DEFAULT_MAX_DEPTH = 64  # ECov's own files nest 6 deep at most (a round's coverage figures)
DEFAULT_MAX_BYTES = 64 * 1024 * 1024

# A JSON string (escapes included), or one bracket: what the depth scan steps over.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
_OPENERS, _CLOSERS = frozenset("[{"), frozenset("]}")


class JSONLimitError(ValueError):
    """The text is too large, nests too deep, is not JSON, or holds a non-finite number."""


def too_deep(text: str, limit: int = DEFAULT_MAX_DEPTH) -> bool:
    """Whether ``text`` nests brackets deeper than ``limit`` outside strings; stops at the first one past it."""
    if text.count("[") + text.count("{") <= limit:  # it cannot nest deeper than it has openers
        return False
    depth = 0
    for m in _TOKENS.finditer(text):
        tok = m.group()
        if tok in _OPENERS:
            depth += 1
            if depth > limit:
                return True
        elif tok in _CLOSERS:
            depth -= 1
    return False


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONLimitError(f"number {text[:40]} is not finite")
    return value


def _no_constant(name: str) -> Any:
    raise JSONLimitError(f"{name} is not a number JSON allows here")


def loads(text: str | bytes, *, max_depth: int = DEFAULT_MAX_DEPTH, max_bytes: int = DEFAULT_MAX_BYTES,
          what: str = "JSON") -> Any:
    """``json.loads`` within bounds; ``what`` names the input in the error message."""
    if len(text) > max_bytes:
        raise JSONLimitError(f"{what} is {len(text):,} bytes, over the limit of {max_bytes:,}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JSONLimitError(f"{what} is not UTF-8 ({e})") from None
    if too_deep(text, max_depth):
        raise JSONLimitError(f"{what} nests deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except JSONLimitError as e:
        raise JSONLimitError(f"{what}: {e}") from None
    except (ValueError, RecursionError) as e:  # RecursionError: a last guard, should the scan be fooled
        raise JSONLimitError(f"{what} is not valid JSON ({type(e).__name__}: {str(e)[:200]})") from None


def read(path: str | Path, *, max_depth: int = DEFAULT_MAX_DEPTH, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """The JSON of the file at ``path``, its size checked before it is read; OSError when it cannot be."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise JSONLimitError(f"{path.name} is {size:,} bytes, over the limit of {max_bytes:,}")
    return loads(path.read_bytes(), max_depth=max_depth, max_bytes=max_bytes, what=path.name)


__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_DEPTH", "JSONLimitError", "loads", "read", "too_deep"]
