"""Tools for contract authors: ``python -m ecov.harness.contracts hash|check|selftest BENCHMARK TASK...``.

``hash`` prints the design_sha256 to put in contract.json; ``check`` scores the task's reference
testbench(es) with the contract bound and prints the first violation, bins hit and whether the DUT's
coverage is unchanged by the monitor (the calibration every shipped contract must pass); ``selftest``
breaks every rule at every offset its ``breaks`` description yields (ecov.harness.contracts.selftest) and
prints what the monitor missed.
``--reference-dir DIR`` scores ``DIR/<task id>.sv`` instead of the built task's references (a reference
being fixed before the benchmark is rebuilt); the output then says whether the task's current targets are
met, on the whole run and on its legal part.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ecov.harness.benchmark.calibrate import rule_targets, target_key
from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.contracts.calibration import check_reference
from ecov.harness.contracts.selftest import SelftestError, selftest
from ecov.harness.contracts.spec import ContractError, check, design_sha256
from ecov.harness.core.records import SourceFile
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine


def _rebuilt_targets(task, result) -> dict[str, float]:
    """The targets a rebuild would set if this testbench were the task's only reference (target rule)."""
    ceiling = {target_key(x): result.metric_percent(x.instance, x.metric) for x in task.targets}
    return {target_key(x): x.percent for x in rule_targets(task, ceiling)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ecov.harness.contracts", description=__doc__)
    ap.add_argument("command", choices=["hash", "check", "selftest"])
    ap.add_argument("benchmark", help="ecov-embedded, cvdp-ecov, autoeval-ecov or a built folder")
    ap.add_argument("tasks", nargs="*", help="task ids (default: every task; for check, every task with a contract)")
    ap.add_argument("--reference-dir", type=Path, default=None,
                    help="score DIR/<task id>.sv (when it exists) instead of the built references")
    args = ap.parse_args(argv)
    tasks = load_benchmark(args.benchmark)
    if args.tasks:
        tasks = [t for t in tasks if t.id in set(args.tasks)]
    if args.command == "hash":
        for t in tasks:
            print(t.id, design_sha256(t.rtl_files))
        return 0
    engine = Engine(EngineConfig())
    if args.command == "selftest":
        return _selftest(engine, tasks)
    bad = 0
    for t in tasks:
        if t.contract is None:
            continue
        try:
            meta = check(t.contract, t.design)
        except ContractError as e:
            print(f"{t.id}: ERROR {e}")
            bad += 1
            continue
        refs = list(t.reference_tbs)
        if args.reference_dir is not None and (args.reference_dir / f"{t.id}.sv").is_file():
            path = args.reference_dir / f"{t.id}.sv"
            refs = [SourceFile(path.name, path.read_text())]
        for tb in refs:
            c = check_reference(engine, t.design, meta, tb)
            with_c, legal = c.result, c.result.legal
            bad += not c.clean
            print(json.dumps({"task": t.id, "tb": tb.name, "status": with_c.status, "errors": with_c.errors[:3],
                              "coverage_unchanged": c.coverage_unchanged, "violation": legal.get("violation"),
                              "violations": legal.get("violations"), "bins_missed": c.bins_missed,
                              "bins": f"{len(legal.get('bins', []))}/{len(meta.bins)}",
                              "targets": {target_key(x): x.percent for x in t.targets},
                              "rebuilt_targets": _rebuilt_targets(t, with_c),
                              "overall": with_c.overall, "meets": with_c.meets(t.targets),
                              "meets_legal": with_c.meets_legal(t.targets), "ok": c.clean}))
    return 1 if bad else 0


def _selftest(engine: Engine, tasks) -> int:
    bad = 0
    for t in tasks:
        if t.contract is None or not t.reference_tbs:
            continue
        try:
            rep = selftest(engine, t.design, t.reference_tbs[0].content, t.id)
        except (SelftestError, ContractError) as e:
            print(f"{t.id}: ERROR {e}")
            bad += 1
            continue
        print("\n".join(rep.lines()))
        for rule, skipped in rep.skipped.items():
            for offset, why in skipped.items():
                print(f"  skipped {rule} @{offset}: {why}")
        bad += not rep.ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
