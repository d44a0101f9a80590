"""What one bug-hunt score costs against one coverage score, on the embedded suite, in one run.

For each embedded task with mutants, interleaved: a coverage score of the task's reference testbench
(``Engine``: run 1 with the recorder, then the trusted replay), then a bug-hunt score of the same
testbench against the task's mutants (``BughuntEngine.score_bughunt``: the schema build, the golden run and
its replay (the coverage), one run per mutant, one replay per kill). Both start cold: the score caches
off, and each engine with an empty object cache of its own (so neither reuses what the other compiled).
The DUT-only replay models (the golden one both use, the bug hunt's mutant model) are made once per task
and kept (``<cache>/replay-builds``), as in any run after a task's first score: a warm-up bug hunt per task,
untimed, makes them. The ratio is wall seconds of the bug hunt over the coverage score, summed over the
tasks (and per task). Target (issue 31): at most 2.5.

    python benchmarks/perf/bughunt_cost.py [--tasks N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.bughunt import BughuntEngine
from ecov.harness.tracks.sv.scorer import Engine


def _engine(kind: str, tmp: Path):
    """A cold engine: its own empty object cache and score cache folder, the score cache off."""
    os.environ["ECOV_OBJECTS_DIR"] = str(tmp / f"objects-{kind}")
    config = EngineConfig(use_cache=False, cache_dir=tmp / f"cache-{kind}")
    return Engine(config) if kind == "coverage" else BughuntEngine(config)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=0, help="only the first N tasks with mutants")
    ap.add_argument("--json", type=Path, help="write the rows and totals here")
    args = ap.parse_args()
    tasks = [t for t in load_suite() if t.mutants and t.reference_tbs]
    if args.tasks:
        tasks = tasks[:args.tasks]
    rows = []
    with tempfile.TemporaryDirectory(prefix="bh-cost-") as d:
        tmp = Path(d)
        for task in tasks:
            tb = task.reference_tbs[0].content
            _engine("warmup", tmp).score_bughunt(task.design, task.mutants, tb, 1)
            cov = _engine("coverage", tmp)
            t0 = time.monotonic()
            c = cov.score(task.design, tb, 1)
            c_s = time.monotonic() - t0
            bh = _engine("bughunt", tmp)
            t0 = time.monotonic()
            b = bh.score_bughunt(task.design, task.mutants, tb, 1)
            b_s = time.monotonic() - t0
            row = {"task": task.id, "mutants": b.total, "killed": b.killed, "status": b.status,
                   "coverage_s": round(c_s, 2), "bughunt_s": round(b_s, 2), "ratio": round(b_s / c_s, 2),
                   "coverage_phases": c.phases, "bughunt_phases": b.phases,
                   "golden_phases": b.golden.phases if b.golden else {},
                   # the bug hunt's golden coverage is a coverage score of its own: the same figure
                   "coverage_overall": c.overall, "golden_overall": b.golden.overall if b.golden else None}
            rows.append(row)
            print(f"{task.id:16s} coverage {c_s:6.1f} s  bughunt {b_s:6.1f} s  ratio {b_s / c_s:4.2f}  "
                  f"({b.killed}/{b.total} killed, {c.status}/{b.status}) "
                  f"schema {sum(v for k, v in b.phases.items() if k.startswith('schema_')):.1f} s, "
                  f"runs {b.phases.get('golden_run', 0) + b.phases.get('mutant_runs', 0):.1f} s", flush=True)
    cov_total = sum(r["coverage_s"] for r in rows)
    bh_total = sum(r["bughunt_s"] for r in rows)
    totals = {"tasks": len(rows), "coverage_s": round(cov_total, 1), "bughunt_s": round(bh_total, 1),
              "coverage_differs": [r["task"] for r in rows if r["coverage_overall"] != r["golden_overall"]],
              "ratio": round(bh_total / cov_total, 2) if cov_total else None,
              "max_task_ratio": max((r["ratio"] for r in rows), default=None), "load": os.getloadavg()}
    print(json.dumps(totals))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "totals": totals}, indent=1))


if __name__ == "__main__":
    main()
