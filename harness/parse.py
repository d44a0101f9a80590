"""Turn a model's answer into a testbench: a fenced SystemVerilog block, or patch hunks on the current one.

Pure functions, no I/O. Whatever the answer, the result is a ParseResult: either a testbench, or an
error written to the model (it becomes the next round's feedback), never an exception.

Two parsers of SystemVerilog answers, chosen by the protocol's prompt layout (the sv track,
ecov.harness.tracks.sv.track, pairs each with its layout's prompts; another track brings its own):

- ``parse_llm4cov``: the released LLM4Cov rule. A file name (``filename: x.sv``, or failing that any
  ``name.sv``/``name.v`` in the text) and a code block (the first fenced block, or failing that the
  first ``module ... endmodule``) are both required, and an answer cut off at the length limit
  (finish_reason ``length``) is unusable. Full files only.
- ``parse_response``: ECov's rule (the ``ecov`` protocol): the best-ranked block, or patch hunks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ecov.harness.hdl.text import declared_names, strip_comments

CODE_LANGS = {"", "systemverilog", "verilog", "sv", "svh", "v", "vh", "system-verilog", "systemverilog2017"}
DIFF_LANGS = {"diff", "patch", "udiff"}

NO_CODE = (
    "Your answer contained no SystemVerilog code block. Answer with the file name on its own line "
    "followed by the complete testbench in a ```systemverilog fenced block, or, when a current "
    "testbench is shown, patch hunks against it in a ```diff block."
)

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*$", re.M)
_FILENAME = re.compile(r"([\w./-]+\.(?:sv|svh|v|vh|diff|patch))\b", re.I)
_HUNK = re.compile(r"^@@\s*(?:-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?)?\s*@@.*$")
_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_TB_KINDS = ("module", "program")
_UNIT_KINDS = ("module", "program", "interface", "package", "class")


@dataclass
class ParseResult:
    testbench: str | None
    error: str = ""
    kind: str = ""  # "full" | "patch" | "" (nothing usable)
    filename: str = ""  # the file name the answer gave (llm4cov parser)

    @property
    def ok(self) -> bool:
        return self.testbench is not None


@dataclass
class Block:
    lang: str
    content: str
    filename: str  # from the line(s) just above the fence, "" if none
    closed: bool
    index: int


def strip_reasoning(text: str) -> str:
    """Drop <think>...</think> sections (reasoning models) and an unterminated leading one."""
    text = _THINK.sub("", text)
    if "<think>" in text.lower() and "</think>" not in text.lower():
        return ""
    if "</think>" in text:  # some servers strip the opening tag only
        text = text.split("</think>")[-1]
    return text


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block in order; an unclosed last block runs to the end and is marked ``closed=False``."""
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(1), m.group(2).lower()
        j = i + 1
        while j < len(lines) and not re.match(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", lines[j]):
            j += 1
        closed = j < len(lines)
        blocks.append(Block(lang, "\n".join(lines[i + 1:j]), _filename_above(lines, i), closed, len(blocks)))
        i = j + 1
    return blocks


def _filename_above(lines: list[str], fence_line: int) -> str:
    for k in range(fence_line - 1, max(fence_line - 3, -1), -1):
        line = lines[k].strip()
        if not line:
            continue
        m = _FILENAME.search(line)
        return m.group(1) if m and len(line) <= 120 else ""
    return ""


def is_patch(block: Block) -> bool:
    if block.lang in DIFF_LANGS:
        return True
    return any(_HUNK.match(line) for line in block.content.split("\n"))


def module_names(code: str) -> list[str]:
    """Modules and programs the block declares (a testbench may be either)."""
    return declared_names(code, _TB_KINDS)


def instantiates(code: str, module: str) -> bool:
    """True when ``module`` appears as an instantiation (``module [#(...)] name (``)."""
    if not module:
        return False
    return re.search(rf"\b{re.escape(module)}\b\s*(#\s*\(|\w+\s*\()", strip_comments(code)) is not None


def _block_rank(block: Block, dut_module: str, design_modules: set[str]) -> tuple:
    names = module_names(block.content)
    defines_design = any(n in design_modules or n == dut_module for n in names)
    fname = block.filename.lower()
    return (
        bool(names) and "endmodule" in block.content,
        instantiates(block.content, dut_module),
        not defines_design,
        "tb" in fname or "test" in fname,
        block.index,  # later blocks win ties: models tend to end with their final version
    )


def pick_code_block(blocks: list[Block], dut_module: str = "", design_modules: set[str] | None = None):
    """The block most likely to be the testbench, or None when no block holds SystemVerilog code."""
    design_modules = design_modules or set()
    code = [b for b in blocks if b.closed and b.lang in CODE_LANGS and not is_patch(b) and b.content.strip()]
    code = [b for b in code if module_names(b.content) or "endmodule" in b.content]
    if not code:
        return None
    return max(code, key=lambda b: _block_rank(b, dut_module, design_modules))


def with_helpers(best: Block, blocks: list[Block], design_modules: set[str]) -> str:
    """The chosen block, preceded by other blocks that declare what it uses (a package, an interface).

    Models sometimes split a testbench into several blocks; a block is added only when it declares a
    name the chosen block mentions and declares nothing of the design or of the chosen block.
    """
    own = set(declared_names(best.content, _UNIT_KINDS))
    body = strip_comments(best.content)
    helpers = []
    for b in blocks:
        if b is best or not b.closed or b.lang not in CODE_LANGS or is_patch(b):
            continue
        names = set(declared_names(b.content, _UNIT_KINDS))
        if not names or names & (own | design_modules):
            continue
        if any(re.search(rf"\b{re.escape(n)}\b", body) for n in names):
            helpers.append(b.content.strip("\n"))
            own |= names
    return "\n\n".join([*helpers, best.content.strip("\n")])


def _bare_code(text: str) -> str | None:
    """An answer that is nothing but code, without fences: from the first module/`timescale to the last endmodule."""
    m = re.search(r"^\s*(`timescale|module\b|program\b|`include|import\b)", text, re.M)
    end = text.rfind("endmodule")
    if not m or end < 0 or end < m.start():
        return None
    prose = text[:m.start()].strip()
    if len(prose) > 400:
        return None
    return text[m.start():end + len("endmodule")].strip() + "\n"


def parse_response(text: str, current: str | None = None, dut_module: str = "",
                   design_modules: set[str] | None = None) -> ParseResult:
    """The testbench an answer gives: a full file, or ``current`` with the answer's patch hunks applied.

    A complete testbench block (a module that instantiates the DUT) wins over patch hunks; otherwise
    hunks are applied to ``current``; otherwise the best code block is taken as is (the compiler then
    reports what is wrong with it).
    """
    text = strip_reasoning(text or "")
    if not text.strip():
        return ParseResult(None, "Your answer was empty. " + NO_CODE)
    blocks = fenced_blocks(text)
    best = pick_code_block(blocks, dut_module, design_modules)
    if best is not None and _block_rank(best, dut_module, design_modules or set())[:2] == (True, True):
        return ParseResult(_normalize(with_helpers(best, blocks, design_modules or set())), "", "full")

    patches = [b for b in blocks if b.closed and is_patch(b)]
    if not patches and not blocks and any(_HUNK.match(line) for line in text.split("\n")):
        patches = [Block("diff", text, "", True, 0)]
    if patches:
        if current is None:
            return ParseResult(None, "Your answer contained patch hunks, but there is no current testbench "
                                     "to apply them to. Answer with the complete testbench in a "
                                     "```systemverilog fenced block.")
        try:
            patched = apply_patch(current, "\n".join(b.content for b in patches))
        except PatchError as e:
            return ParseResult(None, f"Your patch could not be applied, so the testbench is unchanged: {e} "
                                     "Copy context and removed lines exactly from the current testbench, "
                                     "or answer with the complete testbench instead.")
        return ParseResult(patched, "", "patch")

    if best is not None:
        return ParseResult(_normalize(best.content), "", "full")
    if any(not b.closed for b in blocks):
        return ParseResult(None, "Your code block was not closed with ``` (was the answer cut off?). "
                                 "Answer with a shorter, complete testbench in one fenced block.")
    if not blocks:
        bare = _bare_code(text)
        if bare is not None:
            return ParseResult(bare, "", "full")
    return ParseResult(None, NO_CODE)


def _normalize(code: str) -> str:
    return code.strip("\n") + "\n"


# ---------------------------------------------------------------------------------------- llm4cov rule

_L4C_NAME = (
    re.compile(r"filename\s*[:=]\s*([\w\-./]+\.s?v)\b", re.I),
    re.compile(r"file\s*name\s*[:=]\s*([\w\-./]+\.s?v)\b", re.I),
    re.compile(r"output\s*file\s*(?:is|=)\s*[\"']?([\w\-./]+\.s?v)\b", re.I),
    re.compile(r"\b([\w\-]+\.s?v)\b", re.I),
)
_L4C_BLOCK = re.compile(r"```(?:verilog|systemverilog|sv)?\s*(.*?)```", re.S | re.I)
_L4C_BARE = re.compile(r"(module\s+[\s\S]*?endmodule)", re.I)

CUT_OFF = ("Your answer was cut off at the length limit (finish_reason 'length'). Answer with a shorter, "
           "complete testbench.")
NO_FILENAME = ("Your answer named no testbench file. Start with a plain-text line 'filename: tb_<name>.sv', "
               "then the complete testbench in one ```systemverilog fenced block.")
NO_BLOCK = "Your answer held no code block. Give the complete testbench in one ```systemverilog fenced block."


def answer_filename(text: str) -> str:
    """The file name an answer states, by the released code's patterns in order; "" when none."""
    for pat in _L4C_NAME:
        m = pat.search(text)
        if m:
            return re.split(r"[/\\]", m.group(1))[-1]
    return ""


def answer_code(text: str) -> str:
    """The first fenced block's content, else the first bare ``module ... endmodule``; "" when none."""
    m = _L4C_BLOCK.search(text)
    if m:
        return m.group(1).strip()
    m = _L4C_BARE.search(text)
    return m.group(1).strip() if m else ""


def parse_llm4cov(text: str, finish_reason: str = "") -> ParseResult:
    """The released LLM4Cov rule: a file name and a code block, not cut off; the first block is taken."""
    if finish_reason == "length":
        return ParseResult(None, CUT_OFF)
    text = strip_reasoning(text or "")
    if not text.strip():
        return ParseResult(None, "Your answer was empty. " + NO_FILENAME)
    name = answer_filename(text)
    if not name:
        return ParseResult(None, NO_FILENAME)
    code = answer_code(text)
    if not code:
        return ParseResult(None, NO_BLOCK)
    return ParseResult(_normalize(code), "", "full", name)


# ---------------------------------------------------------------------------------------------- patches


class PatchError(ValueError):
    pass


@dataclass
class Hunk:
    header: str
    old_start: int | None  # 1-based, None when the header had no numbers
    old: list[str]  # context + removed lines, in order
    new: list[str]  # context + added lines, in order
    ops: str = ""  # one of ' ', '-', '+' per hunk line, in order

    def replacement(self, matched: list[str]) -> list[str]:
        """The new lines, context taken from the file (``matched``) so whitespace-loose matches keep it."""
        out, i, j = [], 0, 0
        for op in self.ops:
            if op == " ":
                out.append(matched[i])
                i += 1
            elif op == "-":
                i += 1
            else:
                out.append(self.new[j])
            if op != "-":
                j += 1
        return out


def parse_hunks(patch: str) -> list[Hunk]:
    hunks: list[Hunk] = []
    cur: Hunk | None = None
    for line in patch.split("\n"):
        m = _HUNK.match(line)
        if m:
            cur = Hunk(line.strip(), int(m.group(1)) if m.group(1) else None, [], [])
            hunks.append(cur)
            continue
        if cur is None or line.startswith(("--- ", "+++ ", "diff ", "index ", "\\")):
            continue  # file headers, "\ No newline at end of file", prose before the first hunk
        if line.startswith("+"):
            cur.new.append(line[1:])
            cur.ops += "+"
        elif line.startswith("-"):
            cur.old.append(line[1:])
            cur.ops += "-"
        else:  # context: " x"; a blank line (editors and models drop the lone space)
            body = line[1:] if line.startswith(" ") else line
            cur.old.append(body)
            cur.new.append(body)
            cur.ops += " "
    for h in hunks:  # trailing blank context lines are usually an artefact of the block's end
        while h.ops.endswith(" ") and h.old[-1].strip() == "":
            h.old.pop()
            h.new.pop()
            h.ops = h.ops[:-1]
    if not hunks:
        raise PatchError("no '@@ ... @@' hunk header was found.")
    return hunks


def _find(lines: list[str], needle: list[str], hint: int, loose: bool) -> int | None:
    """Index where ``needle`` occurs in ``lines``, nearest to ``hint``; ``loose`` ignores whitespace."""
    def norm(s: str) -> str:
        return re.sub(r"\s+", "", s) if loose else s.rstrip()

    target = [norm(s) for s in needle]
    hay = [norm(s) for s in lines]
    n = len(target)
    spots = [i for i in range(len(hay) - n + 1) if hay[i:i + n] == target]
    if not spots:
        return None
    return min(spots, key=lambda i: (abs(i - hint), i))


def apply_patch(current: str, patch: str) -> str:
    """Apply unified-diff hunks to ``current``, locating each by its context rather than its line numbers."""
    lines = current.split("\n")
    trailing_newline = current.endswith("\n")
    if trailing_newline:
        lines = lines[:-1]
    offset = 0  # where the original line numbers now sit, learned from where the last hunk matched
    cursor = 0  # end of the last applied hunk: the hint for hunks without line numbers
    hunks = parse_hunks(patch)
    for k, h in enumerate(hunks, 1):
        hint = h.old_start - 1 + offset if h.old_start is not None else cursor
        if not h.old:  # pure insertion: after line old_start (0 = top of file)
            at = min(max(hint + 1 if h.old_start is not None else cursor, 0), len(lines))
        else:
            at = _find(lines, h.old, hint, loose=False)
            if at is None:
                at = _find(lines, h.old, hint, loose=True)
            if at is None:
                first = next((s for s in h.old if s.strip()), h.old[0]).strip()
                raise PatchError(f"hunk {k} of {len(hunks)} ({h.header}) does not match the current "
                                 f"testbench (its context and removed lines, starting with '{first[:80]}', "
                                 "were not found).")
        new = h.replacement(lines[at:at + len(h.old)])
        lines[at:at + len(h.old)] = new
        cursor = at + len(new)
        if h.old_start is not None:
            offset = cursor - (h.old_start - 1 + len(h.old))
    out = "\n".join(lines)
    return out + "\n" if trailing_newline or not out.endswith("\n") else out
