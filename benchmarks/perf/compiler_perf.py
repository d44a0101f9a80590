"""g++ against clang for the models ECov compiles, in one run: CPU per build and the figures, side by side.

Takes a systematic sample of the distinct testbenches of the shipped submissions (coverage rows), and scores
each twice, interleaved, once per compiler, each compiler with its own runtime folder (PCH, prebuilt
harness mains), object cache and replay models, all empty at the start. The score cache is off and the
``rlimit`` sandbox is used (bubblewrap's PID namespace hides the children's CPU from getrusage). Prints
the CPU seconds and the compile phase per build (medians), their ratios, and whether every figure is the
same (``ScoreResult.to_dict(timing=False)`` without the cache key, which names the compiler).

Usage: python benchmarks/perf/compiler_perf.py [--every 40] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.verilator import CLANG
from ecov.harness.tracks.sv.scorer import Engine

ROOT = Path(__file__).resolve().parents[2]
ROWS = ("builtin-random-agentic", "builtin-legal-random-agentic", "cvdp-builtin-random-agentic",
        "cvdp-builtin-legal-random-agentic", "cvdp-builtin-reference-agentic", "autoeval-builtin-random-agentic",
        "autoeval-builtin-reference-direct")


def testbenches(every: int) -> list[tuple[str, object, str, int]]:
    """(row, task, testbench, seed): every ``every``-th distinct testbench of the rows above."""
    out, seen = [], set()
    for row in ROWS:
        with tarfile.open(ROOT / "leaderboard" / "submissions" / row / "run.tar.gz") as tar:
            member = lambda name: next(m for m in tar.getmembers() if m.name.endswith(name))  # noqa: E731
            config = json.loads(tar.extractfile(member("config.json")).read())
            rounds = [json.loads(line) for line in tar.extractfile(member("rounds.jsonl"))]
        tasks = {t.id: t for t in load_benchmark(config["benchmark"])}
        for r in rounds:
            key = (r["task_id"], r.get("testbench"))
            if r.get("testbench") and key not in seen:
                seen.add(key)
                out.append((row, tasks[r["task_id"]], r["testbench"], int(config.get("seed", 1))))
    return out[::every]


def cpu() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    compilers = {"g++": shutil.which("g++"), "clang": shutil.which(CLANG)}
    if not all(compilers.values()):
        print(f"needs g++ and {CLANG} on PATH", file=sys.stderr)
        return 2
    sample = testbenches(args.every)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="ecov-compiler-perf-") as tmp:
        engines = {}
        for name, path in compilers.items():
            os.environ["ECOV_CXX"] = path
            os.environ["ECOV_OBJECTS_DIR"] = str(Path(tmp) / name / "objects")
            engines[name] = Engine(EngineConfig(cache_dir=Path(tmp) / name, use_cache=False, sandbox="rlimit"))
            engines[name].backend.runtime.ensure()  # the one-time runtime build is not a build's cost
        for i, (row, task, tb, seed) in enumerate(sample, 1):
            got = {}
            for name, path in compilers.items():
                os.environ["ECOV_CXX"] = path
                os.environ["ECOV_OBJECTS_DIR"] = str(Path(tmp) / name / "objects")
                c0, t0 = cpu(), time.monotonic()
                res = engines[name].score(task.design, tb, seed=seed)
                got[name] = (res, cpu() - c0, time.monotonic() - t0)
            figures = [got[n][0].to_dict(timing=False) for n in compilers]
            for f in figures:
                f.pop("key", None)
            rows.append({"row": row, "task": task.id, "same_figures": figures[0] == figures[1],
                         "status": got["clang"][0].status,
                         **{f"{n}_cpu": round(got[n][1], 3) for n in compilers},
                         **{f"{n}_compile": got[n][0].phases.get("compile", 0.0) for n in compilers},
                         **{f"{n}_replay_build": got[n][0].phases.get("replay_build", 0.0) for n in compilers}})
            print(f"[{i}/{len(sample)}] {row} {task.id}: {rows[-1]}", file=sys.stderr, flush=True)
    med = {k: statistics.median(r[k] for r in rows) for k in ("g++_cpu", "clang_cpu", "g++_compile", "clang_compile")}
    summary = {"testbenches": len(rows), "same_figures": sum(r["same_figures"] for r in rows),
               **{f"median_{k}": round(v, 3) for k, v in med.items()},
               "cpu_ratio_gxx_over_clang": round(med["g++_cpu"] / med["clang_cpu"], 2),
               "compile_ratio_gxx_over_clang": round(med["g++_compile"] / med["clang_compile"], 2)}
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    return 0 if summary["same_figures"] == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
