"""Helpers shared by the benchmark builders: errors, build results, small SystemVerilog text utilities.

Builders read upstream data from a path given on the command line and turn it into ``Task`` records.
They never simulate: targets they write are provisional until ``ecov-data validate --write-targets``
applies the benchmark's target rule (see ``ecov.harness.benchmark.calibrate``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecov.harness.core.records import SourceFile
from ecov.harness.hdl.text import module_names, strip_comments
from ecov.harness.tasks import Task

HDL_SUFFIXES = (".sv", ".v", ".svh", ".vh")


class SourceError(ValueError):
    """Upstream data is malformed. The message names the file or problem and what is missing."""


@dataclass(frozen=True)
class Skipped:
    """An upstream item that did not become a task, and why."""

    id: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "reason": self.reason}


@dataclass
class BuildResult:
    benchmark: str
    tasks: list[Task] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    source: str = ""  # the path that was read
    info: dict[str, Any] = field(default_factory=dict)  # upstream commit, counts per origin, ...

    def summary(self) -> str:
        return f"{self.benchmark}: {len(self.tasks)} tasks built, {len(self.skipped)} left out"


_KEYWORDS = {
    "module", "input", "output", "inout", "wire", "reg", "logic", "assign", "always", "always_ff",
    "always_comb", "always_latch", "initial", "if", "else", "case", "begin", "end", "for", "function",
    "task", "return", "generate", "genvar", "integer", "int", "bit", "localparam", "parameter", "typedef",
    "enum", "struct", "posedge", "negedge", "or", "and", "not", "xor", "nand", "nor", "xnor", "buf",
    "while", "repeat", "forever", "default", "endcase", "endmodule", "import", "export", "string",
}


def instantiations(text: str, module: str) -> list[str]:
    """Instance names of ``module`` in ``text`` (``module #(...) name (``)."""
    pat = re.compile(rf"\b{re.escape(module)}\s*(?:#\s*\((?:[^()]|\([^()]*\))*\)\s*)?([A-Za-z_]\w*)\s*\(", re.S)
    return [m for m in pat.findall(strip_comments(text)) if m not in _KEYWORDS]


def instantiated_modules(text: str, candidates: set[str]) -> set[str]:
    """Which of ``candidates`` are instantiated somewhere in ``text``."""
    return {m for m in candidates if instantiations(text, m)}


def infer_top(files: list[SourceFile], hint: str = "") -> str:
    """The DUT top: the one declared module that no other declared module instantiates.

    ``hint`` (e.g. a name from the prompt or meta.json) wins when it is declared. Raises SourceError
    when no module is declared or several remain and no hint picks one.
    """
    declared: list[str] = []
    for f in files:
        declared += module_names(f.content)
    if not declared:
        raise SourceError(f"no module declared in {', '.join(f.name for f in files) or 'no files'}")
    if hint and hint in declared:
        return hint
    text = "\n".join(f.content for f in files)
    used = instantiated_modules(text, set(declared))
    tops = [m for m in declared if m not in used]
    if len(tops) == 1:
        return tops[0]
    if hint:
        raise SourceError(f"top module {hint!r} is not declared (declared: {', '.join(declared)})")
    raise SourceError(f"cannot tell the top module among {', '.join(tops or declared)}; name it in the metadata")


# Phrases CVDP prompts use to name the DUT instance: "instantiated as `uut`", "instance name `dut`",
# "named `uut`", "instance `dut`".
_INSTANCE_PATTERNS = [
    r"instantiated\s+(?:as|with\s+(?:the\s+)?(?:instance\s+)?name)\s+[`'\"*]*([A-Za-z_]\w*)",
    r"instance\s+name\s*(?:of|is|as|:|=)?\s*[`'\"*]+([A-Za-z_]\w*)",
    r"instance\s+(?:named|called)\s+[`'\"*]*([A-Za-z_]\w*)",
    r"(?:named|called)\s+[`'\"*]+([A-Za-z_]\w*)[`'\"*]+\s*(?:instance|in the testbench)",
    r"\binstance\s+[`'\"]+([A-Za-z_]\w*)[`'\"]+",
    r"instance\s+in\s+the\s+testbench\s+is\s+named\s+[`'\"*]*([A-Za-z_]\w*)",
    r"instance\s+of\s+(?:the\s+)?(?:RTL|DUT|design|module|[`'\"*]*\w+[`'\"*]*\s+module)\s+as\s+[`'\"*]*([A-Za-z_]\w*)",
    r"\binstantiates?\s+(?:the\s+)?[`'\"*]*\w+[`'\"*]*\s+module\s+as\s+[`'\"*]*([A-Za-z_]\w*)",
    r"instance\s+of\s+(?:the\s+)?[*`]*RTL(?:\s+module)?[*`]*\s+should\s+be\s+named\s+[`'\"*]*([A-Za-z_]\w*)",
    r"name\s+the\s+instance\s+as\s+[`'\"*]*([A-Za-z_]\w*)",
    r"instance\s+of\s+[`'\"*]*\w+[`'\"*]*\s+named\s+[`'\"*]*([A-Za-z_]\w*)",
    r"\bmodule\s+as\s+the\s+[`'\"*]+([A-Za-z_]\w*)[`'\"*]+",
    r"^\s*[A-Za-z_]\w*\s+(?:#\s*\([^;]*?\)\s*)?([A-Za-z_]\w*)\s*\(\s*$",
]


def instance_from_prompt(prompt: str, module: str = "") -> str:
    """The DUT instance name the prompt asks for, or "" when it names none."""
    for pat in _INSTANCE_PATTERNS:
        for m in re.finditer(pat, prompt, re.I | re.M):
            name = m.group(1)
            if name not in _KEYWORDS and name != module and name.lower() not in {"the", "a", "an", "module"}:
                return name
    return ""


def rename_module(text: str, old: str, new: str) -> str:
    """Rename the declaration ``module old`` to ``module new`` (declarations only)."""
    out, n = re.subn(rf"(\bmodule\s+){re.escape(old)}\b", rf"\g<1>{new}", text)
    if not n:
        raise SourceError(f"no 'module {old}' declaration to rename")
    return out


def rename_instance(text: str, module: str, old: str, new: str) -> str:
    """Rename one instance of ``module`` from ``old`` to ``new``."""
    out, n = re.subn(rf"(\b{re.escape(module)}\s+){re.escape(old)}(\s*\()", rf"\g<1>{new}\g<2>", text)
    if n != 1:
        raise SourceError(f"expected one '{module} {old} (' instance, found {n}")
    return out


def first_key(d: dict[str, Any], *names: str, default: Any = None) -> Any:
    """The value of the first present key among ``names`` (case-insensitive), for tolerant metadata."""
    lower = {str(k).lower(): v for k, v in d.items()}
    for n in names:
        v = lower.get(n.lower())
        if v not in (None, ""):
            return v
    return default


def attach_references(task: Task, folder: Path | None) -> Task:
    """Add ``<folder>/<task id>.sv`` (ECov's own reference testbench, when it exists) as the task's first
    calibration testbench, before any upstream one: builtin/reference answers with it first, and it is the
    one written to obey the task's interface contract (an upstream testbench may break a stated rule, e.g.
    CVDP's gf_multiplier_tb.sv or VerilogEval's random phases)."""
    ref = folder / f"{task.id}.sv" if folder else None
    if ref is not None and ref.is_file():
        task.reference_tbs = [SourceFile(f"ecov_{task.id}.sv", read_text(ref)), *task.reference_tbs]
        task.source["reference"] = "ecov"
    return task


def read_text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError as e:
        raise SourceError(f"cannot read {path}: {e.strerror or e}") from e


def is_hdl(name: str) -> bool:
    return name.lower().endswith(HDL_SUFFIXES)


def upstream_commit(path: Path) -> str:
    """The UPSTREAM_COMMIT recorded next to extracted upstream data, if any."""
    for d in (path, *path.parents[:2]) if path.is_dir() else (path.parent, *path.parents[1:2]):
        f = d / "UPSTREAM_COMMIT"
        if f.is_file():
            return f.read_text().strip()
    return ""
