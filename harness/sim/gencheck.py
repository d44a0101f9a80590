"""Check Verilator's generated C++ before it is compiled: no testbench text outside Verilator's escaping.

Verilator 5.048 prints the text of an event control (``@(...)``, ``wait``) into the generated C++ as a
string literal *without escaping it* (docs/scoring.md, "Threat model": the upstream bug). A string
constant or an escaped identifier holding ``"`` in that text closes the literal, and the rest is compiled
as C++. The rules refuse such constructs (``event-string``, ``escaped-name``); this check is the second
wall, on what the compiler will actually see:

every logical line (backslash-newlines spliced, as the compiler does) that holds one of those event
descriptors (a string literal starting ``@(`` or holding ``is active: @(``) must have exactly the shape
Verilator gives it: its string literals terminated, no comment, no raw or prefixed literal, no braces,
no assignment, at most one ``;`` and that at the end, and no identifier but the few Verilator's trigger
scheduler calls use. Anything else on such a line was not written by Verilator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# Identifiers Verilator writes on a line that carries an event descriptor (trigger scheduler calls and
# its debug messages). A testbench's injected C++ would need others (a function, a counter, a file).
ALLOWED_IDENTIFIERS = frozenset({
    "co_await", "vlSelfRef", "vlSelf", "vlSymsp", "nullptr", "VL_DBG_MSGS", "VL_DBG_MSGF", "tag",
    "trigger", "ready", "resume", "moveToResumeQueue", "commit", "doneWaiting", "VL_LIKELY", "VL_UNLIKELY",
})
_SCHEDULER = re.compile(r"^__V(trigSched|dlySched|dynSched|ExprSched)\w*$")
_TOKEN = re.compile(r'''
    (?P<str>"(?:\\.|[^"\\])*("|$))
  | (?P<chr>'(?:\\.|[^'\\])*('|$))
  | (?P<comment>//|/\*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<num>\d[\w']*)
  | (?P<space>\s+)
  | (?P<punct>.)
''', re.X)
_DESCRIPTOR = re.compile(r'"@\(|is active: @\(')


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


def logical_lines(text: str):
    """(first physical line number, logical line) with backslash-newlines spliced."""
    start, parts = 1, []
    for i, line in enumerate(text.split("\n"), 1):
        if not parts:
            start = i
        if line.endswith("\\"):
            parts.append(line[:-1])
            continue
        parts.append(line)
        yield start, "".join(parts)
        parts = []
    if parts:
        yield start, "".join(parts)


def check_line(line: str) -> str | None:
    """Why ``line`` (one holding an event descriptor) is not Verilator's; None when it is."""
    semis = 0
    prev = None
    for m in _TOKEN.finditer(line):
        kind = m.lastgroup
        text = m.group(0)
        if kind == "space":
            continue
        if kind == "str":
            if len(text) < 2 or not text.endswith('"') or text.endswith('\\"') and not _closed(text):
                return "an unterminated string literal"
            if prev is not None and prev[0] == "ident":
                return f"a prefixed or raw string literal ({prev[1]}\"...)"
        elif kind == "chr":
            return "a character literal"
        elif kind == "comment":
            return "a comment"
        elif kind == "ident":
            if text not in ALLOWED_IDENTIFIERS and not _SCHEDULER.match(text):
                return f"the identifier '{text}'"
        elif kind == "punct":
            if text in "{}#=?\\`@$":
                return f"the character {text!r}"
            if text == ";":
                semis += 1
        prev = (kind, text)
    if semis > 1 or (semis == 1 and not line.rstrip().endswith(";")):
        return "more than one statement"
    return None


def _closed(lit: str) -> bool:
    """A literal ending in ``\\"`` is closed only if that backslash is itself escaped."""
    body = lit[1:]
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i == n - 1
        i += 1
    return False


def check_generated(obj: Path, files: list[Path] | None = None) -> list[Finding]:
    """Every generated file of the model in ``obj`` (``Vtop*.cpp``/``.h``); empty when all is Verilator's."""
    found: list[Finding] = []
    for f in sorted(files if files is not None else obj.glob("Vtop*.[ch]*")):
        text = f.read_text(errors="replace")
        if "@(" not in text:
            continue
        for no, line in logical_lines(text):
            if _DESCRIPTOR.search(line):
                why = check_line(line)
                if why is not None:
                    found.append(Finding(f.name, no, f"event descriptor line holds {why}: not Verilator's code"))
    return found


__all__ = ["Finding", "check_generated", "check_line", "logical_lines", "ALLOWED_IDENTIFIERS"]
