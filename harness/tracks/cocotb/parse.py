"""Turn a model's answer into a cocotb testbench: a fenced ``python`` block, or patch hunks on the current one.

Pure, like ecov.harness.parse (whose fence reader and patch applier it reuses): the result is a ParseResult,
either a testbench or an error written to the model, never an exception.
"""

from __future__ import annotations

import re

from ecov.harness.parse import (
    Block,
    ParseResult,
    PatchError,
    apply_patch,
    fenced_blocks,
    is_patch,
    strip_reasoning,
)

PY_LANGS = {"python", "py", "python3", "py3", "cocotb", ""}

NO_CODE = (
    "Your answer contained no Python code block. Answer with the file name on its own line followed by "
    "the complete cocotb testbench in a ```python fenced block, or, when a current testbench is shown, "
    "patch hunks against it in a ```diff block."
)
_TEST = re.compile(r"@cocotb\.test\b|@test\b")


def _rank(b: Block) -> tuple:
    return (bool(_TEST.search(b.content)), b.lang != "", "import cocotb" in b.content, len(b.content))


def parse_python_response(text: str, current: str | None = None) -> ParseResult:
    text = strip_reasoning(text or "")
    if not text.strip():
        return ParseResult(None, "Your answer was empty. " + NO_CODE)
    blocks = fenced_blocks(text)
    code = [b for b in blocks if b.closed and b.lang in PY_LANGS and not is_patch(b) and b.content.strip()]
    best = max(code, key=_rank) if code else None
    if best is not None and _rank(best)[0]:
        return ParseResult(best.content.strip("\n") + "\n", "", "full")
    patches = [b for b in blocks if b.closed and is_patch(b)]
    if patches:
        if current is None:
            return ParseResult(None, "Your answer contained patch hunks, but there is no current testbench to "
                                     "apply them to. Answer with the complete testbench in a ```python block.")
        try:
            return ParseResult(apply_patch(current, "\n".join(b.content for b in patches)), "", "patch")
        except PatchError as e:
            return ParseResult(None, f"Your patch could not be applied, so the testbench is unchanged: {e} "
                                     "Copy context and removed lines exactly from the current testbench, "
                                     "or answer with the complete testbench instead.")
    if best is not None:
        return ParseResult(best.content.strip("\n") + "\n", "", "full")
    if any(not b.closed for b in blocks):
        return ParseResult(None, "Your code block was not closed with ``` (was the answer cut off?). "
                                 "Answer with a shorter, complete testbench in one fenced block.")
    if not blocks and _TEST.search(text) and "import cocotb" in text:
        return ParseResult(text[text.index("import cocotb"):].strip("\n") + "\n", "", "full")
    return ParseResult(None, NO_CODE)
