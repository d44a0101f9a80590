"""The orphans a sandboxed command leaves (bwrap's namespace init, a forked simulation's killed children)
are reaped by the harness, so the simulation user's process count cannot fill with zombies on a machine
whose init reaps slowly or never; and the harness never reaps a child it started itself."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ecov.harness.core.paths import jobs_dir
from ecov.harness.sandbox.base import NOBODY, Limits
from ecov.harness.sandbox.bwrap import BwrapSandbox, bwrap_available
from ecov.harness.sandbox.reaper import adopt_orphans, exited_children, is_orphan, reap_orphans
from ecov.harness.sandbox.rlimit import RlimitSandbox


@pytest.fixture
def job_dir():
    path = Path(tempfile.mkdtemp(dir=jobs_dir()))
    yield path
    subprocess.run(["rm", "-rf", str(path)], check=False)


def status_field(pid: int, key: str) -> int | None:
    """A numeric field of /proc/PID/status (its first number); None once the process is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith(f"{key}:")))


def zombie_children(uid: int | None = None) -> list[int]:
    """This process's exited, unreaped children (of ``uid``, when given)."""
    return [pid for pid in exited_children() if uid is None or status_field(pid, "Uid") == uid]


def settle(uid: int, most: int) -> list[int]:
    """Reap for up to 5 s (an orphan may still be exiting when its run returns); what is left over ``most``."""
    deadline = time.monotonic() + 5
    while len(left := zombie_children(uid)) > most and time.monotonic() < deadline:
        reap_orphans()
        time.sleep(0.05)
    return left


@pytest.mark.skipif(os.geteuid() != 0, reason="the simulation user is nobody only for a root harness")
def test_many_bwrap_runs_under_a_small_process_limit(job_dir):
    """Each run leaves bwrap's init behind: 60 runs under a limit of 6 processes would fail from about the
    third on if those zombies were nobody's to keep; all 60 start, and at most one is left unreaped. A child
    of this process's own that exited first and is never waited for (the first one a quick look finds)
    neither stops the reaping nor loses its exit status."""
    if not bwrap_available():
        pytest.skip("bubblewrap cannot create namespaces here")
    own = subprocess.Popen([sys.executable, "-c", "raise SystemExit(5)"], start_new_session=True)
    deadline = time.monotonic() + 10
    while own.pid not in zombie_children() and time.monotonic() < deadline:
        time.sleep(0.02)
    box = BwrapSandbox.create()
    for i in range(60):
        res = box.run(["/usr/bin/true"], job_dir, Limits(wall_seconds=20, processes=6), untrusted=True)
        assert res.returncode == 0, (i, res.output)
    assert len(settle(NOBODY, 1)) <= 1
    assert own.wait(timeout=10) == 5


@pytest.mark.skipif(os.geteuid() != 0, reason="the simulation user is nobody only for a root harness")
def test_a_forked_simulations_children_are_reaped(job_dir):
    """Under the rlimit sandbox (no namespaces) a simulation's children outlive it until the run's group is
    killed; adopted by the harness, they are reaped, not left as zombies counting against nobody."""
    script = ("import os, time\n"
              "for _ in range(8):\n"
              "    pid = os.fork()\n"
              "    if pid == 0:\n"
              "        time.sleep(30); os._exit(0)\n"
              "    print(pid, flush=True)\n")
    res = RlimitSandbox().run([sys.executable, "-c", script], job_dir, Limits(wall_seconds=20, processes=40),
                              untrusted=True)
    assert res.returncode == 0, res.output
    forked = [int(word) for word in res.output.split()]
    assert len(forked) == 8
    assert {status_field(pid, "PPid") for pid in forked} <= {os.getpid(), None}  # adopted here (or already reaped)
    deadline = time.monotonic() + 5
    while (left := [pid for pid in forked if Path(f"/proc/{pid}").exists()]) and time.monotonic() < deadline:
        reap_orphans()
        time.sleep(0.05)
    assert left == []


def test_own_children_are_never_reaped():
    """A child this process started keeps its exit status for its own ``wait`` (reaping it would turn a
    failure into exit 0), whether it shares this session or leads its own."""
    assert adopt_orphans()
    kids = [subprocess.Popen([sys.executable, "-c", "raise SystemExit(7)"], start_new_session=new)
            for new in (False, True)]
    deadline = time.monotonic() + 10
    while len([p for p in kids if p.pid in zombie_children()]) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(is_orphan(p.pid, os.getsid(0)) for p in kids)
    reap_orphans()
    assert [p.wait(timeout=10) for p in kids] == [7, 7]
