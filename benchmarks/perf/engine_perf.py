"""Seconds per evaluation of the coverage engine, against today's engine and a naive flow, in one run.

Latency modes, each on the same designs and reference testbenches, interleaved per task:
  naive       verilator --binary (make, Verilator's default -Os runtime + -O2 user code) then run: what a
              user would type; every evaluation rebuilds everything.
  unity       the engine as it was before object reuse (one unity file, testbench instrumented, one job):
              a new testbench, empty score cache.
  new-design  the engine now, first testbench of a design (empty object cache): all units compile.
  new-tb      the engine now, a new testbench for a design already built: the reference with a
              ``$display`` added (``--perturb last``: before its last ``$finish``; ``first``: at the top
              of its first ``initial``), so the score cache misses and unchanged units are reused.
  unity-tb    ``unity`` on that same perturbed testbench (the baseline of the ``new-tb`` ratio).
  new-seed    the engine now, the reference under another seed: the score cache misses, the compiled
              model is reused whole (only verilate, link and run).
  cache-hit   the engine answering a repeated evaluation from its score cache.
Ablations (``--ablations``): ``cold`` (runtime + PCH built first), ``warm-nopch``, ``warm-nort``.

Load mode (``--load N``): N concurrent scores of distinct testbenches (perturbed references, several
per design), for ``unity``, the engine now and ``naive``, one after the other in the same run: builds per
minute (wall) and CPU-seconds per build (the workers' own and their children's user+sys time).

Each row gives wall seconds and the per-phase split (verilate / compile / link / run) from
``ScoreResult.phases``. Usage:
  python benchmarks/perf/engine_perf.py [--tasks N] [--perturb last|first] [--load N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.hdl.text import find_top, module_names
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.verilator import BuildOptions, verilator_root
from ecov.harness.tracks.sv.scorer import Engine

# The engine before object reuse: one unity file, the testbench instrumented, one compiler.
UNITY = BuildOptions(output_split=0, object_cache=False, tb_coverage=True, jobs=1)
NEW = BuildOptions()
PHASES = ("verilate", "compile", "link", "run", "cpu")


def perturb(tb: str, tag: int, where: str = "last") -> str:
    """A distinct testbench that drives the design exactly as ``tb`` does: one more ``$display``."""
    line = f'$display("ecov-perf {tag}"); '
    if where == "first":
        m = re.search(r"\binitial\s+begin\b[^\n]*\n", tb)
        if m:
            return tb[: m.end()] + line + "\n" + tb[m.end():]
    i = tb.rfind("$finish")
    if i < 0:
        return tb + f"\n// ecov-perf {tag}\n"
    return tb[:i] + line + tb[i:]


def cpu_now() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def naive(task, tb: str) -> float:
    root = verilator_root()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = []
        for f in task.rtl_files:
            (d / f.name).write_text(f.content)
            if not f.name.endswith((".vh", ".svh", ".h", ".inc")):
                files.append(f.name)
        (d / "tb.sv").write_text(tb)
        env = {**os.environ, "VERILATOR_ROOT": str(root)}
        start = time.monotonic()
        build = subprocess.run(
            [str(root / "bin" / "verilator"), "--binary", "--timing", "--coverage", "-O2", "-Wno-fatal",
             "-Wno-lint", "-Wno-style", "-CFLAGS", "-std=c++20", "--top-module", find_top(tb, module_names(tb)),
             *files, "tb.sv",
             # the wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty, which breaks its own PCH rule
             "-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include", "-o", "sim"], cwd=d, env=env, capture_output=True,
            text=True)
        if build.returncode:
            raise RuntimeError(build.stdout[-2000:] + build.stderr[-2000:])
        subprocess.run(["obj_dir/sim"], cwd=d, capture_output=True, timeout=120)
        return time.monotonic() - start


def engine_score(task, tb: str, cache: Path, build: BuildOptions, seed: int = 1) -> tuple[float, dict]:
    """Wall seconds and the phases, plus ``cpu``: this process's and its children's CPU seconds.

    The ``rlimit`` sandbox (``$ECOV_PERF_SANDBOX``): bubblewrap's PID namespace hides the build's CPU time
    from getrusage; the compilers and the simulation do the same work in either.
    """
    eng = Engine(EngineConfig(cache_dir=cache, build=build, sandbox=os.environ.get("ECOV_PERF_SANDBOX", "rlimit")))
    cpu0, start = cpu_now(), time.monotonic()
    res = eng.score(task.design, tb, seed=seed)
    if res.status not in ("ok", "no_finish"):
        raise RuntimeError(f"{task.id}: {res.status} {res.errors[:2]}")
    return time.monotonic() - start, {**res.phases, "cpu": cpu_now() - cpu0}


def _load_worker(args: tuple) -> tuple[float, float]:
    """One score (or naive build) in a worker process: (wall seconds, CPU seconds incl. children)."""
    mode, bench, task_id, tb, cache = args
    task = next(t for t in load_benchmark(bench) if t.id == task_id)
    cpu0, t0 = cpu_now(), time.monotonic()
    if mode == "naive":
        naive(task, tb)
    else:
        engine_score(task, tb, Path(cache), UNITY if mode == "unity" else NEW)
    return time.monotonic() - t0, cpu_now() - cpu0


def load_mode(tasks, n: int, per_task: int, work: Path, where: str) -> list[dict]:
    """N workers at once over the same distinct testbenches, for each flow in turn."""
    jobs = [(t, perturb(t.reference_tbs[0].content, 1000 + j, where)) for j in range(per_task) for t in tasks]
    rows = []
    for mode in ("unity", "new", "naive"):
        cache = work / f"load-{mode}"
        shutil.rmtree(work / "objects", ignore_errors=True)  # every flow starts with no design built
        args = [(mode, "ecov-embedded", t.id, tb, str(cache)) for t, tb in jobs]
        print(f"load: {mode}, {len(args)} builds, {n} at once", file=sys.stderr, flush=True)
        start = time.monotonic()
        with ProcessPoolExecutor(max_workers=n) as pool:
            out = list(pool.map(_load_worker, args))
        wall = time.monotonic() - start
        cpu = [c for _, c in out]
        rows.append({"mode": mode, "builds": len(out), "concurrency": n, "wall_s": round(wall, 2),
                     "builds_per_min": round(60 * len(out) / wall, 2),
                     "cpu_s_per_build": round(statistics.mean(cpu), 3),
                     "median_latency_s": round(statistics.median(w for w, _ in out), 3)})
    base = rows[0]["cpu_s_per_build"]
    for r in rows:
        r["cpu_vs_unity"] = round(r["cpu_s_per_build"] / base, 3)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=int, default=16, help="how many embedded tasks to time")
    ap.add_argument("--perturb", choices=("last", "first"), default="last")
    ap.add_argument("--naive", action="store_true", help="time the naive flow per task too")
    ap.add_argument("--ablations", action="store_true", help="also cold, warm-nopch, warm-nort")
    ap.add_argument("--load", type=int, default=0, help="load mode: this many concurrent scores")
    ap.add_argument("--per-task", type=int, default=2, help="load mode: distinct testbenches per design")
    ap.add_argument("--load-tasks", type=int, default=8, help="load mode: how many designs")
    ap.add_argument("--no-latency", action="store_true", help="load mode only")
    ap.add_argument("--json", type=Path, help="write the tables as JSON")
    args = ap.parse_args()
    tasks = [t for t in load_benchmark("ecov-embedded") if t.reference_tbs][: args.tasks]
    work = Path(tempfile.mkdtemp(prefix="ecov-perf-"))
    modes = ["naive"] * args.naive + ["unity", "new-design", "unity-tb", "new-tb", "new-seed", "cache-hit"]
    if args.ablations:
        modes += ["cold", "warm-nopch", "warm-nort"]
    rows: dict[str, list[tuple[float, dict]]] = {m: [] for m in modes}
    report: dict = {"tasks": [t.id for t in tasks], "perturb": args.perturb}
    try:
        # The runtime objects + PCH are shared ($ECOV_RUNTIME_DIR, else built here once); the object
        # cache is this run's own, so that every design starts unbuilt.
        runtime = Path(os.environ.get("ECOV_RUNTIME_DIR") or work / "runtime")
        os.environ["ECOV_RUNTIME_DIR"] = str(runtime)
        os.environ["ECOV_OBJECTS_DIR"] = str(work / "objects")
        if not args.no_latency:
            engine_score(tasks[0], tasks[0].reference_tbs[0].content, work / "c-prime", UNITY)  # runtime + PCH
            for i, task in enumerate(tasks):
                tb = task.reference_tbs[0].content
                tb2 = perturb(tb, i, args.perturb)
                print(f"[{i + 1}/{len(tasks)}] {task.id}", file=sys.stderr, flush=True)
                if args.naive:
                    rows["naive"].append((naive(task, tb), {}))
                rows["unity"].append(engine_score(task, tb, work / f"c-unity{i}", UNITY))
                rows["new-design"].append(engine_score(task, tb, work / f"c-new{i}", NEW))
                rows["unity-tb"].append(engine_score(task, tb2, work / f"c-unity{i}", UNITY))
                rows["new-tb"].append(engine_score(task, tb2, work / f"c-new{i}", NEW))
                rows["new-seed"].append(engine_score(task, tb, work / f"c-new{i}", NEW, seed=2))
                rows["cache-hit"].append(engine_score(task, tb, work / f"c-new{i}", NEW))
                if args.ablations:
                    if i == 0:
                        os.environ["ECOV_RUNTIME_DIR"] = str(work / "rt-cold")
                        rows["cold"].append(engine_score(task, tb, work / "c-cold", UNITY))
                        os.environ["ECOV_RUNTIME_DIR"] = str(runtime)
                    rows["warm-nopch"].append(engine_score(task, tb, work / f"c-nopch{i}",
                                                           BuildOptions(use_pch=False, output_split=0, jobs=1)))
                    rows["warm-nort"].append(engine_score(
                        task, tb, work / f"c-nort{i}",
                        BuildOptions(use_pch=False, prebuilt_runtime=False, output_split=0, jobs=1)))
            report["latency"] = latency_table(rows, tasks)
        if args.load:
            report["load"] = load_mode(tasks[: args.load_tasks], args.load, args.per_task, work, args.perturb)
            print(f"\nload mode: {args.load} concurrent scores of distinct testbenches")
            print(f"{'flow':<8} {'builds':>6} {'wall s':>8} {'builds/min':>10} {'CPU s/build':>11} {'vs unity':>8}")
            for r in report["load"]:
                print(f"{r['mode']:<8} {r['builds']:6d} {r['wall_s']:8.1f} {r['builds_per_min']:10.1f} "
                      f"{r['cpu_s_per_build']:11.2f} {r['cpu_vs_unity']:8.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


def latency_table(rows: dict, tasks) -> dict:
    out: dict = {"modes": [], "per_task": []}
    print(f"\nengine latency on {len(tasks)} embedded tasks (wall seconds; phases and CPU seconds are medians)")
    print(f"{'mode':<11} {'median':>7} {'mean':>7} {'min':>6} {'max':>6} " + " ".join(f"{p:>8}" for p in PHASES))
    for mode, vals in rows.items():
        if not vals:
            continue
        secs = [v for v, _ in vals]
        ph = {p: statistics.median(d.get(p, 0.0) for _, d in vals) for p in PHASES}
        out["modes"].append({"mode": mode, "median_s": statistics.median(secs), "mean_s": statistics.mean(secs),
                             "min_s": min(secs), "max_s": max(secs), "phases_median_s": ph, "n": len(secs)})
        print(f"{mode:<11} {statistics.median(secs):7.2f} {statistics.mean(secs):7.2f} {min(secs):6.2f} "
              f"{max(secs):6.2f} " + " ".join(f"{ph[p]:8.2f}" for p in PHASES))
    if rows.get("new-tb") and rows.get("unity-tb"):
        def ratio(new: str, old: str, cpu: bool) -> list[float]:
            pick = (lambda r: r[1]["cpu"]) if cpu else (lambda r: r[0])
            return [pick(n) / pick(u) for n, u in zip(rows[new], rows[old], strict=True)]

        wall, cpu = ratio("new-tb", "unity-tb", False), ratio("new-tb", "unity-tb", True)
        out["per_task"] = [{"task": t.id, "unity_tb_s": u[0], "new_tb_s": n[0], "unity_tb_cpu": u[1]["cpu"],
                            "new_tb_cpu": n[1]["cpu"], "ratio_wall": w, "ratio_cpu": c}
                           for t, u, n, w, c in zip(tasks, rows["unity-tb"], rows["new-tb"], wall, cpu, strict=True)]
        for name, (new, old) in {"new_tb": ("new-tb", "unity-tb"), "new_design": ("new-design", "unity")}.items():
            w, c = statistics.median(ratio(new, old, False)), statistics.median(ratio(new, old, True))
            out[f"median_ratio_{name}_wall"], out[f"median_ratio_{name}_cpu"] = w, c
            print(f"{new} / {old}: median ratio wall {w:.3f}, CPU {c:.3f}")
        print("per task (wall, CPU): " + ", ".join(f"{t.id} {w:.2f}/{c:.2f}"
                                                   for t, w, c in zip(tasks, wall, cpu, strict=True)))
    return out


if __name__ == "__main__":
    main()
