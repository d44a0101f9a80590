#!/usr/bin/env python3
"""Builds per minute on this machine: the local pool vs a local Ray cluster, 1 and 2 workers, and the
check that the Ray runs' summaries equal the local pool's (docs/scale.md quotes its output).

    python scripts/measure_ray.py [--mode direct] [-n 1] [--tasks all|N] [--configs local1,ray1,local2,ray2]

Every configuration runs the same ecov-eval (builtin/random) with cold score caches, one after the
other; builds = scored rounds that were not cache hits. The machine may be shared: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.ray_cluster import LocalCluster  # noqa: E402

STRIP = ("seconds", "updated")


def run(out: Path, cache: Path, mode: str, n: int, tasks: list[str], extra: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO), "ECOV_CACHE_DIR": str(cache), "RAY_USAGE_STATS_ENABLED": "0"}
    ids = [a for t in tasks for a in ("--task-id", t)]
    cmd = [sys.executable, "-c", "from ecov.harness.cli.eval import main; main()", "--model", "builtin/random",
           "--mode", mode, "-n", str(n), *ids, "--out", str(out), "--no-progress", *extra]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if proc.returncode:
        raise SystemExit(proc.stdout + proc.stderr)
    rounds = [json.loads(line) for line in (out / "rounds.jsonl").read_text().splitlines()]
    builds = sum(1 for r in rounds if r["testbench"] and not r["result"].get("cached")
                 and r["result"]["status"] != "rejected")
    summary = {k: v for k, v in json.loads((out / "summary.json").read_text()).items() if k not in STRIP}
    return {"wall_s": round(wall, 1), "builds": builds, "builds_per_min": round(60 * builds / wall, 1),
            "summary": summary}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="direct")
    ap.add_argument("-n", type=int, default=1)
    ap.add_argument("--tasks", default="all")
    ap.add_argument("--configs", default="local1,ray1,local2,ray2", help="in this order (interleaved)")
    ap.add_argument("--out", type=Path, default=Path("/tmp/ecov-measure"))
    args = ap.parse_args()
    from ecov.harness.benchmark.store import load_benchmark

    tasks = [t.id for t in load_benchmark(None)]
    if args.tasks != "all":
        tasks = tasks[: int(args.tasks)]
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    results = {}
    names = {"local1": "local, 1 worker", "local2": "local, 2 workers", "ray1": "ray, 1 worker",
             "ray2": "ray, 2 workers"}
    for conf in args.configs.split(","):
        run_dir, cache = args.out / conf / "run", args.out / conf / "cache"
        if conf.startswith("local"):
            results[names[conf]] = run(run_dir, cache, args.mode, args.n, tasks, ["--workers", conf[-1]])
            continue
        nodes = int(conf[-1])
        wcache = args.out / conf / "worker-cache"
        with LocalCluster(nodes=nodes, cpus_per_node=1, env={"ECOV_CACHE_DIR": str(wcache)}) as cluster:
            results[names[conf]] = run(run_dir, cache, args.mode, args.n, tasks,
                                       ["--executor", "ray", "--ray-address", cluster.address])
        print(f"{names[conf]}: {results[names[conf]]['builds_per_min']}/min", flush=True)
    base = results.get("local, 2 workers") or next(iter(results.values()))
    print(f"{len(tasks)} tasks x n={args.n}, builtin/random, {args.mode}; builds per minute (wall):")
    for name, r in results.items():
        same = "same summary" if r["summary"] == base["summary"] else "SUMMARY DIFFERS"
        print(f"  {name:18s} {r['builds']:4d} builds in {r['wall_s']:7.1f} s = {r['builds_per_min']:6.1f}/min  "
              f"x{r['builds_per_min'] / base['builds_per_min']:.2f}  ({same} as the first local run)")
    (args.out / "measure.json").write_text(json.dumps(results, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
