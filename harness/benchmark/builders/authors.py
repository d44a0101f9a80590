"""The LLM4Cov authors' evaluation-set schema (hub ``hez2024/cvdp_ecov_eval``, split ``eval``) as ECov tasks.

A row has ``id, spec_files, rtl_files, dut_module_name, dut_instance_name, instruction, targets
[{inst_name, metric, target_percentage}], difficulty, is_agentic``. Their targets are Xcelium metrics;
each maps to the ECov metric that counts the same kind of point (see docs/benchmarks.md). A metric with
no ECov equivalent (``fsm``: Verilator has no FSM coverage) is an error, never silently dropped, since a
task without one of its targets would be easier than the authors' task.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any

from ecov.harness.benchmark.builders.common import SourceError
from ecov.harness.benchmark.spec import KIND, BenchmarkSpec
from ecov.harness.core.records import SourceFile, Target
from ecov.harness.registry import register
from ecov.harness.tasks import Task

HUB_ID = "hez2024/cvdp_ecov_eval"
HUB_SPLIT = "eval"
BENCHMARK = "cvdp-ecov-authors"
SCHEMA_KEYS = ("dut_module_name", "dut_instance_name", "rtl_files", "targets")

# Xcelium `report -metrics` names -> ECov metrics. Xcelium "block" coverage counts statement blocks,
# which is what Verilator's line points are.
XCELIUM_METRICS = {
    "overall": "overall", "overall average": "overall", "average": "overall",
    "block": "line", "line": "line", "statement": "line",
    "branch": "branch",
    "expression": "expr", "expr": "expr",
    "toggle": "toggle",
}


def is_authors_row(row: dict[str, Any]) -> bool:
    return all(k in row for k in SCHEMA_KEYS)


def map_metric(name: Any, where: str) -> str:
    m = XCELIUM_METRICS.get(str(name).strip().lower())
    if m is None:
        raise SourceError(f"{where}: metric {name!r} has no ECov equivalent (mappable: "
                          f"{', '.join(sorted(XCELIUM_METRICS))}); Verilator does not measure it")
    return m


def _files(value: Any, where: str) -> list[SourceFile]:
    """Files as {name: content}, [{name|path|filename, content|text}], or a JSON string of either."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise SourceError(f"{where}: expected a list of files, got a plain string") from None
    if isinstance(value, dict) and not ({"name", "path", "filename"} & set(value)):
        return [SourceFile(PurePosixPath(k).name, str(v)) for k, v in sorted(value.items())]
    if isinstance(value, dict):
        value = [value]
    out = []
    for f in value or []:
        if not isinstance(f, dict):
            raise SourceError(f"{where}: each file must be an object with a name and content")
        name = f.get("name") or f.get("path") or f.get("filename")
        content = f.get("content", f.get("text"))
        if not name or content is None:
            raise SourceError(f"{where}: a file lacks its name or content (keys: {', '.join(sorted(f))})")
        out.append(SourceFile(PurePosixPath(str(name)).name, str(content)))
    return out


def _instance(inst_name: str, dut_instance: str) -> str:
    """Their instance paths may start at the testbench top (``tb.dut.u_x``); ECov's start at the DUT."""
    parts = [p for p in str(inst_name or dut_instance).split(".") if p]
    if dut_instance in parts:
        parts = parts[parts.index(dut_instance):]
    return ".".join(parts) or dut_instance


def from_row(row: dict[str, Any]) -> Task:
    tid = str(row.get("id") or "")
    where = f"{HUB_ID} row {tid or '?'}"
    if not tid:
        raise SourceError(f"{where}: no id")
    module, instance = str(row.get("dut_module_name") or ""), str(row.get("dut_instance_name") or "")
    if not module or not instance:
        raise SourceError(f"{where}: dut_module_name and dut_instance_name are required")
    rtl = _files(row.get("rtl_files"), f"{where} rtl_files")
    if not rtl:
        raise SourceError(f"{where}: no RTL files")
    raw_targets = row.get("targets")
    if isinstance(raw_targets, str):
        raw_targets = json.loads(raw_targets)
    if isinstance(raw_targets, dict):  # a columnar list of structs
        keys = list(raw_targets)
        raw_targets = [dict(zip(keys, vals, strict=True)) for vals in zip(*raw_targets.values(), strict=True)]
    targets = []
    for t in raw_targets or []:
        pct = float(t.get("target_percentage", t.get("percent", 0)))
        if not 0 < pct <= 100:
            raise SourceError(f"{where}: target {pct} is outside (0, 100]")
        targets.append(Target(_instance(t.get("inst_name", ""), instance), map_metric(t.get("metric"), where), pct))
    if not targets:
        raise SourceError(f"{where}: no targets")
    upstream = min(t.percent for t in targets)
    return Task(
        id=tid,
        benchmark=BENCHMARK,
        rtl_files=rtl,
        spec_files=_files(row.get("spec_files"), f"{where} spec_files"),
        dut_module=module,
        dut_instance=instance,
        instructions=str(row.get("instruction") or ""),
        targets=targets,
        difficulty=str(row.get("difficulty") or ""),
        source={
            "upstream": HUB_ID, "upstream_id": tid, "license": "see the authors' dataset card",
            "upstream_target": f"{upstream:g}", "upstream_metric": targets[0].metric,
            "instance_from": "dut_instance_name", "target_rule": "cvdp-ecov", "calibration": "pending",
            "is_agentic": str(bool(row.get("is_agentic"))).lower(),
            "upstream_targets": json.dumps([t.to_dict() for t in targets]),
        },
    )


SPEC = register(KIND, BENCHMARK, BenchmarkSpec(
    name=BENCHMARK, license="see the hub dataset card (" + HUB_ID + ")",
    target_rule="per target: min(upstream percentage, floor(ceiling))",
    card="the LLM4Cov authors' evaluation set, read from the hub"))
