"""What the trusted replay costs: a score's wall time before (the direct path, coverage counted in the
testbench's own run) and after (run 1 with the recorder, then the DUT-only replay), as ratios in one run.

On each embedded task, interleaved: the direct path on its reference testbench, then the replay path
twice, each on a testbench never built before (the reference with a distinct ``$display``, so the
object cache cannot serve it): the first replay score pays the task's DUT-only build (cold: a fresh
replay-build folder, compiled without the object cache), the second reuses it (warm: every later
testbench of the task). Score cache off.

Usage: python benchmarks/perf/replay_cost.py [--tasks N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path


def variant(tb: str) -> str:
    """The testbench with one more statement, so that nothing of it was compiled before."""
    tag = uuid.uuid4().hex[:12]
    return tb.replace("endmodule", f'  initial $display("cost {tag}");\nendmodule', 1)


def main() -> None:
    from ecov.harness.benchmark.builders.embedded import load_suite
    from ecov.harness.core.paths import default_cache_dir
    from ecov.harness.scoring.config import EngineConfig
    from ecov.harness.sim.verilator import BuildOptions, VerilatorBackend
    from ecov.harness.tracks.sv.scorer import Engine

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=int, default=16)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    cfg = EngineConfig(use_cache=False)
    direct, replay = Engine(cfg, direct=True), Engine(cfg)
    # Cold: a fresh replay-build folder, and no object cache for the DUT-only builds (a machine that never
    # scored the task); run 1's builds use the object cache as the direct path's do.
    replay.replayer.builder.build_cache = Path(tempfile.mkdtemp(prefix="ecov-replay-cost-"))
    replay.replayer.builder.backend = VerilatorBackend(replay.sandbox, default_cache_dir(),
                                                       BuildOptions(object_cache=False))
    rows = []
    for task in load_suite()[:a.tasks]:
        tb = task.reference_tbs[0].content
        times = {}
        for name, engine in (("direct", direct), ("cold", replay), ("warm", replay)):
            t = time.monotonic()
            res = engine.score(task.design, variant(tb))
            times[name] = round(time.monotonic() - t, 3)
            if res.status != "ok":
                sys.exit(f"{task.id} {name}: {res.status} {res.errors[:2]}")
            times[f"{name}_phases"] = res.phases
        rows.append({"task": task.id, **times})
        print(f"{task.id:15} direct {times['direct']:6.2f} s  replay cold {times['cold']:6.2f} s  "
              f"warm {times['warm']:6.2f} s  (run {times['warm_phases'].get('run', 0):.2f} + replay "
              f"{times['warm_phases'].get('replay', 0):.2f} s; DUT-only build "
              f"{times['cold_phases'].get('replay_build', 0):.2f} s)", flush=True)
    warm = [r["warm"] / r["direct"] for r in rows]
    cold = [r["cold"] / r["direct"] for r in rows]
    total = sum(r["warm"] for r in rows) / sum(r["direct"] for r in rows)
    print(f"\nreplay / direct wall time over {len(rows)} tasks: warm median {statistics.median(warm):.2f} "
          f"(sum {total:.2f}, range {min(warm):.2f}-{max(warm):.2f}); first testbench of a task (DUT-only "
          f"build included) median {statistics.median(cold):.2f}")
    if a.json:
        a.json.write_text(json.dumps({"rows": rows, "warm_median": statistics.median(warm), "warm_sum": total,
                                      "cold_median": statistics.median(cold)}, indent=1))


if __name__ == "__main__":
    main()
