"""Time the Pages workflow's ``build --verify`` of the shipped submissions, from empty caches, in one run.

Wall-clock figures of this build differ by more than 2x between the project's 2-core machines (the same
commit took 27:17 on one and 12:57 on another), so a figure means something only beside a baseline timed
on the same machine in the same run: ``--base COMMIT`` builds that commit's engine from a git worktree
first, and the ratio is printed. ``--warm`` times a second build of this tree that keeps ECov's build cache
(``~/.cache/ecov`` in the workflow: runtime, object cache, replay builds) but not the verify cache, as after
a new scorer version. Each build must verify every submission, and its ``verification.json`` files must
equal the committed ones but for ``created``; otherwise the script exits non-zero.

The machine's busy and steal CPU seconds come from ``/proc/stat``: the sandbox's PID namespace hides
the simulations and compiles from ``getrusage``.

    python3 benchmarks/perf/verify_build_perf.py --base 18b6584 --warm --out results-verify-build.json
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE_FOLDERS = ("harness", "leaderboard", "trainers", "benchmarks")  # mapped onto ecov.* by setup.py
VERIFIED = "verified, re-scored now"


@dataclass
class Timing:
    engine: str
    caches: str
    wall_s: float
    busy_cpu_s: float
    steal_cpu_s: float
    verified: int
    submissions: int
    committed_verifications: int
    identical_verifications: int


def cpu_ticks() -> tuple[int, int]:
    """(busy, steal) ticks of the whole machine since boot."""
    f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = f[:8]
    return user + nice + system + irq + softirq, steal


def same_verifications(submissions: Path, site: Path) -> int:
    """How many built verification.json files equal the committed ones, ``created`` aside."""
    same = 0
    for committed in sorted(submissions.glob("*/verification.json")):
        built = site / "s" / committed.parent.name / "data" / "verification.json"
        if not built.is_file():
            continue
        a, b = json.loads(committed.read_text()), json.loads(built.read_text())
        a.pop("created", None)
        b.pop("created", None)
        same += a == b
    return same


def build(cmd: list[str], env: dict[str, str], cwd: Path, submissions: Path, work: Path, cache: Path,
          engine: str, caches: str) -> Timing:
    site, vc = work / "site", work / "verify-cache"
    env = {**env, "ECOV_SANDBOX": "bwrap", "ECOV_CACHE_DIR": str(cache)}
    args = cmd + ["build", "--submissions", str(submissions), "--out", str(site), "--verify",
                  "--verify-cache", str(vc), "--jobs", "4"]
    busy0, steal0 = cpu_ticks()
    t0 = time.monotonic()
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    verified = 0
    for line in proc.stderr:  # the build's progress, shown as it goes
        verified += VERIFIED in line
        if line.startswith("[") or "verified by this build" in line:
            print(f"  {engine} ({caches}) {line.rstrip()}", file=sys.stderr, flush=True)
    if proc.wait() != 0:
        raise SystemExit(f"{engine}: the build exited with {proc.returncode}")
    wall = time.monotonic() - t0
    busy1, steal1 = cpu_ticks()
    hz = os.sysconf("SC_CLK_TCK")
    n = len([p for p in submissions.iterdir() if p.is_dir()])
    committed = len(list(submissions.glob("*/verification.json")))
    return Timing(engine, caches, round(wall, 1), round((busy1 - busy0) / hz, 1), round((steal1 - steal0) / hz, 1),
                  verified, n, committed, same_verifications(submissions, site))


def base_engine(commit: str, tmp: Path) -> tuple[list[str], dict[str, str], Path]:
    """A worktree of ``commit`` and an ``ecov`` namespace folder pointing at it, ahead of the editable install."""
    tree = tmp / "base-tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), commit], check=True,
                   stdout=subprocess.DEVNULL)
    shim = tmp / "base-path" / "ecov"
    shim.mkdir(parents=True)
    for folder in PACKAGE_FOLDERS:
        (shim / folder).symlink_to(tree / folder)
    env = {**os.environ, "PYTHONPATH": str(shim.parent)}
    cmd = [sys.executable, "-c", "import sys; from ecov.leaderboard.cli import main; "
                                 "sys.argv[0] = 'ecov-leaderboard'; main()"]
    return cmd, env, tree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--submissions", type=Path, default=REPO / "leaderboard" / "submissions")
    ap.add_argument("--base", help="a commit whose engine is timed first, on the same machine")
    ap.add_argument("--warm", action="store_true", help="also time a build that keeps ECov's build cache")
    ap.add_argument("--out", type=Path, help="write the timings here as JSON")
    a = ap.parse_args()
    subs = a.submissions.resolve()
    here = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    timings: list[Timing] = []
    with tempfile.TemporaryDirectory(prefix="ecov-verify-perf-") as t:
        tmp = Path(t)
        if a.base:
            cmd, env, tree = base_engine(a.base, tmp)
            try:
                timings.append(build(cmd, env, tree, subs, tmp / "base", tmp / "base-cache", a.base, "empty"))
            finally:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=False)
        cmd = [shutil.which("ecov-leaderboard") or "ecov-leaderboard"]
        timings.append(build(cmd, dict(os.environ), REPO, subs, tmp / "head", tmp / "head-cache", here, "empty"))
        if a.warm:
            timings.append(build(cmd, dict(os.environ), REPO, subs, tmp / "warm", tmp / "head-cache", here,
                                 "build cache kept"))
    ok = True
    for x in timings:
        m, s = divmod(round(x.wall_s), 60)
        print(f"{x.engine:>10} {x.caches:<17} {m}:{s:02d}  busy {x.busy_cpu_s:.0f} CPU-s, steal {x.steal_cpu_s:.0f}"
              f"  verified {x.verified}/{x.submissions}, verification.json as committed"
              f" {x.identical_verifications}/{x.committed_verifications}")
        ok &= x.verified == x.submissions and x.identical_verifications == x.committed_verifications
    if a.base:
        print(f"{timings[0].engine} / {here}, empty caches: {timings[0].wall_s / timings[1].wall_s:.2f}x")
    if a.out:
        a.out.write_text(json.dumps({"head": here, "cpus": os.cpu_count(), "timings": [asdict(x) for x in timings]},
                                    indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
