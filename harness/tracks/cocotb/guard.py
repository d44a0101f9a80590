"""Runtime guard installed inside the simulator before the testbench module is imported.

This file is copied into each cocotb job as ``ecov_guard.py`` and named in ``PYGPI_USERS`` between
cocotb's initialisation and its regression manager, so it runs before a single line of the testbench.
It must import nothing from the harness (the simulator's Python sees only the job folder and cocotb).

It adds a CPython audit hook (hooks cannot be removed) that refuses what a testbench has no reason to
do: write, create or delete files, start processes, load native code (ctypes), open
sockets, trace frames, read ``/proc`` (the mount table names the harness's output folder) or list
folders other than its own and Python's (the jobs folder holds that output folder). The AST policy
(ecov.harness.tracks.cocotb.policy) refuses the same things earlier with a clear message. Both are
feedback, not the wall: Python in the simulator's process can reach its memory (issue 30 did, through
``exec`` and ``marshal.loads``, which a hook cannot refuse without breaking imports), so no figure is
taken from this process: the trusted replay computes them in a DUT-only run from the trace of the DUT's
inputs. Its state lives in the hook's closure as frozen values, not in module globals a testbench could
rebind through ``sys.modules``. The interpreter it runs in has no ``ctypes``/``_ctypes`` at all
(ecov.harness.tracks.cocotb.pyview).
"""

import os
import sys

_DENY_EXACT = frozenset({
    "os.system", "os.fork", "os.forkpty", "os.kill", "os.killpg", "os.putenv", "os.unsetenv",
    "os.remove", "os.rmdir", "os.rename", "os.mkdir", "os.chmod", "os.chown", "os.link", "os.symlink",
    "os.truncate", "os.utime", "os.chdir", "os.chflags", "os.setxattr",
    "os.removexattr", "os.startfile", "pty.spawn", "glob.glob", "glob.glob/2", "shutil.rmtree",
    "shutil.copyfile", "shutil.move", "shutil.make_archive", "shutil.unpack_archive", "subprocess.Popen",
    "sys.settrace", "sys.setprofile", "sys.remote_exec", "webbrowser.open", "urllib.Request",
    "builtins.input", "mmap.__new__", "resource.setrlimit", "resource.prlimit",
    "signal.pthread_kill", "fcntl.ioctl", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "code.__new__", "function.__new__", "sys._current_frames",
})
_DENY_PREFIX = ("os.exec", "os.posix_spawn", "os.spawn", "ctypes.", "socket.", "ftplib.", "http.client",
                "smtplib.", "sqlite3.", "winreg.", "cpython.run_", "_posixsubprocess")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Refused(PermissionError):
    """An action the ECov sandbox does not allow a testbench."""


def _make_hook(listable: tuple[str, ...], deny_exact: frozenset, deny_prefix: tuple[str, ...], write_flags: int):
    """The audit hook, its state frozen in the closure: rebinding this module's names changes nothing."""
    allowed_writes = frozenset({"/dev/null"})
    abspath, fsdecode, plain = os.path.abspath, os.fsdecode, str.__str__

    def name_of(path):
        """The path as a plain str: a str subclass cannot choose what the checks see (its own __str__ saying
        /dev/null while the file opened is another); None for a descriptor."""
        try:
            return plain(fsdecode(path))
        except TypeError:
            return None

    def listable_path(path) -> bool:
        if path is None:
            path = "."
        if isinstance(path, int):  # an open folder descriptor: nothing a testbench needs
            return False
        full = abspath(name_of(path) or "/")
        return any(full == root or full.startswith(root.rstrip("/") + "/") for root in listable)

    def hook(event, args):
        if event == "open":
            path, mode, flags = (list(args) + [None, None, None])[:3]
            name = name_of(path)
            if name is not None and abspath(name).startswith("/proc/"):
                raise Refused(f"ECov: testbenches may not read /proc ({name!r})")
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & write_flags)
            if writing and name not in allowed_writes:
                raise Refused(f"ECov: testbenches may not write files ({name if name is not None else path!r})")
            return
        if event in ("os.listdir", "os.scandir") and not listable_path(args[0] if args else None):
            raise Refused(f"ECov: testbenches may list only their own folder ({args[0] if args else '.'!r})")
        if event in deny_exact or event.startswith(deny_prefix):
            raise Refused(f"ECov: '{event}' is not allowed in a testbench")

    return hook


def install():
    """PYGPI_USERS entry point: add the audit hook for the rest of the simulation (hooks cannot be removed)."""
    sys.dont_write_bytecode = True
    roots = [os.getcwd(), sys.prefix, sys.exec_prefix, *(p for p in sys.path if p)]
    listable = tuple(sorted({os.path.abspath(r) for r in roots if os.path.abspath(r) != "/"}))
    sys.addaudithook(_make_hook(listable, _DENY_EXACT, _DENY_PREFIX, _WRITE_FLAGS))
