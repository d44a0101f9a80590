"""The measured legal-stimulus table of docs/benchmarks.md (issue 22), from the shipped baseline submissions.

    python scripts/legal_table.py [--submissions leaderboard/submissions] [--per-task]

For each benchmark, the agentic llm4cov runs of builtin/random, builtin/legal-random and builtin/reference:
on the tasks that carry an interface contract, legal pass (paper pass on the same tasks), as counts of
tasks (a task counts by the mean of its samples, as summary.json's pass rates do), beside the number of
rules and functional bins the contracts hold. The "all" row pools the tasks of every benchmark.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tarfile
from collections import defaultdict
from pathlib import Path

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.contracts.spec import meta_of

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = (("ecov-embedded", ""), ("cvdp-ecov", "cvdp-"), ("autoeval-ecov", "autoeval-"))
MODELS = ("random", "legal-random", "reference")


def _samples(folder: Path) -> list[dict]:
    """samples.jsonl of a submission, folder or archive form."""
    if (folder / "run" / "samples.jsonl").is_file():
        text = (folder / "run" / "samples.jsonl").read_text()
    else:
        with tarfile.open(folder / "run.tar.gz") as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("samples.jsonl"))
            text = io.TextIOWrapper(tar.extractfile(member)).read()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def per_task(samples: list[dict]) -> dict[str, tuple[float, float]]:
    """task -> (legal pass, paper pass), each the mean over the task's samples, for tasks with a contract."""
    acc: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for s in samples:
        if s.get("contract"):
            acc[s["task_id"]].append((s.get("legal_passed_round") is not None, bool(s.get("passed"))))
    return {t: (sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v)) for t, v in acc.items()}


def contract_sizes(bench: str) -> dict[str, tuple[int, int]]:
    """task -> (rules, kept bins) of every task of ``bench`` that ships a contract."""
    out = {}
    for t in load_benchmark(bench):
        if t.contract is not None:
            meta = meta_of(t.contract)
            out[t.id] = (len(meta.rules), len(meta.bins))
    return out


def _n(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--submissions", type=Path, default=ROOT / "leaderboard" / "submissions")
    ap.add_argument("--per-task", action="store_true")
    args = ap.parse_args(argv)
    rows, pooled = [], {m: [0.0, 0.0, 0] for m in MODELS}
    tasks_by_model: dict[str, dict[str, tuple[float, float]]] = {m: {} for m in MODELS}
    sizes: dict[str, tuple[int, int]] = {}
    for bench, prefix in BENCHMARKS:
        bench_sizes = contract_sizes(bench)
        sizes.update({f"{bench}/{t}": v for t, v in bench_sizes.items()})
        cells = []
        n_tasks = None
        for m in MODELS:
            folder = args.submissions / f"{prefix}builtin-{m}-agentic"
            if not folder.is_dir():
                cells.append("–")
                continue
            got = per_task(_samples(folder))
            tasks_by_model[m].update({f"{bench}/{t}": v for t, v in got.items()})
            legal, paper = sum(v[0] for v in got.values()), sum(v[1] for v in got.values())
            n_tasks = len(got)
            pooled[m][0] += legal
            pooled[m][1] += paper
            pooled[m][2] += len(got)
            cells.append(f"{_n(legal)}/{len(got)} = {100 * legal / max(1, len(got)):.1f}% ({_n(paper)}/{len(got)})")
        rows.append((bench, n_tasks, cells, bench_sizes))
    print("| | tasks with a contract | rules | bins | builtin/random legal pass (paper pass) | builtin/legal-random "
          "legal pass (paper pass) | builtin/reference legal pass (paper pass) |")
    print("|---|---|---|---|---|---|---|")
    for bench, n, cells, bs in rows:
        rb = f"{sum(r for r, _ in bs.values())} | {sum(b for _, b in bs.values())}"
        print(f"| {bench} | {n if n is not None else '–'} | {rb} | " + " | ".join(cells) + " |")
    cells = [f"**{_n(v[0])}/{v[2]} = {100 * v[0] / max(1, v[2]):.1f}%** ({_n(v[1])}/{v[2]})" for v in pooled.values()]
    rb = f"{sum(r for r, _ in sizes.values())} | {sum(b for _, b in sizes.values())}"
    print(f"| all | {pooled['reference'][2] or pooled['random'][2]} | {rb} | " + " | ".join(cells) + " |")
    if args.per_task:
        print("\n| task | rules | bins | random legal/paper | legal-random legal/paper | reference legal/paper |\n"
              "|---|---|---|---|---|---|")
        for t in sorted(set().union(*tasks_by_model.values())):
            r, b = sizes.get(t, ("–", "–"))
            print(f"| {t} | {r} | {b} | " + " | ".join(
                "{:.2g} / {:.2g}".format(*tasks_by_model[m][t]) if t in tasks_by_model[m] else "–"
                for m in MODELS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
