"""One look at a model endpoint before the first sample: a dead or wrong server fails the run at once.

Without it, every sample burnt its retries (about 35 s each) on a refused connection, and the run then
printed a full 0% summary before the error. The probe is a single ``GET <base>/models`` (every
OpenAI-compatible server has it: vLLM, llama-cpp-python, Ollama's /v1, OpenAI itself) with a short
timeout. Only answers that cannot get better by waiting stop the run: a refused connection, a name that
does not resolve, a key the server refuses (401/403), no API at that path (404). A slow or busy server,
a 5xx or a timeout lets the run go on: its requests have their own retries.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass

from ecov.harness.models.base import ModelError

PROBE_TIMEOUT = 3.0  # seconds: a local server answers /models in milliseconds; a DNS failure is immediate


class EndpointUnreachable(ModelError):
    """The model endpoint cannot serve this run; the message names the URL and the cause."""


@dataclass(frozen=True)
class ProbeResult:
    url: str
    ok: bool
    note: str = ""  # why the run goes on without a clean answer (timeout, 5xx), else empty


def _cause(e: BaseException) -> BaseException:
    """The innermost reason urllib wraps (URLError.reason), or the exception itself."""
    reason = getattr(e, "reason", None)
    return reason if isinstance(reason, BaseException) else e


@dataclass(frozen=True)
class Api:
    """What the probe asks for, and what a 404 there means."""

    path: str
    name: str
    hint: str


OPENAI_API = Api("/models", "OpenAI-compatible API",
                 "--api-base is the URL the API lives under, usually ending in /v1")
OLLAMA_API = Api("/api/tags", "Ollama API", "for an OpenAI-compatible server use openai/<model> "
                 "(and --api-base ending in /v1)")


def api_for(model: str) -> Api:
    """The API a LiteLLM model string talks to (Ollama's own for ollama/..., else OpenAI's shape)."""
    return OLLAMA_API if model.split("/", 1)[0] in ("ollama", "ollama_chat") else OPENAI_API


def probe(base: str, headers: dict[str, str] | None = None, timeout: float = PROBE_TIMEOUT,
          api: Api = OPENAI_API) -> ProbeResult:
    """``GET base + api.path``; raises EndpointUnreachable when waiting cannot help, else says how it went."""
    url = base.rstrip("/") + api.path
    req = urllib.request.Request(url, headers={"Accept": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - the user's own endpoint
            body = resp.read(1 << 20)
    except urllib.error.HTTPError as e:
        if e.code in (401, 403):
            raise EndpointUnreachable(f"the model server at {base} refused the credentials (HTTP {e.code} on "
                                      f"GET {url}): check --api-key or the provider's key variable",
                                      status=e.code) from None
        if e.code == 404:
            raise EndpointUnreachable(f"no {api.name} at {base} (HTTP 404 on GET {url}): {api.hint}",
                                      status=404) from None
        return ProbeResult(url, False, f"HTTP {e.code} on GET {url}; the run goes on and retries")
    except (urllib.error.URLError, OSError) as e:
        cause = _cause(e)
        if isinstance(cause, ConnectionRefusedError):
            raise EndpointUnreachable(f"connection refused at {base}: no model server listens there "
                                      "(is it running, and on that port?)") from None
        if isinstance(cause, socket.gaierror):
            host = urllib.request.urlparse(url).hostname
            raise EndpointUnreachable(f"cannot resolve {host!r} (DNS failure) for the model server at {base}: "
                                      "check the URL, or this machine's network") from None
        if isinstance(cause, (TimeoutError, socket.timeout)):
            return ProbeResult(url, False, f"no answer to GET {url} within {timeout:g} s; the run goes on")
        if isinstance(cause, OSError) and cause.errno is not None:
            raise EndpointUnreachable(f"cannot connect to the model server at {base}: "
                                      f"{cause.strerror or cause}") from None
        return ProbeResult(url, False, f"GET {url} failed ({type(cause).__name__}); the run goes on")
    try:
        json.loads(body or b"{}")
    except ValueError:
        return ProbeResult(url, False, f"GET {url} did not answer JSON; the run goes on")
    return ProbeResult(url, True)
