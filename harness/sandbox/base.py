"""Run untrusted builds and simulations: a private folder, rlimits, a wall clock, an output cap.

Three backends behind one interface:
- ``bwrap``: bubblewrap with every namespace unshared (no network), a read-only view of the system's
  /usr only, the job's folder as the one writable place, a private /tmp; the simulation runs as the
  unprivileged ``nobody`` user so the process-count limit applies.
- ``rlimit``: the same limits and clock without namespaces, for hosts without bubblewrap.
- ``docker``: the project's image (``Dockerfile``), ``--network none``, pids/memory limits (docker_backend).
"""

from __future__ import annotations

import os
import resource
import selectors
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

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


def _limiter(limits: Limits, drop_to_nobody: bool, nproc: bool = True):
    def apply() -> None:
        os.setsid()
        mem = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))
        fsize = limits.file_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if drop_to_nobody and os.geteuid() == 0:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
        # The process limit counts every process of the user machine-wide: applied to the simulation (the
        # testbench's code) but not to a root harness's compile steps run as nobody beside other simulations.
        if nproc and (drop_to_nobody or os.geteuid() != 0):
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))

    return apply


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
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_limiter(limits, drop_to_nobody, nproc), close_fds=True,
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
    finally:
        if timed_out or capped:
            _kill_group(proc)
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()) if not (timed_out or capped) else 10)
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
    rc = proc.returncode
    return ProcResult(
        returncode=rc if rc is not None else -9,
        output=b"".join(chunks).decode(errors="replace"),
        timed_out=timed_out,
        output_capped=capped,
        seconds=time.monotonic() - start,
        signal=-rc if rc is not None and rc < 0 else None,
    )


def bwrap_available() -> bool:
    exe = shutil.which("bwrap")
    if not exe:
        return False
    try:
        probe = subprocess.run(
            # The mounts BwrapSandbox makes: in a container, /proc may be refused while the rest works.
            [exe, "--unshare-all", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
             "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc",
             "--dev", "/dev", "/usr/bin/true"],
            capture_output=True, timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


class Sandbox:
    """Runs one command for one job folder. ``name`` is what results report as their isolation."""

    name = "rlimit"
    isolated = False  # rlimits only: the weakest sandbox (docs/scoring.md, "Threat model")

    def run(self, argv: list[str], workdir: Path, limits: Limits, *, untrusted: bool,
            ro_paths: tuple[str, ...] = (), rw_paths: tuple[str, ...] = (), env: dict[str, str] | None = None,
            stdin: bytes | None = None) -> ProcResult:
        """``untrusted`` marks the simulation (the testbench's own code) as opposed to the compile step;
        ``stdin`` is written to the command's standard input (the harness main's private channel).

        Every step runs unprivileged: a harness running as root drops the compile steps (Verilator and
        the compiler, which read testbench-derived text) to nobody as well, reading the tools it needs
        through a hard-linked view when their folder is not readable to nobody (``nobody_view``)."""
        env = self._env(env)
        if os.geteuid() == 0:
            mapping = {p: nobody_view(p) for p in ro_paths if not readable_by_nobody(p)}
            argv = [_remap(a, mapping) for a in argv]
            env = {k: _remap(v, mapping) for k, v in env.items()}
        _open_for_nobody(workdir)
        return run_limited(argv, workdir, limits, env, drop_to_nobody=True, stdin=stdin,
                           nproc=untrusted or os.geteuid() != 0)

    @staticmethod
    def _env(extra: dict[str, str] | None) -> dict[str, str]:
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp"}
        env.update(extra or {})
        return env


class BwrapSandbox(Sandbox):
    name = "bwrap"
    isolated = True

    def run(self, argv, workdir, limits, *, untrusted, ro_paths=(), rw_paths=(), env=None, stdin=None):
        wd = str(workdir)
        cmd = [
            shutil.which("bwrap") or "bwrap", "--unshare-all", "--die-with-parent", "--new-session",
            "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
            "--dev", "/dev", "--tmpfs", "/tmp",
        ]
        # The simulation gets no /proc at all: no other process's environment or command line, no mount
        # table naming the output folder, no /proc/self/mem. The compile steps keep theirs.
        cmd += ["--proc", "/proc"] if not untrusted else []
        if Path("/etc/alternatives").exists():
            cmd += ["--ro-bind", "/etc/alternatives", "/etc/alternatives"]
        for p in ro_paths:
            cmd += ["--ro-bind", p, p]
        for p in rw_paths:
            cmd += ["--bind", p, p]
        if os.geteuid() == 0 and not untrusted:
            # The compile step (Verilator, g++ on generated code) runs as an unprivileged user inside the
            # namespace too: what it can read is what is mounted, and none of it as root.
            cmd += ["--uid", str(NOBODY), "--gid", str(NOBODY), "--cap-drop", "ALL"]
        cmd += ["--bind", wd, wd, "--chdir", wd, "--"]
        _open_for_nobody(workdir)
        return run_limited(cmd + argv, workdir, limits, self._env(env), drop_to_nobody=untrusted, stdin=stdin)


def readable_by_nobody(path: str) -> bool:
    """Whether ``nobody`` can reach ``path``: every folder above it searchable by others."""
    p = Path(path).resolve()
    for d in [*reversed(p.parents), p]:
        try:
            mode = d.stat().st_mode
        except OSError:
            return False
        if d.is_dir() and not mode & 0o001:
            return False
    return True


def nobody_view(src: str) -> str:
    """A view of the folder ``src`` that nobody can read: hard links under the temp dir, kept in sync
    (new files linked, changed ones relinked) on every call; atomic per file, so workers may share it."""
    import hashlib
    import tempfile

    base = Path(os.environ.get("ECOV_JOBS_DIR") or Path(tempfile.gettempdir()) / f"ecov-jobs-{os.getuid()}")
    view = base / f"ro-{hashlib.sha256(src.encode()).hexdigest()[:16]}"
    for d in (base, view):
        d.mkdir(parents=True, exist_ok=True)
    os.chmod(base, 0o711)
    os.chmod(view, 0o755)
    src_path = Path(src)
    for root, dirs, files in os.walk(src_path):
        rel = Path(root).relative_to(src_path)
        for d in dirs:
            (view / rel / d).mkdir(exist_ok=True)
            os.chmod(view / rel / d, 0o755)
        for f in files:
            s_file, d_file = Path(root) / f, view / rel / f
            try:
                if d_file.exists() and os.stat(d_file).st_ino == os.stat(s_file).st_ino:
                    continue
                tmp = d_file.with_name(f".{f}.{os.getpid()}.tmp")
                tmp.unlink(missing_ok=True)
                try:
                    os.link(s_file, tmp)
                except OSError:
                    shutil.copy2(s_file, tmp)
                os.replace(tmp, d_file)
            except FileNotFoundError:  # removed while walking (a lock, a temporary file)
                continue
    return str(view)


def _remap(text: str, mapping: dict[str, str]) -> str:
    for src in sorted(mapping, key=len, reverse=True):
        text = text.replace(src, mapping[src])
    return text


def _open_for_nobody(workdir: Path) -> None:
    """The simulation runs as nobody: it needs to write its own folder (and nothing else)."""
    if os.geteuid() == 0:
        os.chmod(workdir, 0o777)
        for p in Path(workdir).rglob("*"):
            if p.is_dir():
                os.chmod(p, 0o777)


NOT_ISOLATED = ("not isolated: the rlimit sandbox runs the simulation without namespaces (bubblewrap and "
                "Docker are unavailable); host-reaching constructs are refused by the test rules, but install "
                "bubblewrap for real isolation")


def make_sandbox(kind: str = "auto") -> Sandbox:
    """``auto``: bubblewrap, else Docker, else rlimits, and never silently worse than the machine allows.

    A machine that has bwrap or Docker installed but where it does not work is an error under ``auto``
    (choose ``--sandbox rlimit`` explicitly to accept the weaker sandbox); rlimits are used only where
    neither is installed, and results then say ``isolated: false``. ``ECOV_SANDBOX`` (bwrap, docker or
    rlimit) makes that choice explicitly for ``auto`` (e.g. on a CI machine whose bwrap cannot unshare).
    """
    if kind == "auto" and os.environ.get("ECOV_SANDBOX") in ("bwrap", "docker", "rlimit"):
        kind = os.environ["ECOV_SANDBOX"]
    if kind in ("auto", "bwrap"):
        if bwrap_available():
            return BwrapSandbox()
        if kind == "bwrap":
            raise RuntimeError("bubblewrap (bwrap) is not installed or cannot create namespaces here")
        if shutil.which("bwrap"):
            raise RuntimeError("bubblewrap is installed but cannot create namespaces here (is it allowed to "
                               "unshare user namespaces?); fix it, or choose --sandbox docker or --sandbox rlimit (or set "
                               "ECOV_SANDBOX=rlimit)")
        if shutil.which("docker"):
            from ecov.harness.sandbox.docker import DockerSandbox

            try:
                return DockerSandbox()
            except RuntimeError as exc:
                raise RuntimeError(f"bubblewrap is missing and Docker is installed but unusable ({exc}); start "
                                   "dockerd, or choose --sandbox rlimit (or set ECOV_SANDBOX=rlimit)") from exc
        return Sandbox()
    if kind == "rlimit":
        return Sandbox()
    if kind == "docker":
        from ecov.harness.sandbox.docker import DockerSandbox

        return DockerSandbox()
    raise ValueError(f"unknown sandbox {kind!r}: choose auto, bwrap, rlimit or docker")
