"""The interface contracts shipped with the embedded suite, cvdp-ecov and autoeval-ecov (issue 22), through
the real engine: each task's reference passes legally, hits every kept bin and leaves the DUT's coverage
unchanged. Breaking every rule at every offset is tests/test_contract_selftest.py (issue 30). The
calibration table is benchmarks/*/contracts/README.md (scripts/calibrate_contracts.py).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.contracts.spec import check, reference_clean
from ecov.harness.core.records import OK
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine

BENCHMARKS = ("ecov-embedded", "cvdp-ecov", "autoeval-ecov")
TASKS = {(b, t.id): t for b in BENCHMARKS for t in load_benchmark(b) if t.contract is not None}


def _jobs() -> dict[tuple, tuple]:
    """Every simulation the tests below check: (kind, ...) -> (design, testbench text)."""
    jobs = {}
    for key, task in TASKS.items():
        for i, tb in enumerate(task.reference_tbs):
            jobs[("ref", key, i)] = (task.design, tb.content)
            jobs[("plain", key, i)] = (replace(task.design, contract=None), tb.content)
    return jobs


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """All simulations at once, one per CPU (the engine is thread-safe; each test then only reads)."""
    engine = Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), run_seconds=60))
    jobs = _jobs()
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        futures = {k: pool.submit(engine.score, design, text) for k, (design, text) in jobs.items()}
        return {k: f.result() for k, f in futures.items()}


@pytest.mark.parametrize("key", sorted(TASKS), ids=lambda k: k[1])
def test_shipped_contract_calibrates(scored, key):
    task = TASKS[key]
    meta = check(task.contract, task.design)
    assert task.reference_tbs[0].name not in dict(meta.illegal_references)  # builtin/reference's first answer
    for i, tb in enumerate(task.reference_tbs):
        r = scored[("ref", key, i)]
        plain = scored[("plain", key, i)]
        assert plain.coverage == r.coverage and plain.uncovered == r.uncovered
        missed = [b for b in meta.bins if b not in r.legal["bins"]]
        assert reference_clean(meta, tb.name, r.status == OK, True, r.legal["violation"], missed), \
            (tb.name, r.errors, r.legal.get("violation"), missed)
        if tb.name not in dict(meta.illegal_references):
            assert r.meets_legal(task.targets)
