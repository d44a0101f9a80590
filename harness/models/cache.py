"""On-disk response cache: an identical request is answered from disk, so a rerun costs nothing.

Keys are the sha256 of the canonical JSON of everything that shapes the answer (model, api_base,
the checkpoint a local server lists for the name (``served.py``), messages, sampling options, seed, sample
and round index). Entries are one JSON file each, written to
a temporary file and renamed, so concurrent workers and killed runs never leave a torn entry.
Each entry carries a digest of its key and completion; an entry that does not match it (edited, torn
by a full disk, written by an older ECov that cached empty answers), or that is too large or nests too
deep to parse safely (ecov.harness.core.bounded_json), is dropped and the request is made again. Only real answers are ever put here: faults raise before ``put``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from ecov.harness.core import bounded_json
from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.models.base import Completion

MAX_ENTRY_BYTES = 64 * 1024 * 1024  # an answer is at most 256K characters; the request's chat rides along


def default_cache_dir() -> Path:
    """``$ECOV_CACHE_DIR/responses``, else ``~/.cache/ecov/responses``."""
    root = os.environ.get("ECOV_CACHE_DIR")
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "ecov"
    return base / "responses"


def request_key(fields: dict[str, Any]) -> str:
    blob = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


class ResponseCache:
    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else default_cache_dir()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Completion | None:
        p = self.path(key)
        try:  # size and depth checked before parsing: a nested entry must not raise RecursionError
            data = bounded_json.read(p, max_bytes=MAX_ENTRY_BYTES)
            completion = data["completion"]
            good = data.get("key") == key and data.get("digest") == entry_digest(key, completion)
            comp = Completion.from_dict(completion) if good else None
            good = good and isinstance(comp.text, str)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            good = False
        if not good:
            p.unlink(missing_ok=True)  # a bad entry is dropped and the request made again
            return None
        comp.cached = True
        comp.retries = 0
        return comp

    def put(self, key: str, completion: Completion, request: dict[str, Any] | None = None) -> None:
        p = self.path(key)
        stored = {**completion.to_dict(), "cached": False}
        entry = {"key": key, "completion": stored, "request": request, "digest": entry_digest(key, stored)}
        write_text_atomic(p, json.dumps(entry, sort_keys=True))


def entry_digest(key: str, completion: dict[str, Any]) -> str:
    """sha256 of the key and the completion as stored: what ``get`` checks before serving an entry."""
    blob = json.dumps({"key": key, "completion": completion}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()
