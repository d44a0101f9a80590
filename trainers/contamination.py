"""Contamination filter: no training row may come from a design that overlaps an evaluation task.

The released ``scripts/data_contamination_detect.py`` compares every training design with every
evaluation design file by file (spec files and RTL files), on whitespace tokens, with ROUGE-L F1
(``2 * LCS / (len_a + len_b)``), and calls the pair contaminated when any file pair reaches the
threshold (``>= 0.5`` by default). The ids it found were pasted into ``CONTAMINATION_IDS`` in
``scripts/synthetic_data_filter.py``, whose rows are then dropped by id.

Here the same comparison runs on the fly with the maintained ``rouge-score`` package (its LCS F-measure
equals their formula; given a whitespace tokenizer so the tokens are theirs), with their length bound
(``2 * min / (a + b) < threshold`` cannot reach it) to skip hopeless pairs. Rows are also dropped when
their task id is an evaluation task id or is listed in ``ids``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecov.harness.tasks import Task


class _Whitespace:
    """rouge-score tokenizer interface: ``str.split()``, as the released script tokenizes."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


@dataclass(frozen=True)
class Overlap:
    eval_id: str
    score: float
    train_file: str
    eval_file: str
    by: str  # id | rougeL

    def describe(self) -> str:
        if self.by == "id":
            return f"task id {self.eval_id} is listed as contaminated or is an evaluation task"
        return (f"ROUGE-L {self.score:.3f} between {self.train_file} and {self.eval_id}:{self.eval_file}")


def _files(task: Task, which: str) -> list[tuple[str, str]]:
    files = list(task.rtl_files) + (list(task.spec_files) if which == "rtl+spec" else [])
    return [(f.name, f.content) for f in files if f.content.strip()]


class ContaminationIndex:
    def __init__(self, eval_tasks: list[Task], threshold: float = 0.5, files: str = "rtl+spec",
                 ids: list[str] | None = None):
        from rouge_score import rouge_scorer

        self.threshold = float(threshold)
        self.files = files
        self.ids = set(ids or []) | {t.id for t in eval_tasks}
        self._scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_Whitespace())
        self._eval = [(t.id, [(n, c, len(c.split())) for n, c in _files(t, files)]) for t in eval_tasks]
        self._memo: dict[str, Overlap | None] = {}
        self.eval_count = len(eval_tasks)

    def match(self, task: Task) -> Overlap | None:
        """The first overlap of ``task`` with the evaluation set (eval tasks in order), or None."""
        if task.id in self._memo:
            return self._memo[task.id]
        hit = None
        if task.id in self.ids:
            hit = Overlap(task.id, 1.0, "", "", "id")
        else:
            train = [(n, c, len(c.split())) for n, c in _files(task, self.files)]
            hit = self._rouge(train)
        self._memo[task.id] = hit
        return hit

    def _rouge(self, train: list[tuple[str, str, int]]) -> Overlap | None:
        for eval_id, eval_files in self._eval:
            for en, ec, el in eval_files:
                for tn, tc, tl in train:
                    if not el or not tl or 2.0 * min(el, tl) / (el + tl) < self.threshold:
                        continue
                    f = self._scorer.score(ec, tc)["rougeL"].fmeasure
                    if f >= self.threshold:
                        return Overlap(eval_id, round(f, 4), tn, en, "rougeL")
        return None
