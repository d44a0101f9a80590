"""cvdp-ecov: CVDP's cid012 (testbench stimulus generation) problems as coverage tasks.

Two upstream layouts are read:

* CVDP JSONL (hub dataset ``nvidia/cvdp-benchmark-dataset``): non-agentic datapoints keep the DUT in
  ``harness.files["src/*.sv"]``, the target in ``harness.files["src/.env"]`` (``TARGET``), the metric in
  ``src/coverage.cmd`` and the reference testbench in ``output.context["verif/*_tb.sv"]``; agentic
  datapoints keep RTL in ``context["rtl/*"]``, the target and instance in ``harness["src/.env"]``
  (``TARGET``, ``INST``) and the reference testbench, when any, in ``patch`` as a new file.
* per-problem folders: ``<problem>/prompt.txt``, ``<problem>/meta.json`` (target, top, instance,
  metric; field-name variants tolerated), ``<problem>/dut/*.sv``, optional ``<problem>/tb/*.sv``.

The ECov protocol: the model sees the RTL and the prompt (which carries the spec); the instance name
comes from the prompt; a task passes when every target is met. Datapoints of other categories are
left out with their reason. The upstream target (Xcelium "Overall Average") is kept in ``source`` and
used as a provisional target until calibration (``ecov-data validate --write-targets``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ecov.harness.benchmark.builders.common import (
    BuildResult,
    Skipped,
    SourceError,
    attach_references,
    first_key,
    infer_top,
    instance_from_prompt,
    instantiations,
    is_hdl,
    read_text,
    upstream_commit,
)
from ecov.harness.benchmark.spec import KIND, SHARED_DATA, BenchmarkSpec
from ecov.harness.core.records import SourceFile, Target
from ecov.harness.registry import register
from ecov.harness.tasks import Task

BENCHMARK = "cvdp-ecov"
CATEGORY = "cid012"
UPSTREAM = "nvidia/cvdp-benchmark-dataset"
LICENSE = "CC BY 4.0 (non-code) / Apache-2.0 (code), Copyright 2025 NVIDIA Corporation"
DIFFICULTIES = ("easy", "medium", "hard")
DEFAULT_INSTANCE = "dut"

# Xcelium `report -metrics NAME` (or a meta.json metric) -> ECov metric.
METRIC_MAP = {
    "overall": "overall", "overall average": "overall", "average": "overall", "all": "overall",
    "toggle": "toggle", "block": "line", "line": "line", "statement": "line", "branch": "branch",
    "expression": "expr", "expr": "expr", "condition": "expr",
}


def parse_env(text: str) -> dict[str, str]:
    """``KEY = value`` lines of a CVDP ``src/.env``."""
    env = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, v = line.split("=", 1)
            env[k.strip()] = v.strip()
    return env


def parse_percent(value: Any, where: str) -> float:
    try:
        p = float(str(value).strip().rstrip("%"))
    except ValueError:
        raise SourceError(f"{where}: target {value!r} is not a number") from None
    if not 0 < p <= 100:
        raise SourceError(f"{where}: target {p} is outside (0, 100]")
    return p


def map_metric(name: str, where: str) -> str:
    m = METRIC_MAP.get(str(name).strip().lower())
    if not m:
        raise SourceError(f"{where}: coverage metric {name!r} has no ECov equivalent ({', '.join(sorted(METRIC_MAP))})")
    return m


def _is_tb(path: str) -> bool:
    p = path.lower()
    name = p.rsplit("/", 1)[-1]
    return p.startswith(("verif/", "tb/", "test/", "tests/")) or "_tb." in name or name.startswith("tb_")


def _files(d: Any) -> dict[str, str]:
    """A CVDP ``context``/``files`` field as path -> content (dicts; lists of {name, content})."""
    if isinstance(d, dict):
        return {str(k): v for k, v in d.items() if isinstance(v, str)}
    if isinstance(d, list):
        out = {}
        for item in d:
            if isinstance(item, dict) and "content" in item:
                out[str(first_key(item, "name", "path", default=""))] = item["content"]
        return out
    return {}


def new_file_from_patch(patch: str) -> str:
    """The content of a file a unified diff creates (``@@ -0,0 +1,N @@``), else ""."""
    if not re.search(r"^@@ -0,0 \+1", patch, re.M):
        return ""
    body = patch.split("@@", 2)[-1].split("\n", 1)[-1]
    lines = [ln[1:] for ln in body.splitlines() if ln.startswith("+")]
    return "\n".join(lines) + "\n"


def _difficulty(categories: list[str], meta: dict[str, Any] | None = None) -> str:
    d = str(first_key(meta or {}, "difficulty", "level", default="")).lower()
    if d:
        return d
    return next((c for c in categories if c in DIFFICULTIES), "")


def _instance(pid: str, prompt: str, module: str, fallbacks: list[tuple[str, str]]) -> tuple[str, str]:
    """(instance, where it came from): the prompt first (ECov protocol), then upstream fallbacks."""
    inst = instance_from_prompt(prompt, module)
    if inst:
        return inst, "prompt"
    for where, value in fallbacks:
        if value:
            return value, where
    # The prompt leaves the name open: ECov fixes one and states it in every prompt it builds.
    return DEFAULT_INSTANCE, "default (the prompt names none)"


def make_task(pid: str, prompt: str, rtl: dict[str, str], tbs: dict[str, str], upstream_target: float,
              metric: str, categories: list[str], source: dict[str, str], *, top_hint: str = "",
              instance_fallbacks: list[tuple[str, str]] | None = None,
              meta: dict[str, Any] | None = None, docs: dict[str, str] | None = None) -> Task:
    if not prompt.strip():
        raise SourceError(f"{pid}: empty prompt")
    if not rtl:
        raise SourceError(f"{pid}: no DUT RTL (.sv/.v) found")
    rtl_files = [SourceFile(Path(n).name, c) for n, c in sorted(rtl.items())]
    try:
        top = infer_top(rtl_files, top_hint)
    except SourceError as e:
        raise SourceError(f"{pid}: {e}") from None
    fallbacks = list(instance_fallbacks or [])
    for name, text in sorted(tbs.items()):
        found = instantiations(text, top)
        if found:
            fallbacks.append((f"reference testbench {name}", found[0]))
    inst, inst_from = _instance(pid, prompt, top, fallbacks)
    src = {
        "upstream": UPSTREAM,
        "upstream_id": pid,
        "license": LICENSE,
        "upstream_target": f"{upstream_target:g}",
        "upstream_metric": metric,
        "instance_from": inst_from,
        "target_rule": "cvdp-ecov",
        "calibration": "pending",
        **source,
    }
    return Task(
        id=pid,
        benchmark=BENCHMARK,
        rtl_files=rtl_files,
        spec_files=[SourceFile(Path(n).name, c) for n, c in sorted((docs or {}).items())],
        dut_module=top,
        dut_instance=inst,
        instructions=prompt.strip() + "\n",
        targets=[Target(inst, metric, upstream_target)],
        difficulty=_difficulty(categories, meta),
        source=src,
        reference_tbs=[SourceFile(Path(n).name, c) for n, c in sorted(tbs.items())],
    )


# ---- JSONL datapoints -------------------------------------------------------------------------------


def from_datapoint(dp: dict[str, Any], commit: str = "") -> Task:
    """One cid012 datapoint (non-agentic or agentic) as a Task. Raises SourceError when malformed."""
    pid = str(dp.get("id") or "").strip()
    if not pid:
        raise SourceError("datapoint without an 'id'")
    categories = [str(c) for c in dp.get("categories") or []]
    harness = dp.get("harness") or {}
    hfiles = _files(harness.get("files", harness))
    if "input" in dp:  # non-agentic
        inp = dp.get("input") or {}
        prompt = str(inp.get("prompt") or "")
        context = _files(inp.get("context"))
        out_ctx = _files((dp.get("output") or {}).get("context"))
        tbs = {n: c for n, c in out_ctx.items() if is_hdl(n)}
    else:  # agentic
        prompt = str(dp.get("prompt") or "")
        context = _files(dp.get("context"))
        tbs = {}
        for n, diff in _files(dp.get("patch")).items():
            if is_hdl(n) and _is_tb(n) and (content := new_file_from_patch(diff)):
                tbs[n] = content
    rtl = {n: c for n, c in {**context, **hfiles}.items() if is_hdl(n) and not _is_tb(n)}
    tbs.update({n: c for n, c in context.items() if is_hdl(n) and _is_tb(n)} if not tbs else {})
    docs = {n: c for n, c in context.items() if n.lower().endswith((".md", ".txt")) and n.startswith("docs/")}
    env_text = hfiles.get("src/.env")
    if env_text is None:
        raise SourceError(f"{pid}: no harness src/.env (where CVDP keeps TARGET)")
    env = parse_env(env_text)
    if "TARGET" not in env:
        raise SourceError(f"{pid}: src/.env has no TARGET")
    target = parse_percent(env["TARGET"], pid)
    metric = "overall"
    cmd = hfiles.get("src/coverage.cmd", "")
    if m := re.search(r"-metrics\s+(\w+)", cmd):
        metric = map_metric(m.group(1), f"{pid} src/coverage.cmd")
    process = hfiles.get("src/process.py", "")
    harness_inst = next((m for m in re.findall(r"metrics\s*\[\s*[\"'](\w+)[\"']\s*\]", process)), "")
    return make_task(
        pid, prompt, rtl, tbs, target, metric, categories, {"commit": commit},
        top_hint=env.get("TOPLEVEL", ""),
        instance_fallbacks=[("src/.env INST", env.get("INST", "")), ("src/process.py", harness_inst)],
        docs=docs,
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    for i, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise SourceError(f"{path}:{i}: bad JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(row, dict):
            raise SourceError(f"{path}:{i}: a datapoint must be a JSON object")
        rows.append(row)
    return rows


# ---- per-problem folders ----------------------------------------------------------------------------


def _meta_targets(meta: dict[str, Any], where: str) -> tuple[float, str, list[Target] | None]:
    """(upstream percent, metric, explicit per-instance targets or None) from a meta.json."""
    metric = map_metric(first_key(meta, "metric", "coverage_metric", "metrics", default="overall"), where)
    raw = first_key(meta, "targets", "target", "target_coverage", "coverage_target", "TARGET", "threshold",
                    "coverage")
    if raw is None:
        raise SourceError(f"{where}: no target (expected 'target': 90 or a 'targets' list)")
    if isinstance(raw, list):
        if not raw:
            raise SourceError(f"{where}: empty 'targets' list")
        targets = []
        for t in raw:
            if not isinstance(t, dict):
                raise SourceError(f"{where}: each target must be an object with 'percent'")
            pct = parse_percent(first_key(t, "percent", "target", "value"), where)
            targets.append(Target(str(first_key(t, "instance", "inst", default="")),
                                  map_metric(first_key(t, "metric", default=metric), where), pct))
        return min(t.percent for t in targets), targets[0].metric, targets
    if isinstance(raw, dict):
        return parse_percent(first_key(raw, "percent", "target", "value"), where), metric, None
    return parse_percent(raw, where), metric, None


def from_folder(folder: Path, commit: str = "") -> Task:
    """One problem folder (prompt.txt, meta.json, dut/*.sv, optional tb/*.sv) as a Task."""
    where = str(folder)
    meta_path = folder / "meta.json"
    if not meta_path.is_file():
        raise SourceError(f"{where}: no meta.json")
    try:
        meta = json.loads(read_text(meta_path))
    except json.JSONDecodeError as e:
        raise SourceError(f"{meta_path}: bad JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    if not isinstance(meta, dict):
        raise SourceError(f"{meta_path}: must be a JSON object")
    pid = str(first_key(meta, "id", "problem_id", "name", "task_id", default=folder.name))
    prompt_path = next((p for p in (folder / "prompt.txt", folder / "prompt.md") if p.is_file()), None)
    if prompt_path is None:
        raise SourceError(f"{where}: no prompt.txt")
    dut_dir = next((d for d in (folder / "dut", folder / "rtl", folder / "src") if d.is_dir()), None)
    rtl = {p.name: read_text(p) for p in sorted(dut_dir.iterdir()) if is_hdl(p.name)} if dut_dir else {}
    if not rtl:
        raise NotApplicable("no DUT RTL in this copy of the problem (dut/*.sv missing upstream): "
                            "nothing to cover")
    tb_dir = next((d for d in (folder / "tb", folder / "verif") if d.is_dir()), None)
    tbs = {p.name: read_text(p) for p in sorted(tb_dir.iterdir()) if is_hdl(p.name)} if tb_dir else {}
    docs_dir = folder / "docs"
    docs = {p.name: read_text(p) for p in sorted(docs_dir.iterdir()) if p.is_file()} if docs_dir.is_dir() else {}
    percent, metric, explicit = _meta_targets(meta, str(meta_path))
    categories = [str(c) for c in first_key(meta, "categories", default=[]) or []]
    cat = first_key(meta, "category", "cid", default="")
    if cat:
        categories.append(str(cat))
    if any(c.startswith("cid") for c in categories) and CATEGORY not in categories:
        raise NotApplicable(f"category {','.join(categories)} is not {CATEGORY}")
    task = make_task(
        pid, read_text(prompt_path), rtl, tbs, percent, metric, categories,
        {"commit": str(first_key(meta, "commit", default=commit)), "layout": "problem-folder"},
        # harc-com meta.json names its own `*_top` wrapper in top_module (not shipped): the DUT is dut_module.
        top_hint=str(first_key(meta, "dut_module", "top", "module", "toplevel", "dut", "top_module", default="")),
        instance_fallbacks=[("meta.json", str(first_key(meta, "instance", "inst", "dut_instance", default="")))],
        meta=meta, docs=docs,
    )
    if explicit:
        task.targets = [Target(t.instance or task.dut_instance, t.metric, t.percent) for t in explicit]
    return task


class NotApplicable(Exception):
    """Well-formed upstream item that is not a cid012 problem."""


# ---- the builder ------------------------------------------------------------------------------------


def discover(source: Path) -> tuple[list[Path], list[Path]]:
    """(JSONL files, problem folders) under ``source``."""
    if not source.exists():
        raise SourceError(f"CVDP source {source} does not exist")
    if source.is_file():
        if source.suffix != ".jsonl":
            raise SourceError(f"{source}: expected a .jsonl file or a folder")
        return [source], []
    jsonl = sorted(source.rglob("*.jsonl"))
    markers = {p.parent for p in source.rglob("meta.json")} | {p.parent for p in source.rglob("prompt.txt")}
    return jsonl, sorted(markers)


# Problems Verilator 5.048 cannot simulate as specified, left out with the reason (found while writing
# the references, benchmarks/cvdp-ecov/references/README.md).
UNSIMULATABLE = {
    "cvdp_copilot_restoring_division_0006": (
        "Verilator 5.048 stops with DIDNOTCONVERGE (a combinational loop that never settles) as soon as a "
        "division completes, so a testbench that exercises the design as specified crashes"),
    "cvdp_copilot_restoring_division_0034": (
        "Verilator 5.048 stops with DIDNOTCONVERGE (a combinational loop that never settles) as soon as a "
        "division completes, so a testbench that exercises the design as specified crashes"),
}

# ECov's own reference testbenches (original work, never shown to a model), one per task id.
REFERENCES = Path(__file__).resolve().parents[3] / "benchmarks" / BENCHMARK / "references"


def build(source: Path, only: list[str] | None = None, skip_bad: bool = False, commit: str = "",
          references: Path | None = REFERENCES) -> BuildResult:
    """Build cid012 tasks from every JSONL datapoint and problem folder under ``source``."""
    source = Path(source)
    jsonl, folders = discover(source)
    if not jsonl and not folders:
        raise SourceError(f"no CVDP data in {source}: expected *.jsonl files or <problem>/meta.json folders")
    res = BuildResult(BENCHMARK, source=str(source), info={"upstream": UPSTREAM, "jsonl_files": [],
                                                             "problem_folders": len(folders)})
    seen: set[str] = set()

    def add(make, item_id: str) -> None:
        try:
            task = make()
        except NotApplicable as e:
            res.skipped.append(Skipped(item_id, str(e)))
            return
        except SourceError as e:
            if not skip_bad:
                raise
            res.skipped.append(Skipped(item_id, f"malformed: {e}"))
            return
        if task.id in seen:
            res.skipped.append(Skipped(item_id, f"duplicate id {task.id}"))
            return
        if task.id in UNSIMULATABLE:
            res.skipped.append(Skipped(task.id, UNSIMULATABLE[task.id]))
            return
        if only and task.id not in only:
            return
        seen.add(task.id)
        res.tasks.append(attach_references(task, references))

    for path in jsonl:
        file_commit = commit or upstream_commit(path)
        rows = read_jsonl(path)
        res.info["jsonl_files"].append({"file": path.name, "datapoints": len(rows), "commit": file_commit})
        for i, dp in enumerate(rows, 1):
            pid = str(dp.get("id") or f"{path.name}:{i}")
            cats = [str(c) for c in dp.get("categories") or []]
            if CATEGORY not in cats:
                res.skipped.append(Skipped(pid, f"category {','.join(cats) or 'none'} is not {CATEGORY} "
                                                f"(only testbench stimulus generation is a coverage task)"))
                continue
            add(lambda dp=dp, c=file_commit: from_datapoint(dp, c), pid)
    for folder in folders:
        add(lambda f=folder: from_folder(f, commit or upstream_commit(f)), folder.name)
    if only:
        unknown = sorted(set(only) - seen)
        if unknown:
            raise SourceError(f"unknown CVDP problem id(s): {', '.join(unknown)}")
    res.info["commit"] = commit or next((f["commit"] for f in res.info["jsonl_files"] if f["commit"]), "")
    return res


SPEC = register(KIND, BENCHMARK, BenchmarkSpec(
    name=BENCHMARK, license=LICENSE, target_rule="min(upstream TARGET, floor(ceiling))", build=build,
    default_source=SHARED_DATA, order=0, shipped=True, card="NVIDIA CVDP code-coverage tasks, targets recalibrated"))
