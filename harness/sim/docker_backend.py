"""The Docker sandbox: each step in a fresh container of the project's image.

No network, a pids limit, a memory limit, the job folder as the only writable mount, the simulation as
uid 65534. The host's Verilator and runtime folder are mounted read-only at the same paths, so the same
binaries and flags produce the same figures as the other sandboxes.
"""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

from harness.sim.sandbox import Limits, ProcResult, Sandbox

IMAGE = "ecov-sim:latest"
BASE = "ecov-base:bookworm"


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def docker_client():
    try:
        import docker
    except ImportError as exc:  # pragma: no cover - docker is a core dependency
        raise RuntimeError("the 'docker' Python package is not installed") from exc
    try:
        client = docker.from_env()
        client.ping()
    except Exception as exc:
        raise RuntimeError(f"no Docker engine reachable ({exc}); start dockerd or use --sandbox bwrap") from exc
    return client


def ensure_image(client, image: str = IMAGE) -> str:
    """Build the image from the project's Dockerfile if it is missing."""
    import docker

    try:
        client.images.get(image)
        return image
    except docker.errors.ImageNotFound:
        pass
    dockerfile = repo_root() / "Dockerfile"
    if not dockerfile.exists():
        raise RuntimeError(f"image {image} is missing and no Dockerfile was found at {dockerfile}")
    buildargs = {}
    try:
        client.images.get(BASE)
        buildargs["BASE"] = BASE
    except docker.errors.ImageNotFound:
        pass
    client.images.build(path=str(repo_root()), dockerfile="Dockerfile", tag=image, buildargs=buildargs, rm=True)
    return image


class DockerSandbox(Sandbox):
    name = "docker"
    isolated = True

    def __init__(self, image: str = IMAGE):
        self.client = docker_client()
        self.image = ensure_image(self.client, image)

    def run(self, argv, workdir, limits: Limits, *, untrusted, ro_paths=(), rw_paths=(), env=None):
        import docker

        wd = str(workdir)
        if untrusted:
            from harness.sim.sandbox import _open_for_nobody

            _open_for_nobody(Path(workdir))
        volumes = {p: {"bind": p, "mode": "ro"} for p in ro_paths}
        volumes.update({p: {"bind": p, "mode": "rw"} for p in rw_paths})
        volumes[wd] = {"bind": wd, "mode": "rw"}
        start = time.monotonic()
        container = self.client.containers.create(
            self.image, command=list(argv), working_dir=wd, environment=self._env(env), volumes=volumes,
            network_disabled=True, network_mode="none", mem_limit=f"{limits.memory_mb}m",
            pids_limit=limits.processes if untrusted else 1024, user="65534:65534" if untrusted else "0:0",
            cap_drop=["ALL"], security_opt=["no-new-privileges"], read_only=True,
            tmpfs={"/tmp": "rw,size=512m"}, ulimits=_ulimits(limits),
            log_config=docker.types.LogConfig(type="json-file", config={"max-size": "10m"}),
        )
        timed_out = False
        chunks: list[bytes] = []
        size = [0]
        capped = threading.Event()

        def pump() -> None:
            """Reads output as it comes, so an endless printer is stopped at the cap, not at the clock."""
            for chunk in container.logs(stream=True, follow=True):
                if size[0] < limits.output_bytes:
                    chunks.append(chunk[: limits.output_bytes - size[0]])
                size[0] += len(chunk)
                if size[0] > limits.output_bytes:
                    capped.set()
                    _quiet_kill(container)
                    return

        try:
            container.start()
            reader = threading.Thread(target=pump, daemon=True)
            reader.start()
            try:
                status = container.wait(timeout=limits.wall_seconds)
                code = int(status.get("StatusCode", 1))
            except Exception:  # requests' ReadTimeout: the wall clock ran out
                timed_out = not capped.is_set()
                _quiet_kill(container)
                code = -9
            reader.join(timeout=10)
        finally:
            container.remove(force=True)
        if code == 137:  # killed: by the memory limit, or by us at the output cap
            code = -9
        return ProcResult(
            returncode=code, output=b"".join(chunks).decode(errors="replace"),
            timed_out=timed_out, output_capped=capped.is_set(), seconds=time.monotonic() - start,
        )


def _quiet_kill(container) -> None:
    try:
        container.kill()
    except Exception:  # already gone
        pass


def _ulimits(limits: Limits):
    import docker

    fsize = limits.file_mb * 1024 * 1024
    return [docker.types.Ulimit(name="cpu", soft=limits.cpu_seconds, hard=limits.cpu_seconds + 5),
            docker.types.Ulimit(name="fsize", soft=fsize, hard=fsize),
            docker.types.Ulimit(name="core", soft=0, hard=0)]


def docker_available() -> bool:
    try:
        docker_client()
    except RuntimeError:
        return False
    return subprocess.run(["docker", "info"], capture_output=True).returncode == 0
