"""How much of a design's text a testbench carries: the measure behind the bug hunt's "embeds the design".

The measure is the one the trainers' contamination check uses (ROUGE-L over whitespace tokens, the
released script's): the longest common subsequence (LCS) of the two token lists. For an embedded copy
the question is how much of the *design* the testbench holds, not how alike two files of any size are,
so ``containment`` is LCS / (the design file's tokens): 1.0 when the testbench holds the file
verbatim in order, whatever it adds around it. Comments are dropped first (ecov.harness.hdl.text).

The LCS is computed bit-parallel (Allison-Dix / Hyyrö: one big-integer add per token of the longer
text), so a 20,000-token testbench against a 5,000-token design takes milliseconds, not a 10^8-cell table.
Pure functions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecov.harness.hdl.text import strip_comments

# A design file shorter than this many tokens is not checked: a testbench of a ten-token module shares
# most of its tokens by necessity (module, endmodule, the port names).
MIN_TOKENS = 60
EMBED_THRESHOLD = 0.6  # containment at or above which a testbench embeds the file (docs/scoring.md)


def tokens(text: str) -> list[str]:
    return strip_comments(text).split()


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two token lists."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    masks: dict[str, int] = {}
    for i, tok in enumerate(b):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    full = (1 << len(b)) - 1
    v = full
    for tok in a:
        m = masks.get(tok)
        if m is None:
            continue
        u = v & m
        v = ((v + u) | (v - u)) & full
    return len(b) - bin(v).count("1")


def rouge_l(a: list[str], b: list[str]) -> float:
    """ROUGE-L F1 (``2 * LCS / (len_a + len_b)``), as trainers/contamination.py computes it."""
    return 2.0 * lcs_length(a, b) / (len(a) + len(b)) if a and b else 0.0


def containment(design: list[str], testbench: list[str]) -> float:
    """Share of ``design``'s tokens that ``testbench`` holds in order."""
    return lcs_length(design, testbench) / len(design) if design else 0.0


@dataclass(frozen=True)
class Embedding:
    file: str
    containment: float
    rouge_l: float


def embedded_design(files: list[tuple[str, str]], testbench: str, threshold: float = EMBED_THRESHOLD,
                    min_tokens: int = MIN_TOKENS) -> Embedding | None:
    """The design file (name, text) the testbench embeds most, when its containment reaches ``threshold``."""
    tb = tokens(testbench)
    best: Embedding | None = None
    for name, text in files:
        toks = tokens(text)
        if len(toks) < min_tokens:
            continue
        lcs = lcs_length(toks, tb)
        c = lcs / len(toks)
        if c >= threshold and (best is None or c > best.containment):
            best = Embedding(name, round(c, 4), round(2.0 * lcs / (len(toks) + len(tb)), 4))
    return best


__all__ = ["EMBED_THRESHOLD", "MIN_TOKENS", "Embedding", "containment", "embedded_design", "lcs_length", "rouge_l",
           "tokens"]
