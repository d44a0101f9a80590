"""Reading what an untrusted run left behind: regular files only, never blocking, size-capped, timed.

Every file the harness reads from a folder a simulation could write (its run folder: the end marker,
points.dat, coverage.dat, contract.txt, legal.dat, the replay's trace) goes through ``read_bytes``. A
testbench that gets past its rules can put anything there: a FIFO with no writer (a plain ``open`` waits
forever), a link to a device or to a file of the host, a file that never ends. So a file is opened with
``O_NOFOLLOW | O_NONBLOCK`` relative to its folder (opened with ``O_DIRECTORY``), then ``fstat``'ed on the
descriptor actually read: anything but a regular file with one link, or one larger than the cap, is an
``UnsafeFile`` naming what was found, never a hang and never a partial read. Reads stop at a wall clock.
Removal: ``remove_tree`` deletes a folder whatever modes the run left on what it created.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import time
from pathlib import Path

_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 1 << 20
READ_SECONDS = 30.0  # default wall clock for one file


class UnsafeFile(OSError):
    """A file a run left that the harness will not read (not a regular file, too large, too slow)."""


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def read_bytes(path: Path | str, max_bytes: int, seconds: float = READ_SECONDS) -> bytes | None:
    """The content of ``path``, or None when it does not exist. ``UnsafeFile`` when it is anything but a
    regular file with a single link (a FIFO, device, socket, folder, symbolic or hard link), holds more
    than ``max_bytes``, or takes longer than ``seconds`` to read."""
    path = Path(path)
    deadline = time.monotonic() + seconds
    try:
        dfd = os.open(path.parent, _DIR_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise UnsafeFile(e.errno, f"the folder of '{path.name}' cannot be opened as a folder ({e.strerror})") from e
    try:
        try:
            fd = os.open(path.name, _OPEN_FLAGS, dir_fd=dfd)
        except FileNotFoundError:
            return None
        except OSError as e:
            what = "a symbolic link" if e.errno == errno.ELOOP else f"unopenable ({e.strerror})"
            raise UnsafeFile(e.errno, f"'{path.name}' is {what}: the harness reads only regular files a run "
                                      "wrote") from e
    finally:
        os.close(dfd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(errno.EINVAL, f"'{path.name}' is {_kind(st.st_mode)}: the harness reads only regular "
                                           "files a run wrote")
        if st.st_nlink != 1:
            raise UnsafeFile(errno.EMLINK, f"'{path.name}' has {st.st_nlink} hard links: the harness reads only "
                                           "files a run wrote itself")
        if st.st_size > max_bytes:
            raise UnsafeFile(errno.EFBIG, f"'{path.name}' holds {st.st_size} bytes, over the {max_bytes}-byte cap")
        chunks, size = [], 0
        while True:
            if time.monotonic() > deadline:
                raise UnsafeFile(errno.ETIMEDOUT, f"reading '{path.name}' took over {seconds:.0f} s")
            data = os.read(fd, _CHUNK)
            if not data:
                break
            size += len(data)
            if size > max_bytes:  # grew while being read
                raise UnsafeFile(errno.EFBIG, f"'{path.name}' holds over the {max_bytes}-byte cap")
            chunks.append(data)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: Path | str, max_bytes: int, seconds: float = READ_SECONDS) -> str | None:
    """``read_bytes`` decoded as UTF-8 (undecodable bytes replaced); None when the file does not exist."""
    data = read_bytes(path, max_bytes, seconds)
    return None if data is None else data.decode(errors="replace")


def remove_tree(path: Path | str) -> None:
    """Remove ``path`` and everything in it, also folders a run left without permissions (made writable and
    retried); links are removed, never followed. Missing is fine."""
    def unlock(_func, name, _exc) -> None:
        try:  # an entry that could not be removed: its folder was made read-only
            os.chmod(os.path.dirname(name), 0o700)
        except OSError:
            pass
        try:
            if os.path.isdir(name) and not os.path.islink(name):  # a folder that could not be listed
                os.chmod(name, 0o700)
                shutil.rmtree(name, ignore_errors=True)
            else:
                os.unlink(name)
        except OSError:
            pass

    for _ in range(3):
        if not os.path.lexists(path):
            return
        if os.path.islink(path) or not os.path.isdir(path):
            try:
                os.unlink(path)
            except FileNotFoundError:
                return
            continue
        try:
            os.chmod(path, 0o700)
        except OSError:
            pass
        shutil.rmtree(path, onerror=unlock)


__all__ = ["UnsafeFile", "READ_SECONDS", "read_bytes", "read_text", "remove_tree"]
