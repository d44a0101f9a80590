"""Reap what a sandboxed command leaves behind when it ends: orphans, adopted by the harness itself.

bubblewrap's outer process exits as soon as the command does, while the sandbox's pid 1 (bwrap's own
init) is still exiting; a simulation that forked under the rlimit sandbox leaves its killed children. All of
them are orphans, and their zombies run as the simulation user until whatever adopts them reaps them. A
machine's init that reaps slowly (a VM agent, a container's) or never (ecov-eval as a container's pid 1)
lets them pile up, and the process-count limit counts zombies: after 64 every simulation fails to start
(``bwrap: Can't fork for pid 1``), a harness failure that depends on the host, not the testbench.

So the harness makes itself the child subreaper of what it starts (Linux's PR_SET_CHILD_SUBREAPER; not
inherited across fork, so each worker process sets its own) and reaps its adopted orphans after each run.
It never reaps a child it started itself (a ``Popen`` whose ``wait`` would then see no child and report
exit 0): a child of this process is in this process's session or leads its own (``start_new_session``),
and shares its pid namespace; an orphan is in another's session or in a namespace below.
"""

from __future__ import annotations

import ctypes
import os
import threading

PR_SET_CHILD_SUBREAPER = 36

_lock = threading.Lock()
_adopted_in: int | None = None  # the pid of the process that set the attribute (a forked child has not)


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants (once per process); False where Linux refuses."""
    global _adopted_in
    pid = os.getpid()
    if _adopted_in == pid:
        return True
    with _lock:
        if _adopted_in != pid:
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
                    return False
            except (OSError, AttributeError):  # no prctl: not Linux
                return False
            _adopted_in = pid
    return True


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, session, ...); None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()


def is_orphan(pid: int, own_session: int) -> bool:
    """Whether the child ``pid`` was adopted rather than started here (see the module's docstring)."""
    fields = _stat(pid)
    if fields is None:
        return False
    try:
        with open(f"/proc/{pid}/status") as f:
            nspid = next((line.split()[1:] for line in f if line.startswith("NSpid:")), [])
    except OSError:
        return False
    return len(nspid) > 1 or int(fields[3]) not in (pid, own_session)


def exited_children() -> list[int]:
    """This process's exited, unreaped children, from /proc (a scan of every process: the slow way)."""
    me = str(os.getpid())
    return [int(name) for name in os.listdir("/proc")
            if name.isdigit() and (fields := _stat(int(name))) is not None and fields[:2] == ["Z", me]]


def _reap(pid: int) -> int:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        return 0
    return 1


def reap_orphans() -> int:
    """Reap every adopted orphan that has exited; returns how many. The quick way looks at the first exited
    child (waitid without reaping it); when that one is a child this process started (its own waiter will
    reap it, or a daemon's never), the exited children behind it are found by a scan of /proc."""
    own_session = os.getsid(0)
    reaped = 0
    with _lock:  # one reaper at a time: a second one's look and reap must not straddle the first's reap
        while True:
            try:
                info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return reaped
            if info is None:
                return reaped
            if not is_orphan(info.si_pid, own_session):
                return reaped + sum(_reap(pid) for pid in exited_children() if is_orphan(pid, own_session))
            if not _reap(info.si_pid):
                return reaped
            reaped += 1


__all__ = ["adopt_orphans", "reap_orphans", "is_orphan", "exited_children"]
