"""The pipeline's model servers: each checkpoint served under a path that names its content, on a port
that must be free, and accepted only when the server lists that path for the name asked for.

A local checkpoint folder is served through ``WORKDIR/served/ckpt-DIGEST`` (a link to the folder; DIGEST:
``checkpoint_digest``), so the ``root`` that vLLM and the tiny server list in ``/v1/models`` names the
weights: the response cache keys requests by it (ecov.harness.models.served), and readiness compares it
with the checkpoint the step asked for. A hub id is served as it is.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ecov.harness.models.served import list_models
from ecov.trainers.owned import Owned, PidFiles, port_holder, proc_start, stop_group, wait_port_free
from ecov.trainers.pipeline_config import ServeSpec, StepFailed
from ecov.trainers.tools import tool

_DIGESTS: dict[tuple, str] = {}


def checkpoint_digest(path: str | Path) -> str:
    """sha256 over every file of a checkpoint folder (relative name, size, content); memoised per process
    on the names, sizes and modification times."""
    root = Path(path)
    files = sorted(p for p in root.rglob("*") if p.is_file())
    stamp = (str(root.resolve()), tuple((str(p.relative_to(root)), p.stat().st_size, p.stat().st_mtime_ns)
                                        for p in files))
    if stamp not in _DIGESTS:
        h = hashlib.sha256()
        for p in files:
            h.update(f"{p.relative_to(root)}\0{p.stat().st_size}\0".encode())
            with open(p, "rb") as f:
                while chunk := f.read(1 << 20):
                    h.update(chunk)
        _DIGESTS[stamp] = h.hexdigest()
    return _DIGESTS[stamp]


def served_path(model: str, workdir: Path) -> str:
    """What the server is given: ``WORKDIR/served/ckpt-DIGEST`` for a local folder, else the hub id."""
    p = Path(model)
    if not p.is_dir():
        return model
    link = Path(workdir).resolve() / "served" / f"ckpt-{checkpoint_digest(p)[:16]}"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not (link.is_symlink() and link.resolve() == p.resolve()):
        tmp = link.with_name(link.name + f".{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(p.resolve(), target_is_directory=True)
        os.replace(tmp, link)
    return str(link)


@dataclass
class Served:
    model: str  # LiteLLM model string
    api_base: str | None
    root: str = ""  # what the server lists as root for the name: the served checkpoint path ("" when none)


def wait_ready(url: str, proc: subprocess.Popen, timeout: float, log: Path, name: str, root: str) -> None:
    """Until ``GET url/models`` lists ``name`` with ``root``; a server that answers for another model on
    this port, or exits, fails at once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise StepFailed(f"the model server exited {proc.returncode} before it was ready (log: {log})")
        try:
            entries = list_models(url)
        except (OSError, ValueError):
            time.sleep(1.0)
            continue
        listed = {(d.get("id"), d.get("root")) for d in entries}
        if (name, root) in listed:
            return
        raise StepFailed(f"the server on {url} lists {sorted(listed, key=str)}, not {name!r} serving {root}: "
                         f"another server answers on this port (log: {log})")
    raise StepFailed(f"the model server at {url} was not ready after {timeout:.0f} s (log: {log})")


def check_serving(served: Served, name: str) -> None:
    """After a step: the server still lists the checkpoint it was started with (nothing took the port)."""
    if not served.root or not served.api_base:
        return
    try:
        listed = {(d.get("id"), d.get("root")) for d in list_models(served.api_base)}
    except (OSError, ValueError) as e:
        raise StepFailed(f"the model server at {served.api_base} stopped answering: {e}") from None
    if (name, served.root) not in listed:
        raise StepFailed(f"the server at {served.api_base} now lists {sorted(listed, key=str)}, not {name!r} "
                         f"serving {served.root}")


def server_command(spec: ServeSpec, root: str, name: str) -> tuple[list[str], str]:
    """The command that serves ``root`` as ``name``, and the LiteLLM model string that reaches it."""
    if spec.kind == "vllm":
        return (tool("vllm") + ["serve", root, "--served-model-name", name, "--port", str(spec.port),
                                "--dtype", "bfloat16", *spec.args], f"hosted_vllm/{name}")
    return ([sys.executable, "-m", "ecov.trainers.tiny_server", "--model", root, "--name", name,
             "--port", str(spec.port), *spec.args], f"openai/{name}")


@contextmanager
def serve(spec: ServeSpec, model_path: str, name: str, workdir: Path, log: Path, which: str = "",
          env: dict[str, str] | None = None) -> Iterator[Served]:
    """Serve ``model_path`` as ``name`` as ``spec`` says, yield how to reach it, stop it after (its whole
    process group). ``which`` names the config key of the port in messages (teacher, student_serve)."""
    if spec.kind == "builtin":
        yield Served(spec.model or model_path, None)
        return
    if spec.kind == "endpoint":
        yield Served(spec.model or f"hosted_vllm/{name}", spec.api_base)
        return
    pids = PidFiles(workdir)
    if not wait_port_free(spec.port):
        raise StepFailed(f"port {spec.port} is busy: {port_holder(spec.port)} listens on it. Stop it, or set "
                         f"{which or 'the server'}.port to a free port, then run the pipeline again")
    root = served_path(model_path, workdir)
    cmd, litellm = server_command(spec, root, name)
    proc = _spawn_logged(cmd, log, env)
    label = f"server-{name}"
    pids.record(Owned(label, proc.pid, proc_start(proc.pid), cmd, spec.port, root, {"checkpoint": model_path}))
    url = f"http://127.0.0.1:{spec.port}/v1"
    try:
        wait_ready(url, proc, spec.startup_timeout, log, name, root)
        yield Served(litellm, url, root)
    finally:
        if proc.poll() is None:
            stop_group(proc.pid, grace=60.0)
        proc.wait()
        pids.forget(label)


def _spawn_logged(cmd: list[str], log: Path, env: dict[str, str] | None) -> subprocess.Popen:
    """Start ``cmd`` in a process group of its own, its command line and output appended to ``log``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        return subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
                                start_new_session=True)


def run_owned(cmd: list[str], log: Path, workdir: Path, label: str, env: dict[str, str] | None = None) -> int:
    """Run a step's command in a process group of its own, with a pid file, to the end; an interrupt or
    SIGTERM of the driver is passed on to it (SIGINT, then SIGKILL after a minute). Returns its exit code."""
    pids = PidFiles(workdir)
    proc = _spawn_logged(cmd, log, env)
    pids.record(Owned(label, proc.pid, proc_start(proc.pid), cmd))
    try:
        return proc.wait()
    except BaseException:
        if proc.poll() is None:
            stop_group(proc.pid, grace=60.0, first=signal.SIGINT)
        proc.wait()
        raise
    finally:
        pids.forget(label)
