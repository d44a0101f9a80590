"""One reference testbench through a contract: the shared step of ``python -m ecov.harness.contracts check``
and scripts/calibrate_contracts.py (the tests apply ``reference_clean`` to their own up-front scores)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ecov.harness.contracts.spec import Meta, reference_clean
from ecov.harness.core.records import Design, ScoreResult, SourceFile


@dataclass
class ReferenceCheck:
    tb: str
    result: ScoreResult  # scored with the contract bound
    coverage_unchanged: bool  # the same coverage and status as without the monitor
    bins_missed: list[str]
    clean: bool  # reference_clean's verdict


def check_reference(engine: Any, design: Design, meta: Meta, tb: SourceFile) -> ReferenceCheck:
    """Score ``tb`` with and without the contract (``engine``: any scorer with ``score(design, text)``)."""
    got = engine.score(design, tb.content)
    plain = engine.score(replace(design, contract=None), tb.content)
    missed = [b for b in meta.bins if b not in got.legal.get("bins", [])]
    same = got.coverage == plain.coverage and got.status == plain.status
    return ReferenceCheck(tb.name, got, same, missed,
                          reference_clean(meta, tb.name, got.ran, same, got.legal.get("violation"), missed))


__all__ = ["ReferenceCheck", "check_reference"]
