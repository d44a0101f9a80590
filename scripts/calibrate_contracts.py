"""Calibrate shipped interface contracts (issue 22): the reference must stay legal and hit every kept bin,
naive random stimulus should break a rule early.

    python scripts/calibrate_contracts.py cvdp-ecov [TASK ...] [--random-only] [--json OUT]

For each task with a contract: every reference testbench is scored with the contract bound (first
violation, bins missed, DUT coverage unchanged by the monitor), then the round-0 builtin/random
testbench (seed 1) is scored with it (first violation rule and time in ns, bins hit before it). One JSON
line per task; exit 1 when a reference is not clean. This is the table in
benchmarks/cvdp-ecov/contracts/README.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.contracts.calibration import check_reference
from ecov.harness.contracts.spec import ContractError, check
from ecov.harness.core.records import ScoreResult
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tasks import Task
from ecov.harness.tracks.sv.random_tb import generate
from ecov.harness.tracks.sv.scorer import Engine


@dataclass
class _Req:
    """The fields of a model request the random renderer reads (round 0, sample 0)."""

    task: Task
    testbench: str | None = None
    result: ScoreResult | None = None
    round: int = 0
    sample: int = 0
    seed: int = 1


def calibrate(engine: Engine, t: Task, random_only: bool) -> dict:
    meta = check(t.contract, t.design)
    row: dict = {"task": t.id, "rules": len(meta.rules), "bins": len(meta.bins), "dropped": len(meta.dropped_bins)}
    ok = True
    if not random_only:
        refs = []
        for tb in t.reference_tbs:
            c = check_reference(engine, t.design, meta, tb)
            got = c.result
            ok &= c.clean
            refs.append({"tb": tb.name, "status": got.status, "violations": got.legal.get("violations"),
                         "bins_missed": c.bins_missed, "coverage_unchanged": c.coverage_unchanged,
                         "meets_legal": got.meets_legal(t.targets), "ok": c.clean, "errors": got.errors[:2]})
        row["reference"] = refs
    text = generate(_Req(t)).split("```systemverilog\n", 1)[1].rsplit("```", 1)[0]
    rnd = engine.score(t.design, text)
    v = rnd.legal.get("violation") or {}
    row["random"] = {"status": rnd.status, "first_rule": v.get("rule"), "first_ns": v.get("time_ns"),
                     "violations": rnd.legal.get("violations"), "bins_legal": len(rnd.legal.get("bins", [])),
                     "meets_legal": rnd.meets_legal(t.targets), "meets": rnd.meets(t.targets)}
    row["ok"] = ok
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("benchmark")
    ap.add_argument("tasks", nargs="*")
    ap.add_argument("--random-only", action="store_true")
    args = ap.parse_args(argv)
    engine = Engine(EngineConfig())
    bad = 0
    for t in load_benchmark(args.benchmark):
        if t.contract is None or (args.tasks and t.id not in args.tasks):
            continue
        try:
            row = calibrate(engine, t, args.random_only)
        except ContractError as e:
            row = {"task": t.id, "error": str(e), "ok": False}
        bad += not row["ok"]
        print(json.dumps(row), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
