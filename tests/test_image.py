"""The ECov image, for real: `docker build` (registry-free base, wheels from the host), `docker run ...
ecov-eval` prints the summary, and the container's figures equal this host's for the same testbench."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ecov.harness.sandbox.docker import BASE, build_image

pytestmark = pytest.mark.docker
REPO = Path(__file__).resolve().parents[1]
IMAGE = os.environ.get("ECOV_TEST_IMAGE", "ecov:latest")
TASK = "prio_encoder"


def _docker_ok() -> str:
    """'' when Docker can build the image here, else why not."""
    try:
        if subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode != 0:
            return "no Docker engine (start dockerd)"
        if subprocess.run(["docker", "image", "inspect", IMAGE], capture_output=True, timeout=20).returncode == 0:
            return ""
        if subprocess.run(["docker", "image", "inspect", BASE], capture_output=True, timeout=20).returncode != 0:
            return f"no registry-free base image {BASE} (run scripts/docker-base.sh) and no {IMAGE}"
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"docker unusable: {e}"
    return ""


@pytest.fixture(scope="module")
def image():
    why = _docker_ok()
    if why:
        pytest.skip(why)
    if subprocess.run(["docker", "image", "inspect", IMAGE], capture_output=True).returncode != 0:
        build_image(IMAGE)  # ~2 min on 2 cores: wheels from the host, pip install, Verilator runtime
    return IMAGE


def test_image_runs_ecov_eval_with_the_hosts_figures(image, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    os.chmod(runs, 0o777)
    proc = subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "-v", f"{runs}:/work/runs", image, "ecov-eval", "--model",
         "builtin/random", "--mode", "direct", "--task-id", TASK, "--no-progress"],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ECov evaluation: builtin/random" in proc.stdout and "pass %" in proc.stdout
    # The default Docker profile has no namespaces for bubblewrap: the harness must say so.
    assert "NOT isolated" in proc.stderr
    run = runs / "builtin-random_direct_ecov-embedded"
    inside = json.loads((run / "rounds.jsonl").read_text().splitlines()[0])["result"]
    assert inside["isolation"] == "rlimit"

    host_out = tmp_path / "host"
    env = {**os.environ, "PYTHONPATH": str(REPO), "ECOV_CACHE_DIR": str(tmp_path / "cache")}
    host = subprocess.run([sys.executable, "-c", "from ecov.harness.cli.eval import main; main()", "--model",
                           "builtin/random", "--mode", "direct", "--task-id", TASK, "--no-progress",
                           "--out", str(host_out)], env=env, capture_output=True, text=True, timeout=600)
    assert host.returncode == 0, host.stdout + host.stderr
    outside = json.loads((host_out / "rounds.jsonl").read_text().splitlines()[0])["result"]
    for key in ("status", "coverage", "overall", "uncovered", "uncovered_total"):
        assert inside[key] == outside[key], key
    # The cache key names the sandbox (a result computed under rlimit is never served as isolated).
    assert (inside["key"] == outside["key"]) == (inside["isolation"] == outside["isolation"])
    assert (run / "samples.jsonl").read_bytes() == (host_out / "samples.jsonl").read_bytes()


def test_image_runs_bwrap_when_allowed(image):
    """With seccomp and /proc unmasked, bubblewrap works inside the container (docs/scale.md)."""
    proc = subprocess.run(
        ["docker", "run", "--rm", "--security-opt", "seccomp=unconfined", "--security-opt",
         "systempaths=unconfined", image, "python3", "-c",
         "from ecov.harness.sandbox.factory import make_sandbox; print(make_sandbox('auto').name)"],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "bwrap"
