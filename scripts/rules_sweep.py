#!/usr/bin/env python3
"""Run only the test rules (no builds) over reference testbenches: the false-rejection count.

Every embedded ref_tb.sv; with --verilog-eval DIR every VerilogEval test.sv adapted as autoeval-ecov
does; with --benchmark NAME (repeatable) the reference testbenches of a shipped benchmark (cvdp-ecov,
autoeval-ecov). Prints each testbench with a violation and the totals; exits 1 if any.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ecov.harness.benchmark.builders import autoeval, embedded
from ecov.harness.sim.rules import check_design


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--verilog-eval", type=Path, default=None, help="VerilogEval dataset folder")
    ap.add_argument("--benchmark", action="append", default=[], help="a shipped benchmark by name")
    args = ap.parse_args()
    tasks = list(embedded.load_suite())
    if args.verilog_eval:
        tasks += autoeval.build(args.verilog_eval).tasks
    for name in args.benchmark:
        from ecov.harness.benchmark.store import load_benchmark

        tasks += list(load_benchmark(name))
    start, n, bad = time.monotonic(), 0, 0
    for task in tasks:
        for ref in task.reference_tbs:
            n += 1
            found = check_design(task.design, ref.content)
            if found:
                bad += 1
                print(f"{task.benchmark}/{task.id}: " + "; ".join(str(v) for v in found[:3]))
    print(f"{n} reference testbenches, {bad} with violations, {time.monotonic() - start:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
