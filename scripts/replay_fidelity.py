"""Fidelity of the trusted replay: every shipped testbench scored through the direct path (coverage counted
in the testbench's own process; ``Engine(direct=True)``, diagnostic only) and through the replay scoring,
compared point by point (covered / uncovered, not raw counts), with the overall %, the status and the
contract's legal figures.

Testbenches: every reference testbench of the shipped benchmarks (ecov-embedded, cvdp-ecov, autoeval-ecov)
and every distinct testbench in the shipped baseline submissions (leaderboard/submissions/*/run.tar.gz),
each at its run's seed. One JSON line per testbench in OUT (resumable: lines already there are skipped),
progress on stderr. Plan for hours on a shared 2-core machine; run it under nohup.

Usage: python scripts/replay_fidelity.py OUT.jsonl [--only refs|baselines] [--bench NAME] [--limit N] [-j N]
       python scripts/replay_fidelity.py --summary OUT.jsonl
       python scripts/replay_fidelity.py --runs OLD_SUBMISSIONS NEW_RUNS

``--runs`` needs no simulation: it compares, testbench by testbench, the shipped submissions made on the
direct path (OLD_SUBMISSIONS/NAME/run.tar.gz) with the same baselines re-made through the replay
(NEW_RUNS/NAME/, scripts/baseline_submissions.py --runs): a builtin model's testbenches are a pure function
of the task and seed, so each one is in both. Compared: status, overall %, coverage per metric and the
uncovered points; legal figures are left out (the contracts changed between the two).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tarfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCHMARKS = ("ecov-embedded", "cvdp-ecov", "autoeval-ecov")


def items(only: str | None, bench: str | None) -> list[dict]:
    """(source, benchmark, task, name, testbench, seed) of every testbench to compare, references first."""
    from ecov.harness.benchmark.store import load_benchmark

    out: list[dict] = []
    if only in (None, "refs"):
        for b in BENCHMARKS:
            if bench and b != bench:
                continue
            for task in load_benchmark(b):
                for tb in task.reference_tbs:
                    out.append({"source": "reference", "bench": b, "task": task.id, "name": tb.name,
                                "tb": tb.content, "seed": 1})
    if only in (None, "baselines"):
        seen = set()
        for sub in sorted((REPO / "leaderboard" / "submissions").glob("*/run.tar.gz")):
            with tarfile.open(sub) as tf:
                names = tf.getnames()
                cfg = json.load(tf.extractfile(next(n for n in names if n.endswith("config.json"))))
                if cfg.get("tb_lang", "sv") != "sv" or (bench and cfg["benchmark"] != bench):
                    continue
                rounds = tf.extractfile(next(n for n in names if n.endswith("rounds.jsonl")))
                for line in rounds:
                    r = json.loads(line)
                    key = (cfg["benchmark"], r["task_id"], r.get("testbench"), cfg["seed"])
                    if not r.get("testbench") or key in seen:
                        continue
                    seen.add(key)
                    out.append({"source": f"baseline:{sub.parent.name}", "bench": cfg["benchmark"], "task": r["task_id"],
                                "name": f"s{r['sample']}r{r['round']}", "tb": r["testbench"], "seed": cfg["seed"]})
    for it in out:
        it["key"] = hashlib.sha256(json.dumps([it["bench"], it["task"], it["tb"], it["seed"]]).encode()).hexdigest()[:24]
    return out


def points(res) -> set[tuple]:
    return {(u.instance, u.metric, u.file, u.line, u.detail) for u in res.uncovered}


def legal_view(res) -> dict:
    lg = res.legal or {}
    v = lg.get("violation") or {}
    return {"rule": v.get("rule"), "time_ns": v.get("time_ns"), "violations": lg.get("violations"),
            "bins": lg.get("bins"), "bins_all": lg.get("bins_all"), "overall": lg.get("overall")}


def compare(d, r) -> list[str]:
    diffs = []
    if d.status != r.status:
        diffs.append("status")
    if d.overall != r.overall:
        diffs.append("overall")
    if d.coverage != r.coverage:
        diffs.append("coverage")
    if points(d) != points(r) or d.uncovered_total != r.uncovered_total:
        diffs.append("points")
    if legal_view(d) != legal_view(r):
        diffs.append("legal")
    return diffs


def run(out_path: Path, only: str | None, bench: str | None, limit: int | None, jobs: int = 1) -> None:
    from ecov.harness.benchmark.store import load_benchmark
    from ecov.harness.scoring.config import EngineConfig
    from ecov.harness.tracks.sv.scorer import Engine

    done = set()
    if out_path.exists():
        done = {json.loads(line)["key"] for line in out_path.read_text().splitlines() if line.strip()}
    todo = [it for it in items(only, bench) if it["key"] not in done][:limit]
    tasks = {b: {t.id: t for t in load_benchmark(b)} for b in BENCHMARKS}
    # The direct side may come from the score cache (its code is unchanged); the replay side never does.
    direct = Engine(EngineConfig(max_uncovered=10**6), direct=True)
    replay = Engine(EngineConfig(max_uncovered=10**6, use_cache=False))
    print(f"{len(todo)} testbenches to compare ({len(done)} done before)", file=sys.stderr, flush=True)

    def one(it: dict) -> dict:
        design = tasks[it["bench"]][it["task"]].design
        t0 = time.monotonic()
        d = direct.score(design, it["tb"], seed=it["seed"])
        t1 = time.monotonic()
        r = replay.score(design, it["tb"], seed=it["seed"])
        t2 = time.monotonic()
        diffs = compare(d, r)
        return {"key": it["key"], "source": it["source"], "bench": it["bench"], "task": it["task"],
                "name": it["name"], "seed": it["seed"], "status": [d.status, r.status],
                "overall": [d.overall, r.overall], "diffs": diffs,
                "only_direct_uncovered": sorted(points(d) - points(r))[:50],
                "only_replay_uncovered": sorted(points(r) - points(d))[:50],
                "legal": [legal_view(d), legal_view(r)] if "legal" in diffs else None,
                "errors": [d.errors[:2], r.errors[:2]] if "status" in diffs else None,
                "seconds": [round(t1 - t0, 2), round(t2 - t1, 2)], "cached_direct": d.cached}

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:  # each score is its own subprocesses
        for i, row in enumerate(pool.map(one, todo)):
            with out_path.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(f"[{i + 1}/{len(todo)}] {row['bench']} {row['task']} {row['name']} {row['status'][0]}/"
                  f"{row['status'][1]} {row['overall'][0]}/{row['overall'][1]} "
                  f"{'SAME' if not row['diffs'] else 'DIFF ' + ','.join(row['diffs'])} "
                  f"({row['seconds'][0]}+{row['seconds'][1]} s)", file=sys.stderr, flush=True)


def summary(out_path: Path) -> int:
    rows = [json.loads(line) for line in out_path.read_text().splitlines() if line.strip()]
    by = Counter()
    for r in rows:
        kind = "reference" if r["source"] == "reference" else "baseline"
        by[(kind, "total")] += 1
        by[(kind, "same" if not r["diffs"] else "differ")] += 1
        for d in r["diffs"]:
            by[(kind, d)] += 1
    for kind in ("reference", "baseline"):
        print(f"{kind}: {by[(kind, 'total')]} compared, {by[(kind, 'same')]} identical, {by[(kind, 'differ')]} differ "
              f"(status {by[(kind, 'status')]}, overall {by[(kind, 'overall')]}, points {by[(kind, 'points')]}, "
              f"legal {by[(kind, 'legal')]})")
    for r in rows:
        if r["diffs"]:
            print(f"  DIFF {r['source']} {r['bench']} {r['task']} {r['name']}: {r['diffs']} status {r['status']} "
                  f"overall {r['overall']} only-direct-uncovered {r['only_direct_uncovered'][:3]} "
                  f"only-replay-uncovered {r['only_replay_uncovered'][:3]}")
    return 1 if any(r["diffs"] for r in rows) else 0


def _rounds_of(folder: Path) -> tuple[dict, list[dict]]:
    """A run's config and rounds, from a run folder or a submission's run.tar.gz."""
    if (folder / "run.tar.gz").exists():
        with tarfile.open(folder / "run.tar.gz") as tf:
            names = tf.getnames()
            cfg = json.load(tf.extractfile(next(n for n in names if n.endswith("config.json"))))
            lines = tf.extractfile(next(n for n in names if n.endswith("rounds.jsonl"))).read().decode()
    else:
        cfg = json.loads((folder / "config.json").read_text())
        lines = (folder / "rounds.jsonl").read_text()
    return cfg, [json.loads(line) for line in lines.splitlines() if line.strip()]


def _tb_key(testbench: str) -> str:
    """A testbench without builtin/random's header comment (its round became 1-based between the two)."""
    return "\n".join(line for line in testbench.splitlines() if not line.startswith("// task "))


def _figures(result: dict) -> dict:
    return {"status": result.get("status"), "overall": result.get("overall"), "coverage": result.get("coverage"),
            "uncovered": sorted(json.dumps(u, sort_keys=True) for u in result.get("uncovered") or []),
            "uncovered_total": result.get("uncovered_total")}


def compare_runs(old_root: Path, new_root: Path) -> int:
    """Testbench by testbench: the direct path's figures (old submissions) against the replay's (new runs)."""
    total = same = 0
    diffs: Counter = Counter()
    for new in sorted(p for p in new_root.iterdir() if (p / "rounds.jsonl").exists()):
        old = old_root / new.name
        if not (old / "run.tar.gz").exists():
            continue
        cfg_old, old_rounds = _rounds_of(old)
        cfg_new, new_rounds = _rounds_of(new)
        if cfg_old.get("seed") != cfg_new.get("seed"):
            continue
        before = {(r["task_id"], _tb_key(r["testbench"])): _figures(r.get("result") or {}) for r in old_rounds if r.get("testbench")}
        seen, n, ok = set(), 0, 0
        for r in new_rounds:
            if not r.get("testbench"):
                continue
            key = (r["task_id"], _tb_key(r["testbench"]))
            if key in seen or key not in before:
                continue
            seen.add(key)
            n += 1
            a, b = before[key], _figures(r.get("result") or {})
            bad = [k for k in a if a[k] != b[k]]
            ok += not bad
            for k in bad:
                diffs[k] += 1
            if bad:
                print(f"  DIFF {new.name} {key[0]}: {bad} overall {a['overall']} -> {b['overall']}")
        print(f"{new.name}: {n} distinct testbenches in both, {ok} identical")
        total, same = total + n, same + ok
    print(f"all: {total} testbenches, {same} identical, {total - same} differ {dict(diffs)}")
    return 1 if total != same else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path, nargs="?")
    ap.add_argument("--runs", type=Path, nargs=2, metavar=("OLD_SUBMISSIONS", "NEW_RUNS"))
    ap.add_argument("--only", choices=("refs", "baselines"))
    ap.add_argument("--bench", choices=BENCHMARKS)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="testbenches compared at once")
    a = ap.parse_args()
    if a.runs:
        sys.exit(compare_runs(*a.runs))
    if a.out is None:
        ap.error("OUT.jsonl is required")
    if a.summary:
        sys.exit(summary(a.out))
    run(a.out, a.only, a.bench, a.limit, a.jobs)


if __name__ == "__main__":
    main()
