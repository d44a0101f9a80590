"""Models: LiteLLM-backed chat models and the builtins (random baseline, replay).

``get_model(name)`` is the one entry point; see docs/models.md for the accepted names.
"""

from __future__ import annotations

import os
from pathlib import Path

from ecov.harness import registry
from ecov.harness.models.base import (
    MODEL,
    Completion,
    MissingKeyError,
    Model,
    ModelError,
    ModelRequest,
    UnknownModelError,
)

# Whoever imports LiteLLM first in this process, it must use its bundled price map, never download one.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")



def builtin_names() -> list[str]:
    """The registered models (builtin/random, builtin/legal-random, builtin/replay, builtin/reference and any
    plugin's), sorted: the order modules happen to register in must not show in messages."""
    return registry.names(MODEL)


def get_model(
    name: str,
    *,
    api_base: str | None = None,
    temperature: float = 0.7,
    top_p: float = 0.8,
    max_tokens: int = 8192,
    cache_dir: Path | None = None,
    max_retries: int = 5,
    timeout: float = 600,
    replay_run: Path | None = None,
    extra: dict | None = None,
) -> Model:
    """Build the model named ``name``.

    ``extra`` is passed to ``litellm.completion`` (``api_key``, ``api_version``, ...) except the adapter
    options ``cache`` (False disables the response cache), ``backoff_base`` and ``backoff_max`` (seconds);
    for ``builtin/random`` it may hold ``cycles`` (the round-0 run length; default: the track's).
    """
    name = (name or "").strip()
    if not name:
        raise UnknownModelError("empty model name")
    factory = registry.items(MODEL).get(name)
    if factory is not None:  # a registered model (the builtins, or a plugin's)
        return factory(api_base=api_base, temperature=temperature, top_p=top_p, max_tokens=max_tokens,
                       cache_dir=cache_dir, max_retries=max_retries, timeout=timeout, replay_run=replay_run,
                       extra=extra)
    if name.startswith("builtin/"):
        raise UnknownModelError(f"unknown builtin {name!r}; builtins are: {', '.join(builtin_names())}")
    from ecov.harness.models.litellm_model import LiteLLMModel

    return LiteLLMModel(name, api_base=api_base, temperature=temperature, top_p=top_p, max_tokens=max_tokens,
                        cache_dir=cache_dir, max_retries=max_retries, timeout=timeout, extra=extra)


__all__ = [
    "builtin_names",
    "Completion",
    "MissingKeyError",
    "Model",
    "ModelError",
    "ModelRequest",
    "UnknownModelError",
    "get_model",
]
