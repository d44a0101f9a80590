"""The bubblewrap sandbox: every namespace unshared (no network), a read-only /usr, the job folder the
one writable place, a private /tmp, the simulation as ``nobody``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ecov.harness.registry import register
from ecov.harness.sandbox.base import NOBODY, Sandbox, open_for_nobody, run_limited


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


@register("sandbox", "bwrap")
class BwrapSandbox(Sandbox):
    name = "bwrap"
    isolated = True
    auto_rank = 0  # auto's first choice

    @classmethod
    def installed(cls) -> bool:
        return bool(shutil.which("bwrap"))

    @classmethod
    def create(cls) -> BwrapSandbox:
        if not bwrap_available():
            raise RuntimeError("bubblewrap (bwrap) is not installed or cannot create namespaces here")
        return cls()

    @classmethod
    def create_for_auto(cls) -> BwrapSandbox:
        if not bwrap_available():
            raise RuntimeError("bubblewrap is installed but cannot create namespaces here (is it allowed to "
                               "unshare user namespaces?); fix it, or choose --sandbox docker or --sandbox rlimit (or set "
                               "ECOV_SANDBOX=rlimit)")
        return cls()

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
        open_for_nobody(workdir)
        return run_limited(cmd + argv, workdir, limits, self._env(env), drop_to_nobody=untrusted, stdin=stdin)


__all__ = ["BwrapSandbox", "bwrap_available"]
