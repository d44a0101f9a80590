"""Test rules checked before anything compiles: what a testbench may not do to the design or the host.

A testbench must exercise the design through its ports. Redefining a design module, including design
files, ``bind``, ``force``/``release`` and hierarchical writes would let it fake coverage; ``$system``,
DPI imports and file access outside its own folder would let it reach the host. The sandbox enforces the
host side again at run time; these rules give the clear, early reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')
_MODULE_DEF = re.compile(r"^\s*(?:module|macromodule|interface|program|package)\s+(?:automatic\s+|static\s+)?([A-Za-z_]\w*)", re.M)
_FILE_TASKS = ("$fopen", "$readmemh", "$readmemb", "$writememh", "$writememb", "$dumpfile", "$fread")


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"rule '{self.rule}' (testbench line {self.line}): {self.message}"


def strip_comments(text: str) -> str:
    """Comments become spaces (newlines kept) so line numbers stay true and strings stay intact."""

    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    out, pos = [], 0
    # Walk strings and comments together so a "//" inside a string is not taken for a comment.
    token = re.compile(r'"(?:\\.|[^"\\\n])*"|/\*.*?\*/|//[^\n]*', re.S)
    for m in token.finditer(text):
        out.append(text[pos : m.start()])
        out.append(m.group(0) if m.group(0).startswith('"') else blank(m))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def module_names(text: str) -> list[str]:
    return _MODULE_DEF.findall(strip_comments(text))


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _unsafe_path(path: str) -> bool:
    return path.startswith("/") or path.startswith("~") or ".." in path.split("/") or "\\" in path


def check_testbench(tb: str, design_modules: list[str], design_files: list[str], instance: str) -> list[Violation]:
    """Every rule the testbench breaks, in source order. Empty means it may run."""
    code = strip_comments(tb)
    no_strings = _STRING.sub(lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', code)
    found: list[Violation] = []

    def add(rule: str, index: int, message: str) -> None:
        found.append(Violation(rule, _line_of(code, index), message))

    design_set = set(design_modules)
    for m in _MODULE_DEF.finditer(no_strings):
        if m.group(1) in design_set:
            add("redefines-design-module", m.start(1),
                f"defines module '{m.group(1)}', which is a design module; instantiate it instead")
    for m in re.finditer(r"`include\s+(\"[^\"]*\"|<[^>]*>)", code):
        target = m.group(1)[1:-1]
        base = target.rsplit("/", 1)[-1]
        if base in design_files or _unsafe_path(target) or not base:
            add("includes-design-file", m.start(), f"`include {m.group(1)}: the design is compiled by the harness; "
                "testbenches may not include design files or files outside their folder")
        else:
            add("include", m.start(), f"`include {m.group(1)}: only the single testbench file is compiled; inline it")
    for m in re.finditer(r"\bbind\s+[A-Za-z_]", no_strings):
        add("bind", m.start(), "'bind' into the design is not allowed")
    for m in re.finditer(r"\b(force|release)\b", no_strings):
        add("force-release", m.start(), f"'{m.group(1)}' overrides design signals; drive the ports instead")
    # Hierarchical assignment into the DUT: "<instance>.<name> =" / "<=" (not ==, not <=> comparisons).
    hier = re.compile(rf"(?<![\w.$]){re.escape(instance)}\s*\.\s*[A-Za-z_][\w.\[\]: ]*?\s*(<=|=)(?!=)")
    for m in hier.finditer(no_strings):
        before = no_strings[max(0, m.start() - 200) : m.start()]
        # Only statements: the match must start a statement (after ; begin end ) or a newline).
        if re.search(r"(^|[;\n]|\bbegin|\bend|\)|\belse)\s*$", before):
            add("hierarchical-write", m.start(), f"assigns into the design hierarchy ('{instance}.…'); drive ports only")
    for m in re.finditer(r"\$system\b", no_strings):
        add("system-call", m.start(), "$system runs host commands and is not allowed")
    for m in re.finditer(r"\bimport\s+\"DPI(-C)?\"", code):
        add("dpi", m.start(), "DPI imports call host code and are not allowed")
    for m in re.finditer(r"(\$[a-z]+)\s*\(", code):
        task = m.group(1)
        if task not in _FILE_TASKS:
            continue
        arg = re.match(r"\s*\(\s*(\"(?:\\.|[^\"\\])*\"|[^,)]*)", code[m.end() - 1 :])
        path = arg.group(1).strip() if arg else ""
        if not path.startswith('"'):
            if task in ("$fopen", "$writememh", "$writememb", "$readmemh", "$readmemb"):
                add("file-access", m.start(), f"{task} needs a literal relative file name so the harness can check it")
            continue
        if _unsafe_path(path[1:-1]):
            add("file-access", m.start(), f"{task}({path}): files outside the testbench folder are not allowed")
    found.sort(key=lambda v: v.line)
    return found
