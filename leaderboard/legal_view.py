"""The legal figures the HTML pages show (issue 32), from a round's ``ScoreResult.legal``: legal coverage,
the first broken rule with its time and how often each rule broke, and the contract's bins hit out of
its total. One place for the site's and ``ecov-eval view``'s task and submission pages.
"""

from __future__ import annotations

from typing import Any

from ecov.harness.core.records import ScoreResult
from ecov.harness.core.run_folder import RoundRecord


def round_legal(rec: RoundRecord) -> dict[str, Any] | None:
    """One round's legal figures; None when the round has none (no contract, or it did not run)."""
    legal = (rec.result or {}).get("legal") or {}
    if not legal:
        return None
    first = legal.get("violation") or None
    counts = {str(k): int(v) for k, v in (legal.get("violations") or {}).items()}
    hit, seen = list(legal.get("bins") or []), list(legal.get("bins_all") or [])
    return {
        "passed": rec.legal_passed,
        "overall": float(legal.get("overall") or 0.0),
        "coverage": legal.get("coverage") or {},
        "rule": first.get("rule", "") if first else "",
        "time_ns": first.get("time_ns") if first else None,
        "spec": first.get("spec", "") if first else "",
        "ports": list(first.get("ports") or []) if first else [],
        "count": counts.get(first.get("rule", ""), 0) if first else 0,
        "violations": sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])),
        "events": sum(counts.values()),
        "bins_hit": hit,
        "bins_late": [b for b in seen if b not in hit],  # reached only after the first broken rule
        "bins_total": int(legal.get("bins_total") or 0),
    }


def legal_targets(targets: list[Any], recs: list[RoundRecord]) -> list[float | None]:
    """What the sample's last scored round reached on legal coverage, per target (None: no legal figures)."""
    last = next((r for r in reversed(recs) if r.result.get("status")), None)
    legal = ((last.result or {}).get("legal") or {}) if last else {}
    if not legal or not ScoreResult.from_dict(last.result).ran:
        return [None] * len(targets)
    table = legal.get("coverage") or {}
    return [float(table.get(t.instance, {}).get(t.metric, {}).get("percent", 0.0)) for t in targets]


def sample_legal(recs: list[RoundRecord]) -> dict[str, Any] | None:
    """A sample's legal figures as its last scored round has them (the round ``SampleRecord.violated``
    reads); None without a contract."""
    last = next((r for r in reversed(recs) if r.testbench and (r.result or {}).get("legal")), None)
    return round_legal(last) if last is not None else None


def task_legal(samples: list[list[RoundRecord]]) -> dict[str, Any] | None:
    """A task's legal cell: the first broken rule of the first sample that broke one (its last scored
    round), and how many of the task's samples broke a rule; None without legal figures."""
    views = [v for v in (sample_legal(recs) for recs in samples) if v is not None]
    if not views:
        return None
    broke = [v for v in views if v["rule"]]
    first = broke[0] if broke else None
    return {"rule": first["rule"] if first else "", "time_ns": first["time_ns"] if first else None,
            "count": first["count"] if first else 0, "spec": first["spec"] if first else "",
            "broke": len(broke), "samples": len(views)}
