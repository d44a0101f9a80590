"""Token-length limits on rows and designs, counted with the student's tokenizer.

Released: designs are split by the token count of their RTL (``filter_data_by_length`` in
``src/llm4cov/datasets/filter.py``, 1000 tokens with the Qwen3 tokenizer; ``GEN_KEEP_LONG`` picks the
long side) before generation; whole rows are only *measured* (``check_max_length_context`` in
``scripts/synthetic_data_filter.py`` prints the longest of the top 1%), not dropped. ECov drops rows
longer than ``max_tokens`` here so the card counts them (sft.py would otherwise drop them silently
at training time) and reports the longest row, as theirs does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ecov.harness.tasks import Task
from ecov.trainers.synth import Row


@dataclass
class LengthReport:
    tokenizer: str = ""
    longest_row: int = 0
    rtl_tokens: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"tokenizer": self.tokenizer, "longest_row_tokens": self.longest_row, "rtl_tokens": self.rtl_tokens}


def load_tokenizer(name: str):
    try:
        from transformers import AutoTokenizer
    except ImportError as e:
        raise ValueError("curation.length limits count tokens with transformers: pip install 'ecov[train]'") from e
    try:
        return AutoTokenizer.from_pretrained(name)
    except Exception as e:  # noqa: BLE001 - OSError, ValueError, hub errors: all mean "cannot load it"
        raise FileNotFoundError(f"curation.length: cannot load tokenizer {name!r}: {type(e).__name__}: {e}") from None


def row_tokens(row: Row, tok) -> int:
    messages = row.prompt + [{"role": "assistant", "content": row.response}]
    if getattr(tok, "chat_template", None):
        ids = tok.apply_chat_template(messages, tokenize=True)
        if hasattr(ids, "keys"):
            ids = ids["input_ids"]
        return len(ids)
    return len(tok.encode("\n".join(m["content"] for m in messages)))


def rtl_tokens(task: Task, tok) -> int:
    """Their ``_compute_rtl_tokens``: the sum over RTL files of the encoded length."""
    return sum(len(tok.encode(f.content)) for f in task.rtl_files)
