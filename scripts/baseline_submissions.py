"""Re-make the shipped baseline submissions (leaderboard/submissions/) from scratch: run each builtin model
with ecov-eval (resumable run folders under --runs), put the run in the submissions folder with its
metadata, and verify it; then write each benchmark's random_baseline.json from the same builtin/random runs.

    python scripts/baseline_submissions.py [--runs runs/baselines] [--only NAME ...] [--no-verify] [-j 2]

Run it after anything that changes a shipped benchmark's records (a reference, a target, an
instruction), its contracts, or the scoring: the runs carry the benchmark's dataset hash and, since
issue 22, the legal figures of every task with a contract.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUBMISSIONS = ROOT / "leaderboard" / "submissions"

RANDOM_AGENTIC = ("port-aware random stimulus; each agentic round appends a longer reseeded segment "
                  "(under the llm4cov protocol it sees no uncovered lines). No LLM.")
LEGAL_RANDOM = ("builtin/random's plan with each task's interface-contract constraints applied every cycle, "
                "the way a verification engineer writes constrained random (issue 22). No LLM.")
REFERENCE = "each task answered with the benchmark's own reference testbench (never shown to a model). No LLM."
# The bug hunt's rows (issue 31): direct, one sample per task (the stimulus of each is fixed by its seed).
BUGHUNT = {
    "builtin/random": "the bug hunt's floor: builtin/random's testbench has no checks, so it catches nothing "
                      "(kill rate 0 by construction, every sample scored). No LLM.",
    "builtin/golden-capture": "the bug hunt's oracle row: builtin/random's stimulus checked every cycle against "
                              "the outputs the golden design gave on it (the ceiling of checking random "
                              "stimulus; it reads the RTL, so it is a baseline, never a model). No LLM.",
    "builtin/reference": "the bug hunt's reference row: each task answered with its self-checking reference "
                         "(the kill-rate targets come from it; never shown to a model). No LLM.",
}


@dataclass(frozen=True)
class Baseline:
    name: str
    benchmark: str
    model: str
    mode: str
    n: int
    shown: str
    notes: str
    protocol: str = "llm4cov"


def _rows() -> list[Baseline]:
    out = []
    for bench, prefix, n_random, n_legal in (("ecov-embedded", "", 3, 3), ("cvdp-ecov", "cvdp-", 3, 1),
                                              ("autoeval-ecov", "autoeval-", 1, 1)):
        where = "" if bench == "ecov-embedded" else f" on {bench}"
        for mode in ("direct", "agentic"):
            shown = "agentic, 4 rounds" if mode == "agentic" else "direct"
            out.append(Baseline(f"{prefix}builtin-random-{mode}", bench, "builtin/random", mode, n_random,
                                f"builtin/random ({shown})",
                                f"ECov's naive random baseline{where} (n={n_random}): "
                                + (RANDOM_AGENTIC if mode == "agentic" else "one testbench per sample. No LLM.")))
            out.append(Baseline(f"{prefix}builtin-reference-{mode}", bench, "builtin/reference", mode, 1,
                                    f"builtin/reference ({shown})", f"The ceiling row{where}: {REFERENCE}"))
        out.append(Baseline(f"{prefix}builtin-legal-random-agentic", bench, "builtin/legal-random", "agentic",
                            n_legal, "builtin/legal-random (agentic, 4 rounds)",
                            f"The legal-random row{where} (n={n_legal}): {LEGAL_RANDOM}"))
        for model, notes in BUGHUNT.items():
            short = model.removeprefix("builtin/")
            out.append(Baseline(f"{prefix}bughunt-builtin-{short}-direct", bench, model, "direct", 1,
                                f"{model} (bug hunt, direct)", f"{notes[0].upper()}{notes[1:]}"[:-1] + where + ".",
                                protocol="bughunt"))
    return out


def _run(cmd: list[str]) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def make(b: Baseline, runs: Path, workers: int, verify: bool) -> None:
    run_dir = runs / b.name
    _run(["ecov-eval", "--model", b.model, "--mode", b.mode, "--protocol", b.protocol, "--benchmark", b.benchmark,
          "-n", str(b.n), "--seed", "1", "--workers", str(workers), "--concurrency", str(workers),
          "--out", str(run_dir), "--no-progress"])
    summary = json.loads((run_dir / "summary.json").read_text())
    if not summary.get("complete"):
        raise SystemExit(f"{b.name}: the run is not complete; run again to resume")
    old = SUBMISSIONS / b.name
    if old.exists():
        shutil.rmtree(old)
    _run(["ecov-leaderboard", "add", str(run_dir), "--name", b.name, "--model", b.shown, "--type", "baseline",
          "--notes", b.notes, "--archive", "--no-logs"])
    if verify:
        _run(["ecov-leaderboard", "verify", str(SUBMISSIONS / b.name), "-q", "-j", str(workers)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=Path, default=ROOT / "runs" / "baselines")
    ap.add_argument("--only", nargs="*", default=None, help="submission names (default: all)")
    ap.add_argument("-j", "--workers", type=int, default=2)
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the table and stop")
    args = ap.parse_args(argv)
    rows = [b for b in _rows() if not args.only or b.name in args.only]
    if args.list or not rows:
        for b in rows:
            print(f"{b.name:36} {b.benchmark:14} {b.model:22} {b.mode:8} n={b.n}")
        return 0 if rows else 2
    for b in rows:
        make(b, args.runs, args.workers, not args.no_verify)
    for bench in sorted({b.benchmark for b in rows}):  # the random floor beside every model: same runs
        direct, agentic = (next((b for b in _rows() if b.benchmark == bench and b.model == "builtin/random"
                                 and b.mode == m and b.protocol == "llm4cov"), None) for m in ("direct", "agentic"))
        if direct and agentic and (args.runs / direct.name).is_dir() and (args.runs / agentic.name).is_dir():
            _run(["ecov-data", "random-baseline", bench, "--from-runs", str(args.runs / direct.name),
                  str(args.runs / agentic.name)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
