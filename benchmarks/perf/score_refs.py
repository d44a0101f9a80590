"""Score every reference testbench of a benchmark, one build at a time, one JSON per task (resumable).

Used to check that an engine change leaves every figure unchanged: run it with the old and the new
engine into two folders, then `--compare OLD NEW` (figures = coverage, overall, status, uncovered,
uncovered_total, errors).

Usage: python benchmarks/perf/score_refs.py BENCHMARK OUT_DIR [--limit N]
       python benchmarks/perf/score_refs.py --compare OLD_DIR NEW_DIR
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

FIGURES = ("status", "coverage", "overall", "uncovered", "uncovered_total", "errors")


def score_all(bench: str, out: Path, limit: int | None) -> None:
    from ecov.harness.benchmark.store import load_benchmark
    from ecov.harness.scoring.config import EngineConfig
    from ecov.harness.tracks.sv.scorer import Engine

    out.mkdir(parents=True, exist_ok=True)
    eng = Engine(EngineConfig(use_cache=False))
    tasks = [t for t in load_benchmark(bench) if t.reference_tbs][:limit]
    for i, task in enumerate(tasks):
        path = out / f"{task.id.replace('/', '_')}.json"
        if path.exists():
            continue
        rows = []
        for tb in task.reference_tbs:
            res = eng.score(task.design, tb.content)
            rows.append(res.to_dict())
        path.write_text(json.dumps(rows, sort_keys=True, indent=1))
        print(f"[{i + 1}/{len(tasks)}] {task.id} {[r['status'] for r in rows]} {[r['overall'] for r in rows]}",
              file=sys.stderr, flush=True)


def compare(old: Path, new: Path) -> int:
    bad = 0
    names = sorted(p.name for p in old.glob("*.json"))
    for name in names:
        other = new / name
        if not other.exists():
            print(f"MISSING {name}")
            bad += 1
            continue
        a, b = json.loads((old / name).read_text()), json.loads(other.read_text())
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            diff = [k for k in FIGURES if x.get(k) != y.get(k)]
            if diff or len(a) != len(b):
                bad += 1
                print(f"DIFF {name}[{i}]: {diff}")
    print(f"{len(names)} tasks compared, {bad} differ")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("args", nargs=2)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--compare", action="store_true")
    a = ap.parse_args()
    if a.compare:
        sys.exit(compare(Path(a.args[0]), Path(a.args[1])))
    score_all(a.args[0], Path(a.args[1]), a.limit)


if __name__ == "__main__":
    main()
