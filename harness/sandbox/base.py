"""Run one untrusted command: a private folder, rlimits, a wall clock, an output cap.

``Sandbox`` is the interface every backend implements (``run`` one command for one job folder);
``run_limited`` is the process runner the local backends share. The backends are registered
implementations (kind ``sandbox`` in ecov.harness.registry), chosen by name in ecov.harness.sandbox.factory:
- ``bwrap`` (sandbox/bwrap.py): bubblewrap with every namespace unshared (no network), a read-only view
  of the system's /usr only, the job's folder as the one writable place, a private /tmp; the simulation
  runs as the unprivileged ``nobody`` user so the process-count limit applies.
- ``rlimit`` (sandbox/rlimit.py): the same limits and clock without namespaces, for hosts without bubblewrap.
- ``docker`` (sandbox/docker.py): the project's image (``Dockerfile``), ``--network none``, pids/memory limits.
A new sandbox is one module with a ``Sandbox`` subclass and its ``register("sandbox", name, cls)``.
"""

from __future__ import annotations

import os
import resource
import selectors
import shutil
import signal
import subprocess
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ecov.harness.sandbox.reaper import adopt_orphans, reap_orphans

NOBODY = 65534


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 60.0
    cpu_seconds: int = 120
    memory_mb: int = 4096
    file_mb: int = 256
    processes: int = 64
    output_bytes: int = 1_000_000


@dataclass
class ProcResult:
    returncode: int
    output: str
    timed_out: bool = False
    output_capped: bool = False
    seconds: float = 0.0
    signal: int | None = field(default=None)


def _rlimits(limits: Limits) -> list[tuple[int, str, int, int]]:
    """(resource, prlimit's option, soft, hard) of every limit a command starts under, bar the process
    count (``_nproc``): the one table both spawn paths apply."""
    mem = limits.memory_mb * 1024 * 1024
    fsize = limits.file_mb * 1024 * 1024
    return [(resource.RLIMIT_AS, "as", mem, mem),
            (resource.RLIMIT_CPU, "cpu", limits.cpu_seconds, limits.cpu_seconds + 5),
            (resource.RLIMIT_FSIZE, "fsize", fsize, fsize),
            (resource.RLIMIT_CORE, "core", 0, 0)]


def _nproc(drop_to_nobody: bool, nproc: bool) -> bool:
    """Whether the process-count limit applies. It counts every process of the user machine-wide: applied
    to the simulation (the testbench's code) but not to a root harness's compile steps run as nobody beside
    other simulations."""
    return nproc and (drop_to_nobody or os.geteuid() != 0)


def _limiter(limits: Limits, drop_to_nobody: bool, nproc: bool = True):
    def apply() -> None:
        os.setsid()
        for res, _, soft, hard in _rlimits(limits):
            resource.setrlimit(res, (soft, hard))
        if drop_to_nobody and os.geteuid() == 0:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
        if _nproc(drop_to_nobody, nproc):
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))

    return apply


# util-linux's tools apply the same limits as ``_limiter`` in the exec chain (prlimit, then setpriv to drop
# to nobody), so Popen needs no preexec_fn and can spawn with vfork: a preexec_fn forks this whole process
# (its page tables, every build thread's stack) with the GIL held, 12 ms a spawn against under 1 ms, and a
# verification spawns tens of thousands of commands. Without the tools, the preexec_fn path stays.
PRLIMIT, SETPRIV = shutil.which("prlimit"), shutil.which("setpriv")


def limited_argv(argv: list[str], limits: Limits, drop_to_nobody: bool, nproc: bool = True) -> list[str] | None:
    """``argv`` behind prlimit (and setpriv), with the limits ``_limiter`` sets; None without the tools.
    The caller starts it in a new session (``_limiter``'s setsid)."""
    if PRLIMIT is None or SETPRIV is None:
        return None
    cmd = [PRLIMIT, *(f"--{opt}={soft}:{hard}" for _, opt, soft, hard in _rlimits(limits))]
    if _nproc(drop_to_nobody, nproc):
        # Set before setpriv's setuid (``_limiter`` sets it after): Linux checks the new user's process
        # count against it at the execve that follows, either way.
        cmd.append(f"--nproc={limits.processes}")
    cmd.append("--")
    if drop_to_nobody and os.geteuid() == 0:
        cmd += [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    return cmd + list(argv)


def _resolvable(argv0: str, cwd: Path, env: dict[str, str]) -> bool:
    """Whether ``argv0`` names a program Popen would find (it raises FileNotFoundError when not): behind
    prlimit a missing program would be prlimit's exit status instead."""
    if os.sep in argv0:
        return os.access(argv0 if os.path.isabs(argv0) else os.path.join(cwd, argv0), os.X_OK)
    return shutil.which(argv0, path=env.get("PATH", os.defpath)) is not None


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


def run_limited(argv: list[str], cwd: Path, limits: Limits, env: dict[str, str], drop_to_nobody: bool,
                stdin: bytes | None = None, nproc: bool = True) -> ProcResult:
    """Run argv, merging stdout and stderr, stopping it at the wall clock or the output cap.

    ``stdin`` (a few bytes: the harness main's output folder and nonce) is written to the process's
    standard input, which is then closed: a channel no environment and no other process shows.
    """
    start = time.monotonic()
    adopt_orphans()  # what the command leaves behind comes back here to be reaped (sandbox/reaper.py)
    wrapped = limited_argv(argv, limits, drop_to_nobody, nproc)
    if wrapped is not None and not _resolvable(argv[0], cwd, env):
        raise FileNotFoundError(2, "No such file or directory", argv[0])
    spawn: dict = ({"start_new_session": True} if wrapped is not None
                   else {"preexec_fn": _limiter(limits, drop_to_nobody, nproc)})
    proc = subprocess.Popen(
        wrapped or argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, close_fds=True, **spawn,
    )
    if stdin is not None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)  # far below a pipe's buffer: never blocks
        except BrokenPipeError:
            pass
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass
    chunks: list[bytes] = []
    size = 0
    timed_out = capped = False
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = start + limits.wall_seconds
    done = False  # False in finally: an exception (KeyboardInterrupt) ended the wait: kill now
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if not sel.select(timeout=min(left, 0.5)):
                if proc.poll() is not None:
                    break
                continue
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:
                break
            if size < limits.output_bytes:
                chunks.append(data[: limits.output_bytes - size])
            size += len(data)
            if size > limits.output_bytes:
                capped = True
                break
        done = True
    finally:
        stop = timed_out or capped or not done
        if stop:
            _kill_group(proc)
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()) if not stop else 10)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
            proc.wait()
        # Children that outlived the leader (a testbench that forked) go with its group.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        sel.close()
        proc.stdout.close()
        reap_orphans()
    rc = proc.returncode
    return ProcResult(
        returncode=rc if rc is not None else -9,
        output=b"".join(chunks).decode(errors="replace"),
        timed_out=timed_out,
        output_capped=capped,
        seconds=time.monotonic() - start,
        signal=-rc if rc is not None and rc < 0 else None,
    )


@dataclass(frozen=True)
class ImagePath:
    """A host folder that a sandbox with its own filesystem image (docker) carries itself.

    ``env`` names the image's environment variable holding the same folder inside the image; ``marker``
    is a path below it that the image must hold (else its tools differ from the host's and figures could
    differ: the sandbox refuses to start). Sandboxes that show the host's folders (bwrap, rlimit) ignore it.
    """

    host: str
    env: str
    marker: str = ""


class Sandbox(ABC):
    """Runs one command for one job folder. ``name`` is what results report as their isolation.

    Class-level answers let the factory choose under ``auto`` without knowing any backend:
    ``auto_rank`` orders the backends ``auto`` tries (None: never chosen by ``auto``), ``installed()``
    says whether the backend's tool is present, ``create()`` builds it for an explicit choice and
    ``create_for_auto()`` for ``auto`` (both raise RuntimeError, saying why, when it cannot work here).
    A tool backend (Verilator) calls ``carry`` with the host folders its commands use.
    """

    name: ClassVar[str]
    isolated: ClassVar[bool] = False  # True when the run cannot see the host (docs/scoring.md, "Threat model")
    auto_rank: ClassVar[int | None] = None

    @classmethod
    def installed(cls) -> bool:
        return True

    @classmethod
    def create(cls) -> Sandbox:
        return cls()

    @classmethod
    def create_for_auto(cls) -> Sandbox:
        return cls.create()

    def carry(self, paths: tuple[ImagePath, ...]) -> None:
        """Make the host folders ``paths`` usable by the commands run here; RuntimeError when they cannot
        be. Sandboxes that show the host's folders have nothing to do; one with its own image checks
        that the image carries them and maps them (docker)."""
        return None

    @abstractmethod
    def run(self, argv: list[str], workdir: Path, limits: Limits, *, untrusted: bool,
            ro_paths: tuple[str, ...] = (), rw_paths: tuple[str, ...] = (), env: dict[str, str] | None = None,
            stdin: bytes | None = None) -> ProcResult:
        """Run ``argv`` in ``workdir``. ``untrusted`` marks the simulation (the testbench's own code) as
        opposed to the compile step; ``ro_paths``/``rw_paths`` are host folders the command needs;
        ``stdin`` is written to the command's standard input (the harness main's private channel)."""

    @staticmethod
    def _env(extra: dict[str, str] | None) -> dict[str, str]:
        return clean_env(extra)


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment every sandboxed command starts from: nothing of the caller's."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp"}
    env.update(extra or {})
    return env


def open_for_nobody(workdir: Path) -> None:
    """The simulation runs as nobody: it needs to write its own folder (and nothing else)."""
    if os.geteuid() == 0:
        os.chmod(workdir, 0o777)
        for p in Path(workdir).rglob("*"):
            if p.is_dir():
                os.chmod(p, 0o777)


__all__ = ["Limits", "ProcResult", "ImagePath", "Sandbox", "run_limited", "clean_env", "open_for_nobody", "NOBODY"]
