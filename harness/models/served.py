"""Which checkpoint a local OpenAI-compatible server answers with, as its ``GET /v1/models`` says.

vLLM and ``ecov.trainers.tiny_server`` list each served name with ``root``: the folder or hub id the
server loaded. A served name alone (``stage0``) says nothing of the weights behind it: the untrained and
the trained model are both served as ``stage0``, one after the other. The response cache therefore keys a
request to a local server by this root too, and ``ecov-train pipeline`` serves every checkpoint under a
path that names its content digest, so answers stay with the weights that gave them.

Only local servers are asked (a hosted API's model name is its identity); a server that lists no root,
does not list the name, or does not answer in time gives "" and the key is what it was before.
"""

from __future__ import annotations

import json
import urllib.request

LIST_TIMEOUT = 5.0  # seconds: a local server answers at once; a slow one must not stall a run's start


def served_name(model: str) -> str:
    """The name a server knows a LiteLLM model string by: the part after the provider prefix."""
    return model.split("/", 1)[1] if "/" in model else model


def list_models(api_base: str, api_key: str | None = None, timeout: float = LIST_TIMEOUT) -> list[dict]:
    """The entries of ``GET {api_base}/models``; raises OSError or ValueError when there is no such list."""
    req = urllib.request.Request(api_base.rstrip("/") + "/models")
    if api_key:
        req.add_header("Authorization", f"Bearer {api_key}")
    with urllib.request.urlopen(req, timeout=timeout) as r:
        body = json.loads(r.read() or b"{}")
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        raise ValueError(f"{api_base}/models holds no model list")
    return [d for d in data if isinstance(d, dict)]


def served_root(api_base: str, name: str, api_key: str | None = None, timeout: float = LIST_TIMEOUT) -> str:
    """The ``root`` the server at ``api_base`` lists for the served ``name``, or "" when it lists none."""
    try:
        entries = list_models(api_base, api_key, timeout)
    except (OSError, ValueError):
        return ""
    for d in entries:
        if d.get("id") == name and isinstance(d.get("root"), str) and d["root"] != name:
            return d["root"]
    return ""
