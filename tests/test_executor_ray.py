"""Scoring on a real Ray cluster: two local nodes (`ray start` on 127.0.0.1, one CPU each), real
Verilator builds on their workers, a worker killed mid-build, the driver killed mid-run and resumed; the
run folder's figures must equal a local run's, byte for byte (timing fields aside)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ecov.harness.scoring.executor import ExecutorError, RayExecutor
from tests.ray_cluster import REPO, LocalCluster, task_processes

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'ecov[ray]' (CI installs it)")

TASKS = ("prio_encoder", "updown_counter", "seq_detector")
N = 2  # direct mode: one build per sample, 6 per run (agentic mode goes through the same scorer)
TIMING = ("seconds", "cached", "updated", "phases")  # phases: per-step wall times


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    worker_cache = tmp_path_factory.mktemp("worker-cache")  # cold: the first run builds on the workers
    with LocalCluster(nodes=2, cpus_per_node=1, env={"ECOV_CACHE_DIR": str(worker_cache)}) as c:
        yield c


def _env(cache: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "ECOV_CACHE_DIR": str(cache), "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    return env


def _eval_cmd(out: Path, *extra: str) -> list[str]:
    ids = [a for t in TASKS for a in ("--task-id", t)]
    return [sys.executable, "-c", "from ecov.harness.cli.eval import main; main()", "--model", "builtin/random",
            "--mode", "direct", "-n", str(N), *ids, "--out", str(out), "--no-progress", *extra]


def _strip(d):
    if isinstance(d, dict):
        return {k: _strip(v) for k, v in d.items() if k not in TIMING}
    if isinstance(d, list):
        return [_strip(v) for v in d]
    return d


def _figures(run: Path) -> tuple[list[str], list[str], dict]:
    """samples.jsonl lines as written (sorted: workers finish in any order), rounds without timing,
    and the summary without timing."""
    samples = sorted((run / "samples.jsonl").read_text().splitlines())
    rounds = sorted(json.dumps(_strip(json.loads(line)), sort_keys=True)
                    for line in (run / "rounds.jsonl").read_text().splitlines())
    return samples, rounds, _strip(json.loads((run / "summary.json").read_text()))


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("local")
    out = tmp / "run"
    proc = subprocess.run(_eval_cmd(out, "--workers", "2"), env=_env(tmp / "cache"), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


class _Killer(threading.Thread):
    """Kills the first Ray worker seen scoring a testbench, a moment into its build."""

    def __init__(self):
        super().__init__(daemon=True)
        self.killed: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set() and not self.killed:
            pids = task_processes("score_job")
            if pids:
                time.sleep(0.3)  # inside verilator / g++ by now
                try:
                    os.kill(pids[0], signal.SIGKILL)
                    self.killed.append(pids[0])
                except ProcessLookupError:
                    continue
            time.sleep(0.05)


def test_ray_run_equals_local_run_despite_killed_worker_and_driver(cluster, local_run, tmp_path):
    out = tmp_path / "run"
    cmd = _eval_cmd(out, "--executor", "ray", "--ray-address", cluster.address)
    env = _env(tmp_path / "driver-cache")

    killer = _Killer()
    killer.start()
    driver = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The driver itself dies once two samples are recorded: the next invocation must resume.
    deadline = time.monotonic() + 300
    samples = out / "samples.jsonl"
    while driver.poll() is None and time.monotonic() < deadline:
        if samples.exists() and len(samples.read_text().splitlines()) >= 2 and killer.killed:
            driver.send_signal(signal.SIGKILL)
            break
        time.sleep(0.05)
    first_output = driver.communicate(timeout=60)[0]
    killer.done.set()
    assert killer.killed, "no Ray worker was seen scoring: " + first_output[-2000:]
    assert driver.returncode == -signal.SIGKILL, (
        "the run ended before the driver could be killed mid-run:\n" + first_output[-3000:])
    recorded = len(samples.read_text().splitlines())
    assert 2 <= recorded < len(TASKS) * N

    resumed = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"{len(TASKS) * N - recorded} samples run now, {recorded} already done" in resumed.stdout
    assert "executor: ray (2 CPUs" in resumed.stderr, resumed.stderr

    ray_samples, ray_rounds, ray_summary = _figures(out)
    local_samples, local_rounds, local_summary = _figures(local_run)
    assert len(ray_samples) == len(TASKS) * N  # each sample recorded once
    assert ray_samples == local_samples  # byte-identical lines
    assert ray_rounds == local_rounds
    assert ray_summary == local_summary
    assert json.loads((out / "config.json").read_text())["extra"]["executor"] == "ray"


def test_verify_on_ray_rescores_a_local_run(cluster, local_run, tmp_path):
    """ecov-leaderboard verify --executor ray: every testbench built again on the cluster, all equal."""
    subs = tmp_path / "subs"
    env = _env(tmp_path / "cache")
    lb = [sys.executable, "-c", "from ecov.leaderboard.cli import main; main()"]
    add = subprocess.run([*lb, "add", str(local_run), "--name", "local", "--model", "random", "--type", "baseline",
                          "--submissions", str(subs)], env=env, capture_output=True, text=True, timeout=120)
    assert add.returncode == 0, add.stdout + add.stderr
    ver = subprocess.run([*lb, "verify", str(subs / "local"), "--executor", "ray", "--ray-address", cluster.address,
                          "--json", "--no-write", "-q"], env=env, capture_output=True, text=True, timeout=600)
    assert ver.returncode == 0, ver.stdout + ver.stderr
    report = json.loads(ver.stdout)
    assert report["verdict"] == "verified", report
    rounds = [json.loads(line) for line in (local_run / "rounds.jsonl").read_text().splitlines()]
    assert report["scored"] == len({(r["task_id"], r["testbench"]) for r in rounds if r["testbench"]})


def test_workers_that_score_differently_are_refused(cluster, tmp_path):
    """A worker with another Verilator/compiler/scoring version must not contribute figures."""
    from ecov.harness.scoring.config import EngineConfig
    from ecov.harness.tracks.sv.scorer import Engine

    engine = Engine(EngineConfig(cache_dir=tmp_path))
    ex = RayExecutor(engine, cluster.address)
    try:
        assert ex.parallelism == 2
        with pytest.raises(ExecutorError, match="would score differently"):
            ex._check({**ex._expected, "backend": "verilator 4.0"}, "node:1")
        rejected = ex.score(engine_design(), "module tb; initial $system(\"ls\"); endmodule", 1)
        assert rejected.status == "rejected" and ex.dispatched == 0  # answered by the driver, not a worker
    finally:
        ex.close()
    assert not ray.is_initialized()


def engine_design():
    from ecov.harness.benchmark.store import load_benchmark

    return next(t for t in load_benchmark(None) if t.id == "prio_encoder").design
