"""A real, small Ray cluster on 127.0.0.1 for tests and measurements: a head and worker nodes, each
started with `ray start`, stopped by process id (never `ray stop`, which would end every cluster of
the machine's user)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_exe() -> str:
    exe = shutil.which("ray") or str(Path(sys.executable).with_name("ray"))
    return exe


def cluster_processes(marker: str) -> list[int]:
    """PIDs of a cluster's processes: each inherits ``ECOV_TEST_RAY_CLUSTER=<marker>`` from `ray start`
    (environments survive Ray's process retitling, command lines do not)."""
    needle = f"ECOV_TEST_RAY_CLUSTER={marker}".encode()
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if needle in (d / "environ").read_bytes().split(b"\0"):
                out.append(int(d.name))
        except OSError:
            continue
    return out + _descendants(out)


def _descendants(roots: list[int]) -> list[int]:
    """Children of ``roots``, recursively (Ray's agents get a trimmed environment but are children)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], list(roots)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out and child not in roots:
                out.append(child)
                todo.append(child)
    return out


def task_processes(name: str = "score_job") -> list[int]:
    """Ray worker processes running a task now (Ray titles them ``ray::<function>``)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if cmd.startswith(f"ray::{name}"):
            out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class LocalCluster:
    """``nodes`` nodes of ``cpus_per_node`` CPUs each; workers see ``env`` (e.g. PYTHONPATH, caches)."""

    def __init__(self, nodes: int = 2, cpus_per_node: int = 1, env: dict[str, str] | None = None):
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        # Short: Ray puts unix sockets under it (108-byte limit).
        self.temp = tempfile.mkdtemp(prefix="ecovray", dir="/tmp")
        self.env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "PYTHONPATH": str(REPO),
                    **(env or {}), "ECOV_TEST_RAY_CLUSTER": self.temp}
        self.env.pop("RAY_ADDRESS", None)
        self.nodes = nodes
        self.cpus = cpus_per_node

    def _ray(self, *args: str) -> None:
        proc = subprocess.run([_ray_exe(), "start", *args, "--disable-usage-stats"], env=self.env,
                              capture_output=True, text=True, timeout=120)
        if proc.returncode:
            raise RuntimeError(f"ray start failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")

    def start(self) -> LocalCluster:
        try:
            self._ray("--head", "--node-ip-address=127.0.0.1", f"--port={self.port}", f"--num-cpus={self.cpus}",
                      "--include-dashboard=false", f"--temp-dir={self.temp}", "--num-gpus=0")
            for _ in range(self.nodes - 1):
                self._ray(f"--address={self.address}", "--node-ip-address=127.0.0.1", f"--num-cpus={self.cpus}",
                          "--num-gpus=0")
            self.wait_for_cpus(self.nodes * self.cpus)
        except BaseException:
            self.stop()
            raise
        return self

    def wait_for_cpus(self, cpus: int, timeout: float = 60) -> None:
        code = ("import ray,sys; ray.init(address=sys.argv[1], log_to_driver=False, configure_logging=False); "
                "print(int(ray.cluster_resources().get('CPU', 0)))")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run([sys.executable, "-c", code, self.address], env=self.env, capture_output=True,
                                 text=True, timeout=60)
            if out.returncode == 0 and out.stdout.strip().splitlines()[-1:] == [str(cpus)]:
                return
            time.sleep(1)
        raise RuntimeError(f"the Ray cluster at {self.address} did not reach {cpus} CPUs")

    def stop(self) -> None:
        pids: set[int] = set()
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 10)):
            pids |= set(cluster_processes(self.temp))  # the tree as it is now, before parents die
            for pid in pids:
                if _alive(pid):
                    try:
                        os.kill(pid, sig)
                    except ProcessLookupError:
                        pass
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and any(_alive(p) for p in pids):
                time.sleep(0.2)
        shutil.rmtree(self.temp, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
