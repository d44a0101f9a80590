"""The rlimit sandbox: limits, a wall clock and the unprivileged user, but no namespaces.

The weakest backend, for hosts where neither bubblewrap nor Docker is installed: results then say
``isolated: false``, and host-reaching constructs are refused only by the test rules.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from ecov.harness.registry import register
from ecov.harness.sandbox.base import Sandbox, open_for_nobody, run_limited

NOT_ISOLATED = ("not isolated: the rlimit sandbox runs the simulation without namespaces (bubblewrap and "
                "Docker are unavailable); host-reaching constructs are refused by the test rules, but install "
                "bubblewrap for real isolation")


@register("sandbox", "rlimit")
class RlimitSandbox(Sandbox):
    name = "rlimit"
    isolated = False  # rlimits only: the weakest sandbox (docs/scoring.md, "Threat model")
    auto_rank = 100  # auto's last resort, used only where nothing better is installed

    def run(self, argv, workdir, limits, *, untrusted, ro_paths=(), rw_paths=(), env=None, stdin=None):
        """Every step runs unprivileged: a harness running as root drops the compile steps (Verilator and
        the compiler, which read testbench-derived text) to nobody as well, reading the tools it needs
        through a hard-linked view when their folder is not readable to nobody (``nobody_view``)."""
        env = self._env(env)
        if os.geteuid() == 0:
            mapping = {p: nobody_view(p) for p in ro_paths if not readable_by_nobody(p)}
            argv = [_remap(a, mapping) for a in argv]
            env = {k: _remap(v, mapping) for k, v in env.items()}
        open_for_nobody(workdir)
        return run_limited(argv, workdir, limits, env, drop_to_nobody=True, stdin=stdin,
                           nproc=untrusted or os.geteuid() != 0)


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


__all__ = ["RlimitSandbox", "NOT_ISOLATED", "readable_by_nobody", "nobody_view"]
