"""Submitted files are untrusted input: no link is followed or written through, archives are capped.

A folder submission may hold symlinks or hard links to host files (``/proc/self/environ``, a file
outside the repository): the site would publish them, ``verify`` would write through them. An archive
may expand to gigabytes or a hundred thousand files, and a folder may hold as much: both forms have the
same size, file-count and depth caps, checked before anything is read or copied (a path thousands of
folders deep would otherwise raise RecursionError in a recursive walk or removal). Everything that reads or
writes inside a submission goes through here. (Exported CSV tables neutralise formula cells: ecov.harness.evaluation.tables.csv_safe.)
"""

from __future__ import annotations

import os
import stat
import tarfile
from pathlib import Path, PurePosixPath

MAX_SUBMISSION_BYTES = 1024 * 1024 * 1024  # a submission folder's files, or a run archive expanded
MAX_SUBMISSION_FILES = 20_000  # files and folders of a submission folder, or members of an archive
MAX_PATH_DEPTH = 16  # folders below the submission (a run folder's logs nest 2 deep)
MAX_PATH_CHARS = 1024  # a member's path in an archive


class UntrustedError(ValueError):
    """A submission holds something that must not be read or written through."""


def check_tree(root: Path, max_bytes: int = MAX_SUBMISSION_BYTES, max_files: int = MAX_SUBMISSION_FILES,
               max_depth: int = MAX_PATH_DEPTH) -> None:
    """Refuse a folder holding any symlink, hard-linked file or special file (at any depth), more than
    ``max_files`` entries or ``max_bytes`` bytes of files, or folders nested deeper than ``max_depth``;
    only metadata is read (lstat), never content. The walk keeps its own stack: a folder 1,100 deep
    must be refused, not raise RecursionError in a recursive walk."""
    root = Path(root)
    if root.is_symlink():
        raise UntrustedError(f"{root} is a symbolic link")
    total, count = 0, 0
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                p = Path(entry.path)
                st = entry.stat(follow_symlinks=False)
                count += 1
                if count > max_files:
                    raise UntrustedError(f"{root}: more than {max_files:,} files and folders")
                if stat.S_ISLNK(st.st_mode):
                    raise UntrustedError(f"{p} is a symbolic link; submissions hold plain files only")
                if stat.S_ISREG(st.st_mode):
                    if st.st_nlink > 1:
                        raise UntrustedError(f"{p} is a hard link; submissions hold plain files only")
                    total += st.st_size
                    if total > max_bytes:
                        raise UntrustedError(f"{root}: holds more than {max_bytes:,} bytes")
                elif stat.S_ISDIR(st.st_mode):
                    if depth + 1 > max_depth:
                        raise UntrustedError(f"{root}: folders nested more than {max_depth} deep")
                    stack.append((p, depth + 1))
                else:
                    raise UntrustedError(f"{p} is not a plain file or folder")


def safe_extract(archive: Path, dest: Path, max_bytes: int = MAX_SUBMISSION_BYTES,
                 max_files: int = MAX_SUBMISSION_FILES, max_depth: int = MAX_PATH_DEPTH) -> None:
    """Extract regular files and folders only, within the size, file-count and depth caps; else refuse."""
    with tarfile.open(archive, "r:*") as tar:
        total, count, members = 0, 0, []
        for m in tar:  # streamed: the caps hold before anything is written
            if not (m.isfile() or m.isdir()):
                raise UntrustedError(f"{archive}: member {m.name[:200]!r} is a link or special file")
            if len(m.name) > MAX_PATH_CHARS or len(PurePosixPath(m.name).parts) > max_depth + 1:
                raise UntrustedError(f"{archive}: member {m.name[:100]!r}... is nested more than {max_depth} "
                                     f"folders deep or its path is over {MAX_PATH_CHARS} characters")
            count += 1
            total += m.size
            if count > max_files:
                raise UntrustedError(f"{archive}: more than {max_files:,} members")
            if total > max_bytes:
                raise UntrustedError(f"{archive}: expands to more than {max_bytes:,} bytes")
            members.append(m)
        tar.extractall(dest, members=members, filter="data")


def write_inside(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` without following a link at ``path`` (replaced by a new plain file)."""
    path = Path(path)
    if path.parent.is_symlink():
        raise UntrustedError(f"{path.parent} is a symbolic link; not writing through it")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)  # replaces a symlink itself, never its target

