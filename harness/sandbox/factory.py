"""Choose a sandbox by name: a registered backend, or ``auto``, which never silently picks a weaker one.

The factory knows no backend: it asks the registry (kind ``sandbox``) and each class's ``auto_rank``,
``installed()`` and ``create*()``. The built-in backends are registered by their own modules.
"""

from __future__ import annotations

import os

from ecov.harness import registry
from ecov.harness.sandbox.base import Sandbox

AUTO = "auto"


def sandbox_names() -> list[str]:
    """``auto`` and every registered backend, in the order ``auto`` tries them: CLI choices."""
    return [AUTO, *sorted(registry.names("sandbox"), key=_rank)]


def _rank(name: str) -> tuple[int, str]:
    rank = registry.get("sandbox", name).auto_rank
    return (rank if rank is not None else 1_000_000, name)


def make_sandbox(kind: str = AUTO) -> Sandbox:
    """``auto``: bubblewrap, else Docker, else rlimits, and never silently worse than the machine allows.

    A machine that has bwrap or Docker installed but where it does not work is an error under ``auto``
    (choose ``--sandbox rlimit`` explicitly to accept the weaker sandbox); rlimits are used only where
    neither is installed, and results then say ``isolated: false``. ``ECOV_SANDBOX`` (a registered name)
    makes that choice explicitly for ``auto`` (e.g. on a CI machine whose bwrap cannot unshare).
    In general: under ``auto`` the first installed backend in ``auto_rank`` order must work.
    """
    known = registry.names("sandbox")
    if kind == AUTO and os.environ.get("ECOV_SANDBOX") in known:
        kind = os.environ["ECOV_SANDBOX"]
    if kind == AUTO:
        for name in sorted((n for n in known if registry.get("sandbox", n).auto_rank is not None), key=_rank):
            cls = registry.get("sandbox", name)
            if cls.installed():
                return cls.create_for_auto()
        raise RuntimeError("no sandbox is installed here")
    if kind not in known:
        choices = sandbox_names()
        raise ValueError(f"unknown sandbox {kind!r}: choose {', '.join(choices[:-1])} or {choices[-1]}")
    return registry.get("sandbox", kind).create()


__all__ = ["make_sandbox", "sandbox_names", "AUTO"]
