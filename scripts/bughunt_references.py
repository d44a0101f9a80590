"""Self-checking reference testbenches for the bug hunt (issue 31), written beside the coverage references.

    python scripts/bughunt_references.py autoeval            # (re)write autoeval-ecov's from VerilogEval's test
    python scripts/bughunt_references.py check cvdp-ecov     # golden passes, coverage identical to the reference
    python scripts/bughunt_references.py check ecov-embedded --task uart
    python scripts/bughunt_references.py targets cvdp-ecov   # bug-hunt score of each, and the kill-rate targets

Where they live (ecov.harness.benchmark.bughunt reads them):
- ecov-embedded: ``harness/suite/<task>/ref_tb.sv`` itself (every mismatch already ends in ``$error``);
- cvdp-ecov: ``benchmarks/cvdp-ecov/bughunt_references/<task>.sv``: ECov's coverage reference with the same
  stimulus plus a scoreboard written from the task's spec;
- autoeval-ecov: ``benchmarks/autoeval-ecov/bughunt_references/<task>.sv``: VerilogEval's own test (its
  stimulus, its golden ``RefModule``) whose first mismatch ends the run with ``$fatal`` (``autoeval``).

``targets`` scores each one with the bug-hunt scorer against the task's mutants and writes the benchmark's
``bughunt_targets.json`` (ecov.harness.benchmark.calibrate.BUGHUNT_RULE), with each reference's figures.

``check`` scores each one and its coverage reference with the engine and fails when the self-checking one
does not pass on the golden design or reaches other coverage than the reference (covered/total per
instance and metric): the coverage targets were calibrated from the reference, the stimulus must not move.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ecov.harness.benchmark.bughunt_refs import (
    AUTOEVAL_MARK,
    TARGETS,
    bughunt_reference,
    coverage_reference,
    read_targets,
    references_dir,
)
from ecov.harness.benchmark.calibrate import BUGHUNT_RULE, bughunt_target
from ecov.harness.benchmark.store import EMBEDDED, load_benchmark
from ecov.harness.core.records import ScoreResult
from ecov.harness.loop.bughunt_round import BughuntRoundScorer
from ecov.harness.tracks.sv.bughunt import BughuntEngine
from ecov.harness.tracks.sv.scorer import Engine

# VerilogEval's tb counts a mismatching sample here (one line per test.sv, checked by ``autoeval``).
VERILOG_EVAL_COUNT = "stats1.errors++;"


def verilog_eval_self_checking(tb: str) -> str:
    """VerilogEval's test with its first mismatch ending the run (``$fatal``), stimulus untouched."""
    if tb.count(VERILOG_EVAL_COUNT) != 1:
        raise ValueError(f"expected one '{VERILOG_EVAL_COUNT}' in VerilogEval's test, found {tb.count(VERILOG_EVAL_COUNT)}")
    check = (f"{VERILOG_EVAL_COUNT}\n\t\t\t$fatal(1, \"{AUTOEVAL_MARK}: the DUT's outputs differ from the reference "
             "model's at time %0t\", $time);")
    return tb.replace(VERILOG_EVAL_COUNT, check)


def write_autoeval() -> int:
    out = references_dir("autoeval-ecov")
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for task in load_benchmark("autoeval-ecov"):
        upstream = next(f for f in task.reference_tbs if f.name == "verilog_eval_test.sv")
        (out / f"{task.id}.sv").write_text(verilog_eval_self_checking(upstream.content))
        n += 1
    print(f"wrote {n} testbenches to {out}")
    return 0


def golden_failure(res: ScoreResult) -> str:
    """Why a run on the golden design failed ("" when it passed): not to $finish, or a check fired."""
    if res.status != "ok":
        return f"{res.status}: {'; '.join(res.errors)[:300]}"
    fired = [line for line in res.log_tail.splitlines() if line.lstrip("[0123456789] ").startswith(("%Error", "%Fatal"))]
    return f"a check fired: {fired[0][:300]}" if fired else ""


def coverage_table(res: ScoreResult) -> dict:
    return {(i, m): (f["covered"], f["total"]) for i, ms in res.coverage.items() for m, f in ms.items()}


def check_task(engine: Engine, task) -> tuple[str, str]:
    bh = bughunt_reference(task)
    if bh is None:
        return task.id, "MISSING: no self-checking reference"
    ref = coverage_reference(task)
    got = engine.score(task.design, bh.content, seed=1)
    want = engine.score(task.design, ref.content, seed=1)
    fail = golden_failure(got)
    if fail:
        return task.id, f"FAILS ON GOLDEN: {fail}"
    if coverage_table(got) != coverage_table(want):
        diffs = sorted(k for k in set(coverage_table(got)) | set(coverage_table(want))
                       if coverage_table(got).get(k) != coverage_table(want).get(k))
        return task.id, (f"COVERAGE DIFFERS: {got.overall:.2f} vs {want.overall:.2f} "
                         f"({', '.join(f'{i}.{m}' for i, m in diffs[:4])})")
    return task.id, f"ok {got.overall:.2f}"


def check(benchmark: str, only: list[str], jobs: int) -> int:
    tasks = [t for t in load_benchmark(benchmark) if not only or t.id in only]
    engine = Engine()
    bad = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for task_id, verdict in pool.map(lambda t: check_task(engine, t), tasks):
            bad += not verdict.startswith("ok")
            print(f"{task_id}\t{verdict}", flush=True)
    print(f"{len(tasks) - bad}/{len(tasks)} ok")
    return 1 if bad else 0


def reference_hunt(hunter: BughuntRoundScorer, task) -> dict:
    """The bug-hunt figures of a task's self-checking reference (its own score, as a run would give it)."""
    ref = bughunt_reference(task)
    if ref is None or task.mutants is None or not task.mutants.mutants:
        return {"status": "no_reference" if ref is None else "no_mutants"}
    res = hunter(task, ref.content, 1)
    bh = res.bughunt
    out = {"reference": ref.name, "status": bh.get("status"), "killed": bh.get("killed", 0),
           "total": bh.get("total", 0), "reference_kill_rate": bh.get("kill_rate", 0.0),
           "survived": sorted(m for m, why in (bh.get("outcomes") or {}).items() if why != "killed")}
    if bh.get("status") == "ok":
        out["target"] = bughunt_target(float(bh.get("kill_rate") or 0.0))
    else:
        out["problem"] = bh.get("failure") or bh.get("reason") or "; ".join(res.errors)[:300]
    return out


def targets_file(benchmark: str) -> Path:
    if benchmark == EMBEDDED:
        return Path(__file__).resolve().parents[1] / "harness" / "suite" / TARGETS
    return references_dir(benchmark).parent / TARGETS


def write_targets(benchmark: str, only: list[str], jobs: int) -> int:
    tasks = [t for t in load_benchmark(benchmark) if not only or t.id in only]
    hunter = BughuntRoundScorer(BughuntEngine(jobs=jobs))
    path = targets_file(benchmark)
    old = read_targets(path).get("tasks", {}) if path.is_file() else {}
    entries = dict(old)
    for task in tasks:  # the file is rewritten after each task, so an interrupted run keeps what it did
        entries[task.id] = reference_hunt(hunter, task)
        e = entries[task.id]
        print(f"{task.id}\t{e.get('status')}\t{e.get('killed', '-')}/{e.get('total', '-')}\ttarget {e.get('target')}",
              flush=True)
        data = {"benchmark": benchmark, "rule": BUGHUNT_RULE, "notes": NOTES,
                "tasks": dict(sorted(entries.items()))}
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")
    return 0


NOTES = ("Kill-rate targets of the bug hunt (issue 31), one per task with killable mutants: a sample passes "
         "the bug hunt when its kill rate is at or above its task's target and it raised no false alarm. Each "
         "is calibrated from the task's self-checking reference (its status, killed/total and the mutants it "
         "lets survive are recorded here). A task whose reference catches no mutant has no target (null): "
         "such a sample passes only by catching every mutant. Written by scripts/bughunt_references.py targets.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("autoeval", help="write autoeval-ecov's from VerilogEval's test")
    c = sub.add_parser("check", help="golden passes, coverage identical to the coverage reference")
    c.add_argument("benchmark")
    c.add_argument("--task", action="append", default=[])
    c.add_argument("--jobs", type=int, default=1)
    t = sub.add_parser("targets", help="bug-hunt score of each reference; write bughunt_targets.json")
    t.add_argument("benchmark")
    t.add_argument("--task", action="append", default=[])
    t.add_argument("--jobs", type=int, default=2, help="mutant runs at once")
    args = ap.parse_args(argv)
    if args.cmd == "autoeval":
        return write_autoeval()
    if args.cmd == "targets":
        return write_targets(args.benchmark, args.task, args.jobs)
    return check(args.benchmark, args.task, args.jobs)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
