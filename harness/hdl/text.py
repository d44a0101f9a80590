"""SystemVerilog text helpers: the one comment stripper, the one declaration finder, the testbench's top.

Regex-level reading for what needs no elaboration (which modules a file declares, which one a testbench
starts from). Every caller (answer parsing, benchmark builders, port parsing, the rules, the scorer)
uses these, so they cannot disagree about what a comment or a declaration is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

# Design-unit keywords, grouped by what callers ask for.
MODULES = ("module", "macromodule")
# What a testbench file may start from or share: the scorer's list of candidate tops and the rules' view.
TESTBENCH_UNITS = ("module", "macromodule", "interface", "program", "package")

# One lexical token of interest: a string literal (kept as is) or a comment (blanked by strip_comments).
LEXICAL = re.compile(r'"(?:\\.|[^"\\\n])*"|/\*.*?\*/|//[^\n]*', re.S)


def strip_comments(text: str) -> str:
    """Comments become spaces (newlines kept) so line numbers stay true and strings stay intact."""

    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    out, pos = [], 0
    for m in LEXICAL.finditer(text):
        out.append(text[pos : m.start()])
        out.append(m.group(0) if m.group(0).startswith('"') else blank(m))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


_DECLARATIONS: dict[tuple[str, ...], re.Pattern] = {}


def _declaration(kinds: tuple[str, ...]) -> re.Pattern:
    pattern = _DECLARATIONS.get(kinds)
    if pattern is None:
        alternatives = "|".join(re.escape(k) for k in kinds)
        pattern = _DECLARATIONS[kinds] = re.compile(
            rf"^\s*(?:extern\s+)?(?:{alternatives})\s+(?:automatic\s+|static\s+)?([A-Za-z_]\w*)", re.M)
    return pattern


def declared_names(text: str, kinds: Iterable[str] = MODULES) -> list[str]:
    """Names of the units of ``kinds`` (``module``, ``program``, ``interface``, ...) declared at the start
    of a line in ``text``, in order, comments ignored."""
    return _declaration(tuple(kinds)).findall(strip_comments(text))


def module_names(text: str) -> list[str]:
    """Modules (and macromodules) declared in a SystemVerilog text, in order."""
    return declared_names(text, MODULES)


_MODULE_HEADER = re.compile(r"\bmodule\s+([A-Za-z_]\w*)\b")
# NAME #( or NAME inst( or NAME inst[ ; the lookahead consumes nothing, so every identifier is tried.
_INSTANTIATION = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?=\s*(?:#\s*\(|[A-Za-z_]\w*\s*[(\[]))")


def find_top(tb_text: str, module_names: list[str]) -> str | None:
    """The testbench's top: the module it defines that no other of its modules instantiates."""
    return _find_top(tb_text, tuple(module_names))


@lru_cache(maxsize=16)
def _find_top(tb_text: str, module_names: tuple[str, ...]) -> str | None:
    """Memoised: the rules, the scorer and the bug hunt each ask it of the same testbench (a
    golden-capture testbench of 100 KB takes 40 ms)."""
    code = strip_comments(tb_text)
    if not module_names:
        return None
    bodies = re.split(r"\bendmodule\b", code)
    wanted = set(module_names)
    instantiated = set()
    # One pass per body (linear in the testbench: 20k modules must not take minutes): every identifier
    # in an instantiation position, less the module the body itself declares.
    for body in bodies:
        own = set(_MODULE_HEADER.findall(body))
        instantiated |= (set(_INSTANTIATION.findall(body)) & wanted) - own
    tops = [n for n in module_names if n not in instantiated]
    if not tops:
        return module_names[-1]
    for preferred in ("tb", "testbench", "top"):
        if preferred in tops:
            return preferred
    return tops[-1] if len(tops) > 1 and tops[-1].endswith("tb") else tops[0]


__all__ = ["LEXICAL", "MODULES", "TESTBENCH_UNITS", "strip_comments", "declared_names", "module_names", "find_top"]
