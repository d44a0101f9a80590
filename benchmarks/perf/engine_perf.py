"""Seconds per evaluation of the coverage engine, against a naive `verilator --binary -O2` in the same run.

Modes, each on the same designs and reference testbenches:
  naive      verilator --binary (make, Verilator's default -Os runtime + -O2 user code) then run: what a
             user would type; every evaluation rebuilds everything.
  cold       the engine on a machine that has never built: runtime objects + PCH are built first.
  warm       the engine with its runtime folder present and an empty score cache (a new testbench).
  warm-nopch the same without the precompiled header (ablation).
  warm-nort  the same compiling Verilator's runtime each time (ablation: no prebuilt runtime).
  cache-hit  the engine answering a repeated evaluation from its cache.

Usage: python benchmarks/perf/engine_perf.py [--tasks N] [--json OUT]
Ratios are against `naive`, measured here, in this run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.dataset import load_benchmark
from harness.engine import Engine, EngineConfig
from harness.sim.rules import module_names
from harness.sim.verilator import BuildOptions, find_top, verilator_root


def naive(task, tb: str) -> float:
    root = verilator_root()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = []
        for f in task.rtl_files:
            (d / f.name).write_text(f.content)
            files.append(f.name)
        (d / "tb.sv").write_text(tb)
        env = {**os.environ, "VERILATOR_ROOT": str(root)}
        start = time.monotonic()
        build = subprocess.run(
            [str(root / "bin" / "verilator"), "--binary", "--timing", "--coverage", "-O2", "-Wno-fatal",
             "-Wno-lint", "-Wno-style", "-CFLAGS", "-std=c++20", "--top-module", find_top(tb, module_names(tb)), *files, "tb.sv",
             # the wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, which breaks its own PCH rule
             "-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include", "-o", "sim"], cwd=d, env=env, capture_output=True,
            text=True)
        if build.returncode:
            raise RuntimeError(build.stdout[-2000:] + build.stderr[-2000:])
        subprocess.run(["obj_dir/sim"], cwd=d, capture_output=True, timeout=120)
        return time.monotonic() - start


def engine_time(task, tb: str, cache: Path, runtime: Path, build: BuildOptions) -> tuple[float, float]:
    os.environ["ECOV_RUNTIME_DIR"] = str(runtime)
    eng = Engine(EngineConfig(cache_dir=cache, build=build))
    start = time.monotonic()
    res = eng.score(task.design, tb)
    if res.status not in ("ok", "no_finish"):
        raise RuntimeError(f"{task.id}: {res.status} {res.errors[:2]}")
    return time.monotonic() - start, res.overall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=int, default=3, help="how many embedded tasks to time")
    ap.add_argument("--json", type=Path, help="write the table as JSON")
    args = ap.parse_args()
    tasks = [t for t in load_benchmark("ecov-embedded") if t.reference_tbs][: args.tasks]
    work = Path(tempfile.mkdtemp(prefix="ecov-perf-"))
    rows: dict[str, list[float]] = {m: [] for m in
                                    ("naive", "cold", "warm", "warm-nopch", "warm-nort", "cache-hit")}
    try:
        runtime = work / "runtime"
        for i, task in enumerate(tasks):
            tb = task.reference_tbs[0].content
            print(f"[{i + 1}/{len(tasks)}] {task.id}", file=sys.stderr, flush=True)
            rows["naive"].append(naive(task, tb))
            if i == 0:
                secs, _ = engine_time(task, tb, work / "c-cold", runtime, BuildOptions())
                rows["cold"].append(secs)
            secs, overall = engine_time(task, tb, work / f"c-warm{i}", runtime, BuildOptions())
            rows["warm"].append(secs)
            rows["warm-nopch"].append(engine_time(task, tb, work / f"c-nopch{i}", runtime,
                                                  BuildOptions(use_pch=False))[0])
            rows["warm-nort"].append(engine_time(task, tb, work / f"c-nort{i}", work / "rt-unused",
                                                 BuildOptions(use_pch=False, prebuilt_runtime=False))[0])
            rows["cache-hit"].append(engine_time(task, tb, work / f"c-warm{i}", runtime, BuildOptions())[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = statistics.mean(rows["naive"])
    table = []
    print(f"\nengine perf on {len(tasks)} embedded tasks ({', '.join(t.id for t in tasks)})")
    print(f"{'mode':<12} {'mean s':>8} {'min s':>8} {'max s':>8} {'vs naive':>9}")
    for mode, vals in rows.items():
        if not vals:
            continue
        mean = statistics.mean(vals)
        table.append({"mode": mode, "mean_s": mean, "min_s": min(vals), "max_s": max(vals),
                      "speedup_vs_naive": base / mean if mean else None, "n": len(vals)})
        print(f"{mode:<12} {mean:8.2f} {min(vals):8.2f} {max(vals):8.2f} {base / mean:8.1f}x")
    if args.json:
        args.json.write_text(json.dumps(table, indent=2))


if __name__ == "__main__":
    main()
