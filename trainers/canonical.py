"""Canonical training targets: the testbench an answer gave, as one ``filename:`` line and one code block.

The released code never trains on a model's raw text: direct-inference rows get
``filename: {tb.name}\\n```systemverilog\\n{tb.content}\\n```" (``_format_tb_output`` in
``scripts/synthetic_data_parse.py``), and agentic rounds store the same rebuilt text as ``llm_response``
(``scripts/batch_query_agentic_round.py``). So prose, reasoning and patch hunks never reach a target; a
patch answer becomes the whole patched file it produced, which is what was scored.
"""

from __future__ import annotations

from ecov.harness.parse import answer_filename, parse_llm4cov, parse_response
from ecov.harness.tasks import Task
from ecov.trainers.synth import Row

DEFAULT_NAME = "tb.sv"


def canonical_text(name: str, code: str) -> str:
    return f"filename: {name}\n```systemverilog\n{code.strip(chr(10))}\n```"


def canonical_response(response: str, task: Task | None, current: str | None = None) -> str | None:
    """The canonical form of ``response``, or None when it gives no testbench.

    The file name is the one the answer stated (the released patterns), else ``tb.sv``; the code is what
    the released parser takes (the first block) when it names a file, else what ECov's parser makes of it
    (a full block, or ``current`` with the answer's patch applied).
    """
    l4c = parse_llm4cov(response)
    if l4c.ok:
        return canonical_text(l4c.filename or DEFAULT_NAME, l4c.testbench or "")
    dut = task.dut_module if task else ""
    parsed = parse_response(response, current=current, dut_module=dut)
    if not parsed.ok or not parsed.testbench:
        return None
    return canonical_text(answer_filename(response) or DEFAULT_NAME, parsed.testbench)


def canonicalize(rows: list[Row], tasks: dict[str, Task]) -> int:
    """Rewrite each row's response to its canonical form in place (``meta.canonical`` says so); returns
    how many changed. Rows whose answer gives no testbench are left as they are (curation drops them)."""
    changed = 0
    for row in rows:
        canon = canonical_response(row.response, tasks.get(row.task_id), row.meta.get("state_testbench") or None)
        if canon is not None and canon != row.response:
            row.response = canon
            row.meta["canonical"] = True
            changed += 1
    return changed
