"""One registry for every extension kind: (kind, name) -> object.

Benchmarks, tracks (testbench languages), protocols, models, sandboxes, executors and the other kinds are
registered here by the module that defines them, with ``@register(kind, name)`` or ``register(kind, name,
obj)``. Lookups load the built-in plugin modules of a kind (named below as strings) and every entry point
of the ``ecov.plugins`` group on first use, so an outside package adds a benchmark, track, protocol, model or
sandbox by declaring one entry point::

    [project.entry-points."ecov.plugins"]
    my_bench = "my_package.ecov_plugin"    # a module whose import registers its objects

This module is the only place that imports lazily: everything else imports what it uses at the top, and
the registry imports nothing of the project at module level, so it sits below every layer.
"""
from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, TypeVar

ENTRY_POINT_GROUP = "ecov.plugins"

# The project's own plugin modules, by kind: imported on the first lookup of that kind. A kind not listed
# here has no built-in plugins beyond what its modules register when they are imported anyway.
BUILTIN_MODULES: dict[str, tuple[str, ...]] = {
    "feedback": ("ecov.harness.loop.feedback", "ecov.harness.loop.bughunt_feedback"),
    "protocol": ("ecov.harness.core.protocol",),
    "model": tuple(f"ecov.harness.models.{m}" for m in ("builtin_random", "legal_random", "replay",
                                                                  "reference", "golden_capture")),
    "track": ("ecov.harness.tracks.sv.track", "ecov.harness.tracks.cocotb.track"),
    "benchmark": tuple(f"ecov.harness.benchmark.builders.{m}" for m in ("cvdp", "autoeval", "embedded", "ecov_train",
                                                                       "authors")),
    "sandbox": ("ecov.harness.sandbox.bwrap", "ecov.harness.sandbox.docker", "ecov.harness.sandbox.rlimit"),
}

T = TypeVar("T")

_objects: dict[str, dict[str, Any]] = {}
_loaded_kinds: set[str] = set()
_entry_points_loaded = False
_lock = threading.RLock()


class RegistryError(LookupError):
    """An unknown kind/name, or a name registered twice with different objects."""


def register(kind: str, name: str, obj: T | None = None) -> T | Callable[[T], T]:
    """Register ``obj`` as ``name`` of ``kind``; without ``obj``, a decorator that does so.

    Registering the same object again is a no-op (a module imported twice registers twice); another object
    under a taken name is an error, so two plugins cannot silently shadow each other.
    """
    def add(o: T) -> T:
        with _lock:
            table = _objects.setdefault(kind, {})
            if name in table and table[name] is not o:
                raise RegistryError(f"{kind} {name!r} is registered already ({table[name]!r})")
            table[name] = o
        return o
    return add if obj is None else add(obj)


def builtin_modules(kind: str, *modules: str) -> None:
    """Declare modules (by dotted name) whose import registers the built-in ``kind`` plugins."""
    with _lock:
        BUILTIN_MODULES[kind] = tuple(dict.fromkeys(BUILTIN_MODULES.get(kind, ()) + modules))
        _loaded_kinds.discard(kind)


def _load(kind: str) -> None:
    global _entry_points_loaded
    with _lock:
        if kind not in _loaded_kinds:
            _loaded_kinds.add(kind)
            for module in BUILTIN_MODULES.get(kind, ()):
                importlib.import_module(module)
        if not _entry_points_loaded:
            _entry_points_loaded = True
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                ep.load()


def get(kind: str, name: str) -> Any:
    """The object registered as ``name`` of ``kind``; a RegistryError naming the known ones otherwise."""
    _load(kind)
    table = _objects.get(kind, {})
    if name not in table:
        known = ", ".join(sorted(table)) or "none"
        raise RegistryError(f"unknown {kind} {name!r} (known: {known})")
    return table[name]


def names(kind: str) -> list[str]:
    """Every registered name of ``kind``, sorted: CLI choices come from here."""
    _load(kind)
    return sorted(_objects.get(kind, {}))


def items(kind: str) -> dict[str, Any]:
    """Name -> object for ``kind`` (a copy)."""
    _load(kind)
    return dict(_objects.get(kind, {}))


def unregister(kind: str, name: str) -> None:
    """Remove one entry (tests that register a toy plugin clean up with this)."""
    with _lock:
        _objects.get(kind, {}).pop(name, None)
