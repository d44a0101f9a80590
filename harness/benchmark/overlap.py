"""ROUGE-L overlap between a design and a set of evaluation designs, fast enough for 87k designs.

The released ``scripts/data_contamination_detect.py`` (LLM4Cov) calls a training repository contaminated
when any of its files reaches ROUGE-L F1 >= 0.5 with any file of an evaluation task, on whitespace tokens:
``F1 = 2 * LCS / (len_a + len_b)``. Pure-Python LCS on every pair costs ~1.5 s per design against 30 tasks.

Here the answer is the same, computed in three steps:

1. length bound: ``2 * min(a, b) / (a + b) < t`` cannot reach ``t`` (theirs);
2. bag-of-tokens bound: ``LCS <= sum_tok min(count_a, count_b)``, so ``2 * bag / (a + b) < t`` cannot
   reach it either. Both bounds are upper bounds: no pair that could reach the threshold is skipped;
3. the exact LCS of the pairs left, bit-parallel (Hyyro 2004) on Python integers, one pass over the
   longer file: O(len_a * len_b / word) instead of O(len_a * len_b) interpreted steps.

Designs are independent, so ``scan`` spreads them over worker processes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ecov.harness.tasks import Task


def tokens(text: str) -> list[str]:
    """Whitespace tokens, as the released script tokenizes."""
    return text.split()


def lcs_length(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence of two token lists (bit-parallel, exact)."""
    if len(a) > len(b):
        a, b = b, a
    m = len(a)
    if m == 0:
        return 0
    masks: dict[str, int] = {}
    for i, tok in enumerate(a):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    full = (1 << m) - 1
    v = full
    for tok in b:
        u = v & masks.get(tok, 0)
        if u:
            v = ((v + u) | (v - u)) & full
    return m - v.bit_count()


def rouge_l(a: list[str], b: list[str]) -> float:
    """ROUGE-L F1 (``2 * LCS / (len_a + len_b)``) of two token lists; 0 when either is empty."""
    if not a or not b:
        return 0.0
    return 2.0 * lcs_length(a, b) / (len(a) + len(b))


@dataclass(frozen=True)
class Hit:
    """The first file pair of a design that reaches the threshold."""

    eval_id: str
    eval_file: str
    train_file: str
    score: float

    def describe(self) -> str:
        return f"ROUGE-L {self.score:.3f} between {self.train_file} and {self.eval_id}:{self.eval_file}"


@dataclass
class _EvalFile:
    task_id: str
    name: str
    toks: list[str]
    bag: Counter


def design_files(task: Task, which: str = "rtl+spec") -> list[tuple[str, str]]:
    """(name, text) of the files compared: RTL, plus spec files for ``rtl+spec`` (as released)."""
    if which not in ("rtl", "rtl+spec"):
        raise ValueError(f"files must be rtl or rtl+spec, got {which!r}")
    files = list(task.rtl_files) + (list(task.spec_files) if which == "rtl+spec" else [])
    return [(f.name, f.content) for f in files if f.content.strip()]


class OverlapIndex:
    """Evaluation files, tokenized once; ``match`` answers for one design's files."""

    def __init__(self, eval_tasks: Iterable[Task], threshold: float = 0.5, files: str = "rtl+spec"):
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {threshold}")
        self.threshold = float(threshold)
        self.files = files
        self._eval: list[_EvalFile] = []
        self.eval_ids: list[str] = []
        for t in eval_tasks:
            self.eval_ids.append(t.id)
            for name, text in design_files(t, files):
                toks = tokens(text)
                self._eval.append(_EvalFile(t.id, name, toks, Counter(toks)))
        self.stats = Counter()  # pairs: total, length_bound, bag_bound, exact, hits

    @property
    def eval_count(self) -> int:
        return len(self.eval_ids)

    def match_files(self, files: list[tuple[str, str]]) -> Hit | None:
        """The first (evaluation task order) file pair with ROUGE-L F1 >= threshold, or None."""
        t = self.threshold
        train = [(name, toks, Counter(toks)) for name, text in files if (toks := tokens(text))]
        for ev in self._eval:
            el = len(ev.toks)
            for name, toks, bag in train:
                tl = len(toks)
                self.stats["pairs"] += 1
                if 2.0 * min(el, tl) / (el + tl) < t:
                    self.stats["length_bound"] += 1
                    continue
                small, big = (bag, ev.bag) if len(bag) < len(ev.bag) else (ev.bag, bag)
                common = sum(min(c, big[k]) for k, c in small.items() if k in big)
                if 2.0 * common / (el + tl) < t:
                    self.stats["bag_bound"] += 1
                    continue
                self.stats["exact"] += 1
                f = rouge_l(ev.toks, toks)
                if f >= t:
                    self.stats["hits"] += 1
                    return Hit(ev.task_id, ev.name, name, round(f, 4))
        return None

    def match(self, task: Task) -> Hit | None:
        return self.match_files(design_files(task, self.files))


# -- many designs, in parallel -------------------------------------------------------------------------

_WORKER: OverlapIndex | None = None


def _init_worker(index: OverlapIndex) -> None:
    global _WORKER
    _WORKER = index


def _match_chunk(chunk: list[tuple[str, list[tuple[str, str]]]]) -> list[tuple[str, Hit | None]]:
    assert _WORKER is not None
    return [(key, _WORKER.match_files(files)) for key, files in chunk]


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    buf: list = []
    for it in items:
        buf.append(it)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf


def scan(index: OverlapIndex, designs: Iterable[tuple[str, list[tuple[str, str]]]], jobs: int = 1,
         chunk: int = 64) -> Iterator[tuple[str, Hit | None]]:
    """(key, hit or None) for each (key, files) design, in input order; ``jobs`` worker processes."""
    if jobs <= 1:
        for key, files in designs:
            yield key, index.match_files(files)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(index,)) as pool:
        for out in pool.map(_match_chunk, _chunks(designs, chunk)):
            yield from out
