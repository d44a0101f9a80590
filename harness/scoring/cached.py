"""The cached-scorer base every track's scorer builds on: timing, the score cache, lookup/remember.

The cache is content-keyed (``key_of`` a payload naming design, testbench, seed, backend and scoring
version), so it can be shared between runs, machines and executors.
"""

from __future__ import annotations

import hashlib
import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ecov.harness.core import bounded_json
from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.records import INFRA_ERROR, OK, TIMEOUT, Design, ScoreResult
from ecov.harness.sandbox.base import Sandbox
from ecov.harness.scoring.config import EngineConfig

MAX_ENTRY_BYTES = 16 * 1024 * 1024  # a result holds at most max_uncovered points and a 3 KB log tail


def key_of(payload: dict[str, Any]) -> str:
    """The cache key of a payload: sha256 of its sorted JSON."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


class CachedScorer(ABC):
    """What every track's scorer shares: ``score()`` timed, results cached by key under ``cache_root``.

    Subclasses set ``config``, ``cache_root`` and ``sandbox`` and implement ``cache_key`` (everything
    the figures depend on), ``identity`` (what another machine must match to score the same),
    ``_precheck`` (the checks that need no simulation; their results are never cached) and ``_score``,
    calling ``_cached`` once the testbench passed ``_precheck``. ``lookup``/``remember`` then let an
    executor answer from this machine and keep what another one scored (ecov.harness.scoring.executor).
    """

    config: EngineConfig
    cache_root: Path
    sandbox: Sandbox

    @property
    def isolation(self) -> str:
        return self.sandbox.name

    def trust(self) -> dict:
        """What a cached result's trust depends on: part of every cache key (a hit never relabels it)."""
        return {"sandbox": self.sandbox.name, "isolated": self.sandbox.isolated}

    def score(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        start = time.monotonic()
        # A UTF-8 byte order mark is an encoding detail of the file the testbench came from, not text.
        result = self._score(design, testbench.removeprefix("\ufeff"), seed)
        result.seconds = round(time.monotonic() - start, 3)
        return result

    @abstractmethod
    def _score(self, design: Design, testbench: str, seed: int) -> ScoreResult:
        """The result, checks and cache included (``score`` adds the wall time)."""

    @abstractmethod
    def cache_key(self, design: Design, testbench: str, seed: int) -> str:
        """The hash of everything the result depends on (see ``key_of``)."""

    @abstractmethod
    def identity(self) -> dict[str, str]:
        """The backend fingerprint and scoring version: two scorers with the same identity score alike."""

    @abstractmethod
    def _precheck(self, base: ScoreResult, design: Design, testbench: str) -> ScoreResult | None:
        """The result when a check that needs no build settles it (a rule rejection); None otherwise."""

    def lookup(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult | None:
        """The result without building: a precheck's answer or a score-cache hit; None when the testbench
        must be built and run. (ecov.harness.scoring.executor asks this before sending a job to another machine.)"""
        testbench = testbench.removeprefix("\ufeff")
        return (self._precheck(self._base(design, seed), design, testbench)
                or self._cache_hit(self.cache_key(design, testbench, seed)))

    def remember(self, design: Design, testbench: str, seed: int, result: ScoreResult) -> None:
        """Cache a result computed elsewhere (a worker with the same identity) under this scorer's key."""
        self._store(self.cache_key(design, testbench.removeprefix("\ufeff"), seed), result)

    def _base(self, design: Design, seed: int) -> ScoreResult:
        return ScoreResult(status=OK, instance=design.instance, isolation=self.isolation, seed=seed,
                           isolated=self.sandbox.isolated)

    def _cache_path(self, key: str) -> Path:
        return self.cache_root / "scores" / key[:2] / f"{key}.json"

    def _cached(self, base: ScoreResult, key: str, compute: Callable[[], ScoreResult]) -> ScoreResult:
        """The cached result for ``key``, else ``compute()`` (stored unless it failed for the harness's sake)."""
        base.key = key
        hit = self._cache_hit(key)
        if hit is not None:
            return hit
        result = compute()
        self._store(key, result)
        return result

    def _cache_hit(self, key: str) -> ScoreResult | None:
        path = self._cache_path(key)
        if self.config.use_cache and path.exists():
            try:  # size and depth checked before parsing (bounded_json): a bad entry never raises out of here
                entry = bounded_json.read(path, max_bytes=MAX_ENTRY_BYTES)
                if entry.get("key") != key or entry.get("digest") != entry_digest(key, entry["result"]):
                    path.unlink(missing_ok=True)  # edited, torn or from an older layout: computed again
                    return None
                hit = ScoreResult.from_dict(entry["result"])
                hit.cached = True
                if (hit.isolation, hit.isolated) != (self.isolation, self.sandbox.isolated):
                    return None  # computed under another sandbox: never relabelled, computed again
                return hit
            except FileNotFoundError:
                return None
            except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
                path.unlink(missing_ok=True)
        return None

    def _store(self, key: str, result: ScoreResult) -> None:
        if self.config.use_cache and result.status not in (INFRA_ERROR, TIMEOUT):
            d = result.to_dict(timing=False)
            entry = {"key": key, "result": d, "digest": entry_digest(key, d)}
            write_text_atomic(self._cache_path(key), json.dumps(entry, sort_keys=True))


def entry_digest(key: str, result: dict) -> str:
    """sha256 of a score-cache entry's key and result: checked on every read, so an entry edited by hand
    or torn by a full disk is dropped and recomputed instead of served (issue 24)."""
    blob = json.dumps({"key": key, "result": result}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


__all__ = ["CachedScorer", "key_of"]
