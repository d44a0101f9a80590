"""Task records as a ``datasets`` table: Features, save/load of built folders, hub loading, hashing.

A built benchmark folder looks like::

    DIR/
      data/test.parquet   (or data/test.jsonl) one row per task, schema FEATURES
      manifest.json       benchmark, source, counts, tasks left out and why, calibration, dataset hash
      README.md           dataset card (written by ``ecov-data publish``)

``load_benchmark`` gives the same ``Task`` records whether they come from the embedded suite, such a
folder, or the hub: every path goes through ``row_to_task``.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ecov.harness.benchmark.bughunt_refs import attach_bughunt
from ecov.harness.benchmark.mutantfiles import attach_mutants
from ecov.harness.benchmark.spec import benchmark_names, get_benchmark
from ecov.harness.benchmark.validate import TaskError, validate_tasks
from ecov.harness.contracts.spec import find_contract
from ecov.harness.tasks import Task

EMBEDDED = "ecov-embedded"  # the default benchmark: ecov-eval and summaries use it when none is named
SPLITS = ("test",)
MANIFEST = "manifest.json"

# Keys of Task.source that get their own column; anything else travels in ``source.extra`` (JSON).
SOURCE_KEYS = (
    "upstream", "upstream_id", "commit", "license", "upstream_target", "upstream_metric",
    "instance_from", "target_rule", "calibration", "ceiling",
)


def features():
    """The ``datasets.Features`` of one task row (built lazily: importing datasets is slow)."""
    from datasets import Features, Value

    # ``[{...}]`` is a list of structs in every datasets version (``Sequence({...})`` is not).
    files = [{"name": Value("string"), "content": Value("string")}]
    return Features({
        "id": Value("string"),
        "benchmark": Value("string"),
        "rtl_files": files,
        "spec_files": files,
        "dut_module": Value("string"),
        "dut_instance": Value("string"),
        "instructions": Value("string"),
        "targets": [{"instance": Value("string"), "metric": Value("string"), "percent": Value("float64")}],
        "difficulty": Value("string"),
        "source": {**{k: Value("string") for k in SOURCE_KEYS}, "extra": Value("string")},
        "reference_tbs": files,
    })


def task_to_row(task: Task) -> dict[str, Any]:
    d = task.to_dict()
    extra = {k: v for k, v in task.source.items() if k not in SOURCE_KEYS}
    d["source"] = {**{k: task.source.get(k, "") for k in SOURCE_KEYS},
                   "extra": json.dumps(extra, sort_keys=True) if extra else ""}
    return d


def _unlist(v: Any) -> list[dict[str, Any]]:
    """Rows store lists of structs; ``datasets`` may hand them back as a dict of lists."""
    if isinstance(v, dict):
        keys = list(v)
        return [dict(zip(keys, vals, strict=True)) for vals in zip(*(v[k] for k in keys), strict=True)]
    return list(v or [])


def row_to_task(row: dict[str, Any]) -> Task:
    from ecov.harness.benchmark.builders import authors

    if authors.is_authors_row(row):
        return authors.from_row(row)
    d = dict(row)
    for k in ("rtl_files", "spec_files", "targets", "reference_tbs"):
        d[k] = _unlist(d.get(k))
    src = dict(d.get("source") or {})
    extra = src.pop("extra", "") or ""
    source = {k: v for k, v in src.items() if v not in (None, "")}
    if extra:
        source.update(json.loads(extra))
    d["source"] = source
    return Task.from_dict(d)


def dataset_hash(tasks: Iterable[Task]) -> str:
    """sha256 of the canonical JSON of the records (sorted by id): the id a run config records."""
    recs = sorted((t.to_dict() for t in tasks), key=lambda d: d["id"])
    blob = json.dumps(recs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()


# ---- local folders ----------------------------------------------------------------------------------


def data_path(out_dir: Path, split: str = "test", fmt: str = "parquet") -> Path:
    return Path(out_dir) / "data" / f"{split}.{fmt}"


def save_tasks(tasks: list[Task], out_dir: str | os.PathLike, split: str = "test", fmt: str = "parquet") -> Path:
    """Write one split of a built folder; returns the data file. Parquet goes through ``datasets``."""
    if fmt not in ("parquet", "jsonl"):
        raise ValueError(f"format must be parquet or jsonl, not {fmt!r}")
    ids = [t.id for t in tasks]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"duplicate task ids: {', '.join(dupes)}")
    path = data_path(Path(out_dir), split, fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    for other in path.parent.glob(f"{split}.*"):  # one format per split, so loading is unambiguous
        other.unlink()
    rows = [task_to_row(t) for t in tasks]
    tmp = path.with_name(f".{path.name}.tmp")
    if fmt == "jsonl":
        with open(tmp, "w") as f:
            for r in rows:
                f.write(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        from datasets import Dataset
        from datasets.utils.logging import disable_progress_bar

        disable_progress_bar()
        Dataset.from_list(rows, features=features()).to_parquet(str(tmp))
    os.replace(tmp, path)
    return path


def write_manifest(out_dir: str | os.PathLike, manifest: dict[str, Any]) -> None:
    from ecov.harness.core.run_folder import write_json_atomic

    write_json_atomic(Path(out_dir) / MANIFEST, manifest)


def read_manifest(out_dir: str | os.PathLike) -> dict[str, Any]:
    p = Path(out_dir) / MANIFEST
    return json.loads(p.read_text()) if p.is_file() else {}


def _read_rows(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        rows = []
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{i}: bad JSON ({e.msg})") from None
        return rows
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    raise ValueError(f"{path}: expected a .parquet or .jsonl file")


def find_data_files(root: Path, split: str) -> list[Path]:
    """The files of one split: ``data/test.parquet``, or shards ``data/test-00000-of-00002.parquet``..."""
    if root.is_file():
        return [root]
    for d in (root / "data", root):
        for fmt in ("parquet", "jsonl"):
            if (d / f"{split}.{fmt}").is_file():
                return [d / f"{split}.{fmt}"]
            shards = sorted(p for p in d.glob(f"{split}-*.{fmt}") if p.is_file())
            if shards:
                return shards
    found = sorted(p.name for p in (root / "data").glob("*.*")) if (root / "data").is_dir() else []
    raise FileNotFoundError(
        f"no '{split}' split in {root}: expected data/{split}.parquet or data/{split}.jsonl"
        + (f" (found {', '.join(found)})" if found else "")
    )


def find_data_file(root: Path, split: str) -> Path:
    return find_data_files(root, split)[0]


def load_folder(path: str | os.PathLike, split: str = "test") -> list[Task]:
    tasks = []
    for p in find_data_files(Path(path), split):
        try:
            tasks += [row_to_task(r) for r in _read_rows(p)]
        except (KeyError, TypeError) as e:
            raise ValueError(f"{p}: not an ECov task table (missing or bad field {e})") from None
    return tasks


# ---- the hub ----------------------------------------------------------------------------------------

_HUB_ID_RE = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


class BenchmarkNotFound(ValueError):
    """The name is no known benchmark, folder or reachable hub dataset."""


def load_hub(repo_id: str, split: str = "test", revision: str | None = None) -> list[Task]:
    """Through ``datasets.load_dataset`` (cached under HF_HOME). Offline: a clear error."""
    import datasets

    try:
        ds = datasets.load_dataset(repo_id, split=split, revision=revision)
    except Exception as e:  # datasets raises many types for the same "cannot get it" situation
        offline = os.environ.get("HF_HUB_OFFLINE") == "1" or os.environ.get("HF_DATASETS_OFFLINE") == "1"
        why = "offline mode is on (HF_HUB_OFFLINE/HF_DATASETS_OFFLINE)" if offline else \
            "the hub could not be reached, or the dataset does not exist"
        raise BenchmarkNotFound(
            f"cannot load hub dataset {repo_id!r} (split {split!r}): {why}; {type(e).__name__}: "
            f"{str(e).splitlines()[0][:300] if str(e) else ''}. (There is no local folder {repo_id!r} "
            f"either.) Build it locally instead "
            f"(ecov-data build NAME --source PATH --out DIR) and pass that folder's path."
        ) from e
    return attach_hub_files([row_to_task(r) for r in ds], repo_id, revision)


# The files a published benchmark carries beside its rows that the harness reads (publish.UPLOADED).
HUB_SIDE_FILES = ["mutants/*.json", "bughunt_targets.json", "bughunt_references/*.sv"]


def attach_hub_files(tasks: list[Task], repo_id: str, revision: str | None = None,
                     endpoint: str | None = None) -> list[Task]:
    """The bug hunt's files of a hub dataset (issue 31), fetched beside its rows (cached under HF_HOME) and
    attached as for a built folder; a dataset that has none keeps its tasks as they are."""
    from huggingface_hub import snapshot_download

    try:
        folder = snapshot_download(repo_id, repo_type="dataset", revision=revision, allow_patterns=HUB_SIDE_FILES,
                                   endpoint=endpoint)
    except Exception as e:  # the rows loaded, so the hub answered: a failure here is not a missing dataset
        if os.environ.get("HF_HUB_OFFLINE") == "1":
            return tasks  # rows cached before their files were: no mutants (a bug-hunt run then says so)
        raise BenchmarkNotFound(f"hub dataset {repo_id!r}: its rows loaded but its bug-hunt files could not be "
                                f"fetched: {type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}") from e
    return attach_bughunt(attach_mutants(tasks, Path(folder)), Path(folder))


def shipped_dir(name: str) -> Path | None:
    """The built, calibrated folder of a shipped benchmark: ``$ECOV_BENCHMARKS_DIR/NAME``, the source
    checkout's ``benchmarks/NAME`` (editable installs, the Docker image), or the installed copy under
    ``<prefix>/share/ecov/benchmarks/NAME``."""
    import sys

    roots = [Path(os.environ["ECOV_BENCHMARKS_DIR"])] if os.environ.get("ECOV_BENCHMARKS_DIR") else []
    roots += [Path(__file__).resolve().parents[2] / "benchmarks", Path(sys.prefix) / "share" / "ecov" / "benchmarks"]
    for root in roots:
        folder = root / name
        if (folder / MANIFEST).is_file() and (folder / "data").is_dir():
            return folder
    return None


def attach_contracts(tasks: list[Task], folder: Path) -> list[Task]:
    """Give each task the contract shipped beside the built benchmark (``folder/contracts/<id>.{sv,json}``)."""
    if (folder / "contracts").is_dir():
        for task in tasks:
            task.contract = find_contract(task.id, folder, embedded=False)
    return tasks


def load_built(path: str | os.PathLike, split: str = "test") -> list[Task]:
    """A built benchmark (its folder, or its data file) with what ships beside its rows: the interface
    contracts, the bug hunt's mutants, self-checking references and kill-rate targets. Every loader of a
    built copy goes through here (``ecov-eval``, and ``ecov-leaderboard verify`` through identity.load_known),
    so a bug-hunt run is re-scored against the mutants it was scored against."""
    p = Path(path)
    where = p if p.is_dir() else p.parent
    return attach_bughunt(attach_mutants(attach_contracts(load_folder(p, split), where), where), where)


def load_benchmark(name: str | os.PathLike | None = None, split: str = "test") -> list[Task]:
    """Tasks of the embedded suite (None or "ecov-embedded"), a shipped benchmark by name
    (cvdp-ecov, autoeval-ecov), a built folder/file, or a hub id (the authors' schema included)."""
    spec = get_benchmark(EMBEDDED if name is None else str(name))
    if spec is not None and spec.load is not None:  # packaged with the harness
        return spec.load()
    s = str(name)
    if spec is not None and spec.shipped and not Path(s).exists():
        folder = shipped_dir(s)
        if folder is None:
            raise BenchmarkNotFound(
                f"{s} ships built under benchmarks/{s}/ in the source tree, but no copy was found here "
                f"(set ECOV_BENCHMARKS_DIR, or rebuild: `ecov-data build {s} --out DIR` then "
                f"`ecov-data validate DIR --write-targets`, and pass DIR)"
            )
        return load_built(folder, split)
    p = Path(name).expanduser()
    if p.exists():
        return load_built(p, split)
    if _HUB_ID_RE.match(s) and not s.startswith((".", "/")):
        from ecov.harness.benchmark.builders import authors

        if s == authors.HUB_ID and split == "test":
            split = authors.HUB_SPLIT
        return load_hub(s, split)
    raise BenchmarkNotFound(unknown_benchmark(s))


def unknown_benchmark(name: str) -> str:
    """Why ``name`` is no benchmark: the nearest registered names, every registered one, where to look."""
    known = benchmark_names()
    near = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
    return (f"unknown benchmark {name!r}: not a registered benchmark, an existing folder or file, or a hub id "
            f"(owner/name).{hint} Registered: {', '.join(known)}; `ecov-data list` shows each with its tasks "
            f"and where it comes from.")


class TaskSelectionError(ValueError):
    """The benchmark or the task selection is unusable; ``param`` names the option at fault."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.param = param


def select_tasks(benchmark: str, split: str = "test", task_ids: tuple[str, ...] = (),
                 limit: int | None = None) -> list[Task]:
    """The tasks a run evaluates: ``benchmark`` (a name, folder, file or hub id), only ``task_ids`` when
    given, the first ``limit``; never empty."""
    try:
        tasks = load_benchmark(None if benchmark == EMBEDDED else benchmark, split)
    except (BenchmarkNotFound, FileNotFoundError, ValueError) as e:
        raise TaskSelectionError(str(e), "--benchmark") from None
    try:
        validate_tasks(tasks, str(benchmark))  # a bad record is an error naming task and field, never 0%
    except TaskError as e:
        raise TaskSelectionError(str(e), "--benchmark") from None
    if task_ids:
        known = {t.id for t in tasks}
        missing = [t for t in task_ids if t not in known]
        if missing:
            raise TaskSelectionError(
                f"unknown task id(s) {', '.join(missing)}; {benchmark} has: {', '.join(sorted(known)[:20])}"
                + (" ..." if len(known) > 20 else ""), "--task-id")
        tasks = [t for t in tasks if t.id in set(task_ids)]
    if limit is not None:
        tasks = tasks[:limit]
    if not tasks:
        raise TaskSelectionError(f"{benchmark} ({split}) has no tasks to run", "--benchmark")
    return tasks
