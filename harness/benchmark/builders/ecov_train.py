"""ecov-train: training designs (CodeV-R1-style repositories) as task records of split ``train``.

The paper trains on CodeV-R1's 87k repositories (Section 4.2, Dataset). The released loader
(``src/llm4cov/datasets/load.py`` ``load_codev_r1_dataset``) reads the hub dataset
``zhuyaoyu/CodeV-R1-dataset`` (config ``sft``): the spec is ``question[1].content`` (as
``design_requirements.txt``), the RTL is ``ground_truth[0].content`` (as ``dut.sv``), the id is
``problem_id``. The same records are read here from the hub or from a local JSONL/parquet file or folder.

Then, as released:

* single top module (``filter_single_top_data``): a design whose files declare several modules that
  nobody instantiates is left out, and so is one without a module;
* length split (``filter_data_by_length``, 1000 tokens, ``GEN_THRESHOLD`` in
  ``scripts/batch_query_direct_infer.py``): the RTL token count (sum over RTL files, their
  ``_compute_rtl_tokens``; tokenizer Qwen/Qwen3-Coder-30B-A3B-Instruct as released) labels each task
  ``short`` (<= 1000) or ``long`` (> 1000) in ``difficulty``; stage 1 keeps the long ones;
* contamination (``scripts/data_contamination_detect.py``): a design with any file at ROUGE-L F1 >= 0.5
  against any spec or RTL file of an evaluation benchmark is left out (``ecov.harness.benchmark.overlap``:
  the same figure, with exact upper bounds to skip pairs and worker processes).

Training designs have no calibrated target: each task gets a provisional ``overall`` 100% target on the
instance ``dut`` that the instructions ask for (training never reads pass/fail, only coverage).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecov.harness.benchmark.builders.common import BuildResult, Skipped, SourceError, instantiated_modules
from ecov.harness.benchmark.overlap import OverlapIndex, design_files, scan
from ecov.harness.benchmark.spec import KIND, BenchmarkSpec
from ecov.harness.core.records import SourceFile, Target
from ecov.harness.hdl.text import module_names
from ecov.harness.registry import register
from ecov.harness.tasks import Task

BENCHMARK = "ecov-train"
SPLIT = "train"
DUT_INSTANCE = "dut"
HUB_ID = "zhuyaoyu/CodeV-R1-dataset"
HUB_CONFIG = "sft"
HUB_REVISION = "ffc4698071098044c72bde14fdad309eb3a1c5da"  # load_codev_r1_dataset's pin
RTL_SPLIT_TOKENS = 1000  # GEN_THRESHOLD / filter_data_by_length(max_rtl_length=1000)
RELEASED_TOKENIZER = "Qwen/Qwen3-Coder-30B-A3B-Instruct"  # construct_tokenizer() in load.py
EVAL_BENCHMARKS = ("cvdp-ecov", "autoeval-ecov", "ecov-embedded")
LICENSE = "see the upstream dataset card (CodeV-R1)"

INSTRUCTIONS = (
    "Write a SystemVerilog testbench for `{top}` (the design in dut.sv, specified in "
    "design_requirements.txt). Instantiate it as `dut`, drive its inputs so that simulation exercises as "
    "much of the design as possible (lines, branches, expressions and signal toggles), and end the "
    "simulation with `$finish`."
)


@dataclass
class TrainOptions:
    tokenizer: str = RELEASED_TOKENIZER  # a hub id or folder; "whitespace" counts str.split() tokens
    split_tokens: int = RTL_SPLIT_TOKENS
    keep: str = "all"  # all | long | short
    against: tuple[str, ...] = EVAL_BENCHMARKS  # evaluation benchmarks (names, folders, hub ids)
    eval_split: str = "test"
    threshold: float = 0.5
    files: str = "rtl+spec"
    jobs: int = 1


# -- reading records -------------------------------------------------------------------------------

def _text(value: Any, index: int) -> str:
    """``question[1].content`` / ``ground_truth[0].content``, or the value itself when it is a string."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value:
        item = value[index] if len(value) > index else value[-1]
        if isinstance(item, dict):
            return str(item.get("content") or "")
        return str(item)
    return ""


def _read_file(path: Path) -> Iterator[dict[str, Any]]:
    if path.suffix == ".jsonl":
        with open(path) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)
    elif path.suffix == ".parquet":
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(path)
        for batch in pf.iter_batches(batch_size=1024):
            yield from batch.to_pylist()
    else:
        raise SourceError(f"{path}: expected .jsonl or .parquet")


def read_records(source: str | Path) -> Iterator[dict[str, Any]]:
    """CodeV-R1-style records from a local file, a folder of files, or a hub id (streamed)."""
    p = Path(str(source))
    if p.is_file():
        yield from _read_file(p)
        return
    if p.is_dir():
        files = sorted(q for q in p.rglob("*") if q.suffix in (".jsonl", ".parquet"))
        if not files:
            raise SourceError(f"no .jsonl or .parquet files in {p}")
        for f in files:
            yield from _read_file(f)
        return
    if "/" not in str(source) or str(source).startswith((".", "/")):
        raise SourceError(f"{source}: not a file, a folder or a hub id (owner/name)")
    try:
        import datasets
    except ImportError as e:
        raise SourceError(f"reading {source} from the hub needs `datasets`: pip install 'ecov[train]'") from e
    kw = {"name": HUB_CONFIG, "revision": HUB_REVISION} if str(source) == HUB_ID else {}
    try:
        yield from datasets.load_dataset(str(source), split="train", streaming=True, **kw)
    except Exception as e:  # noqa: BLE001 - hub/network/schema errors all mean "cannot read the source"
        raise SourceError(f"cannot read {source} from the hub: {type(e).__name__}: {e}") from None


# -- one record -> one task ------------------------------------------------------------------------

def top_modules(rtl: str) -> list[str]:
    """Declared modules nobody instantiates (their ``extract_potential_top``), in declaration order."""
    declared = module_names(rtl)
    used = instantiated_modules(rtl, set(declared))
    return [m for m in dict.fromkeys(declared) if m not in used]


def record_task(rec: dict[str, Any]) -> Task:
    """The task of one record; SourceError when it has no usable RTL or not exactly one top module."""
    rid = str(rec.get("problem_id", rec.get("id", "")) or "").strip()
    if not rid:
        raise SourceError("record without problem_id")
    spec = _text(rec.get("question"), 1)
    rtl = _text(rec.get("ground_truth"), 0)
    if not rtl.strip():
        raise SourceError("no RTL (ground_truth[0].content)")
    tops = top_modules(rtl)
    if len(tops) != 1:
        raise SourceError(f"{len(tops)} top modules ({', '.join(tops) or 'none declared'}); single-top only")
    top = tops[0]
    return Task(
        id=f"codev_{rid}",
        benchmark=BENCHMARK,
        rtl_files=[SourceFile("dut.sv", rtl)],
        spec_files=[SourceFile("design_requirements.txt", spec)] if spec.strip() else [],
        dut_module=top,
        dut_instance=DUT_INSTANCE,
        instructions=INSTRUCTIONS.format(top=top) + "\n",
        targets=[Target(DUT_INSTANCE, "overall", 100.0)],
        source={"upstream": "CodeV-R1", "upstream_id": rid, "license": LICENSE},
    )


class _Counter:
    """RTL token counts with a transformers tokenizer, or whitespace tokens."""

    def __init__(self, name: str):
        self.name = name
        self._tok = None
        if name != "whitespace":
            try:
                from transformers import AutoTokenizer
            except ImportError as e:
                raise SourceError("counting RTL tokens needs transformers (or --tokenizer whitespace)") from e
            try:
                self._tok = AutoTokenizer.from_pretrained(name)
            except Exception as e:  # noqa: BLE001 - OSError, hub errors: cannot load it
                raise SourceError(f"cannot load tokenizer {name!r}: {type(e).__name__}: {e}") from None

    def __call__(self, task: Task) -> int:
        if self._tok is None:
            return sum(len(f.content.split()) for f in task.rtl_files)
        return sum(len(self._tok.encode(f.content)) for f in task.rtl_files)


def _load_eval(names: Iterable[str], split: str) -> list[Task]:
    from ecov.harness.benchmark.store import load_benchmark

    out: list[Task] = []
    for n in names:
        out.extend(load_benchmark(n, split if n != "ecov-embedded" else "test"))
    return out


def build(source: Path | str, only: list[str] | None = None, skip_bad: bool = True,
          options: TrainOptions | None = None) -> BuildResult:
    """Records -> single-top tasks -> length label -> contamination filter. Malformed records, designs
    with several tops and contaminated designs are listed in ``skipped`` with the reason (never silently)."""
    o = options or TrainOptions()
    if o.keep not in ("all", "long", "short"):
        raise SourceError(f"keep must be all, long or short, not {o.keep!r}")
    count = _Counter(o.tokenizer)
    res = BuildResult(BENCHMARK, source=str(source))
    wanted = set(only or [])
    candidates: list[Task] = []
    seen: set[str] = set()
    n_records = 0
    for rec in read_records(source):
        n_records += 1
        rid = str(rec.get("problem_id", rec.get("id", "")))
        if wanted and rid not in wanted and f"codev_{rid}" not in wanted:
            continue
        try:
            task = record_task(rec)
        except SourceError as e:
            if not skip_bad and "top module" not in str(e):
                raise SourceError(f"record {rid!r}: {e}") from None
            res.skipped.append(Skipped(f"codev_{rid}" if rid else f"record#{n_records}", str(e)))
            continue
        if task.id in seen:
            res.skipped.append(Skipped(task.id, "duplicate problem_id"))
            continue
        seen.add(task.id)
        n = count(task)
        task.difficulty = "long" if n > o.split_tokens else "short"
        task.source["rtl_tokens"] = str(n)
        if o.keep != "all" and task.difficulty != o.keep:
            res.skipped.append(Skipped(task.id, f"{n} RTL tokens: {task.difficulty} (keep {o.keep})"))
            continue
        candidates.append(task)
    index = OverlapIndex(_load_eval(o.against, o.eval_split), o.threshold, o.files)
    hits = dict(scan(index, ((t.id, design_files(t, o.files)) for t in candidates), jobs=o.jobs))
    for t in candidates:
        hit = hits[t.id]
        if hit is None:
            res.tasks.append(t)
        else:
            res.skipped.append(Skipped(t.id, f"contaminated: {hit.describe()}"))
    res.info = {
        "split": SPLIT, "records": n_records, "tokenizer": o.tokenizer, "split_tokens": o.split_tokens,
        "keep": o.keep, "long": sum(t.difficulty == "long" for t in res.tasks),
        "short": sum(t.difficulty == "short" for t in res.tasks),
        "contamination": {"against": list(o.against), "eval_tasks": index.eval_count, "threshold": o.threshold,
                          "files": o.files, "dropped": sum(h is not None for h in hits.values())},
    }
    return res


SPEC = register(KIND, BENCHMARK, BenchmarkSpec(
    name=BENCHMARK, license=LICENSE, build=build, split=SPLIT,  # --source: a hub id or local JSONL/parquet
    card="CodeV-R1 designs as training tasks (contamination-filtered)"))
