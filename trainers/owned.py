"""Processes the pipeline starts and owns: a pid file each, stopped by a rerun when a killed driver left them.

``ecov-train pipeline`` starts model servers and step commands in process groups of their own (a server
must outlive nothing but the steps it serves; a step is stopped with the driver). When the driver is
killed outright (SIGKILL, a lost node), they run on. Each one therefore has a pid file under
``WORKDIR/pids/`` naming its pid, its start time (so a recycled pid is never taken for it), its command
and, for a server, its port and the checkpoint it serves; the next run stops every process such a file
names before it starts anything, and says so. A port held by a process that no pid file names is never
touched: the run stops and names the process holding it.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path


def proc_start(pid: int) -> str:
    """The process's start time in clock ticks since boot (/proc/PID/stat field 22); "" when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[19]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


@dataclass
class Owned:
    """One process the pipeline started, as its pid file records it."""

    label: str  # server-stage0, step-09-stage1-direct, ...
    pid: int
    start: str  # proc_start(pid) when it was started
    cmd: list[str]
    port: int = 0  # servers: the port it listens on
    serves: str = ""  # servers: the checkpoint path it was asked to serve
    extra: dict = field(default_factory=dict)

    def alive(self) -> bool:
        """Still running, and still the process that was started (not a recycled pid)."""
        return bool(self.start) and proc_start(self.pid) == self.start

    def describe(self) -> str:
        what = f"serving {self.serves} on port {self.port}" if self.port else " ".join(self.cmd[:6])
        return f"{self.label} (pid {self.pid}, {what})"


class PidFiles:
    """The pid files of one work folder: ``WORKDIR/pids/LABEL.json``."""

    def __init__(self, workdir: Path):
        self.root = Path(workdir) / "pids"

    def path(self, label: str) -> Path:
        return self.root / f"{label}.json"

    def record(self, owned: Owned) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.path(owned.label).with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(owned), indent=2))
        os.replace(tmp, self.path(owned.label))

    def forget(self, label: str) -> None:
        self.path(label).unlink(missing_ok=True)

    def all(self) -> list[Owned]:
        out = []
        for p in sorted(self.root.glob("*.json")) if self.root.is_dir() else []:
            try:
                out.append(Owned(**json.loads(p.read_text())))
            except (OSError, ValueError, TypeError):
                p.unlink(missing_ok=True)  # a torn file: its process (if any) is found by its port
        return out

    def leftovers(self) -> list[Owned]:
        """Processes an earlier run started that still run (their files are dropped for the dead)."""
        live = []
        for o in self.all():
            if o.alive():
                live.append(o)
            else:
                self.forget(o.label)
        return live

    def stop_leftovers(self, log) -> list[Owned]:
        """Stop every process an earlier run left (its whole process group); returns them."""
        left = self.leftovers()
        for o in left:
            log(f"stopping {o.describe()}, left running by an earlier run of this pipeline")
            stop_group(o.pid, o.start)
            self.forget(o.label)
        return left


def stop_group(pid: int, start: str = "", grace: float = 30.0, first: int = signal.SIGTERM) -> None:
    """``first`` to the process group led by ``pid``, SIGKILL after ``grace`` seconds if any of it lives.

    Returns once no process of the group runs: a member can outlive its leader by a moment (a server's
    worker still closing its listening socket), and a port checked right after would read busy."""
    if start and proc_start(pid) != start:
        return
    try:
        os.killpg(pid, first)
    except ProcessLookupError:
        return
    except PermissionError:
        os.kill(pid, first)

    def gone() -> bool:
        leader = not _running(pid) or bool(start and proc_start(pid) != start)
        return leader and not group_members(pid)

    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if gone():
            return
        time.sleep(0.2)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for _ in range(50):
        if gone():
            return
        time.sleep(0.1)


def group_members(pgid: int) -> list[int]:
    """The running (not zombie) processes of process group ``pgid``, from /proc."""
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            out.append(int(proc.name))
    return out


def _running(pid: int) -> bool:
    """True unless the pid is gone or a zombie (a zombie holds no port and no file)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


# -- ports -----------------------------------------------------------------------------------------------

def port_busy(port: int) -> bool:
    """True when something listens on ``port`` or a server could not bind it (as vLLM and the tiny
    server bind: all interfaces, address reuse on)."""
    with socket.socket() as s:
        s.settimeout(1.0)
        if s.connect_ex(("127.0.0.1", port)) == 0:
            return True
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError as e:
            return e.errno == errno.EADDRINUSE
    return False


def wait_port_free(port: int, seconds: float = 10.0) -> bool:
    """Whether ``port`` is free now or within ``seconds``: a server stopped a moment ago (by this run, or a
    rerun stopping what a killed run left) can leave its sockets closing for a little while."""
    deadline = time.monotonic() + seconds
    while port_busy(port):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)
    return True


def _listen_inodes(port: int) -> set[str]:
    out = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 9 and parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                out.add(parts[9])
    return out


def port_holder(port: int) -> str:
    """Who listens on ``port``: "pid N (command)", or a hint when the process is not ours to see."""
    inodes = _listen_inodes(port)
    if inodes:
        links = {f"socket:[{i}]" for i in inodes}
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                fds = list((proc / "fd").iterdir())
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(fd) in links:
                        return f"pid {proc.name} ({cmdline(int(proc.name))[:160]})"
                except OSError:
                    continue
    return f"a process this user cannot see (find it with: ss -ltnp 'sport = :{port}')"
