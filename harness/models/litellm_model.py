"""Any chat model LiteLLM can reach (openai/..., anthropic/..., hosted_vllm/..., ollama/...).

Retries are ours, not LiteLLM's or the OpenAI SDK's (both are set to 0), so that every failed attempt
is counted and only transient failures are retried: rate limits (429), server errors (5xx), timeouts,
connection errors and answers without a message (no ``choices``, ``content: null``) back off
exponentially with jitter, never sooner than the server's Retry-After (honoured up to
``limits.RETRY_AFTER_MAX`` seconds); auth and bad-request errors fail at once. A fault is never cached.
LiteLLM is imported lazily (it takes seconds) and always with its bundled cost map, never a download.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import socket
import threading
import time
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ecov.harness import registry
from ecov.harness.core.limits import DEFAULT_REQUEST_TIMEOUT, RETRY_AFTER_MAX
from ecov.harness.models.base import (
    MODEL,
    Completion,
    MissingKeyError,
    ModelError,
    ModelRequest,
    UnknownModelError,
)
from ecov.harness.models.cache import ResponseCache, request_key
from ecov.harness.models.probe import OLLAMA_API, ProbeResult, probe
from ecov.harness.models.served import served_name, served_root

ACCEPTED_FORMS = (
    "openai/<model>  (OPENAI_API_KEY; with --api-base for any OpenAI-compatible server)",
    "anthropic/<model>  (ANTHROPIC_API_KEY)",
    "hosted_vllm/<model>  (a vLLM server; needs --api-base, no key)",
    "ollama/<model>  (a local Ollama server; api_base defaults to http://localhost:11434)",
    "<provider>/<model>  for any other LiteLLM provider (https://docs.litellm.ai/docs/providers)",
)


def accepted_forms() -> list[str]:
    """The LiteLLM forms, then every registered builtin (from the registry, so the list cannot go stale)."""
    return [*ACCEPTED_FORMS, *(f"{n}  (built in, no API{'; needs --replay-run RUN_DIR' if n == 'builtin/replay' else ''})"
                               for n in registry.names(MODEL))]
# Where a provider's API lives when no --api-base is given (the endpoint probe asks it once).
DEFAULT_BASES = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com/v1"}
OLLAMA_BASE = "http://localhost:11434"
# Providers served locally: no key needed, and the key check is skipped.
KEYLESS_PROVIDERS = {"hosted_vllm", "vllm", "ollama", "ollama_chat", "lm_studio", "llamafile", "openai_like"}
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "0.0.0.0", "host.docker.internal"}
RETRYABLE_STATUS = {408, 409, 425, 429}
# What to do when requests time out (a slow CPU server, a long answer): the wait is the user's to set.
TIMEOUT_HINT = ("a slow server (a CPU one, a long answer) needs a larger --request-timeout; some servers "
                "(llama-cpp-python) keep working on a request after it timed out, so its retry waits behind it")
# Keys of ``extra`` that configure this adapter instead of being passed to litellm.completion.
ADAPTER_OPTIONS = {"cache", "backoff_base", "backoff_max", "price_in", "price_out"}


class EmptyAnswer(Exception):
    """The server answered 200 without a message (no choices, or content null): a fault, retried."""

_import_lock = threading.Lock()


def import_litellm():
    """Import LiteLLM with the local cost map and its chatter off."""
    with _import_lock:
        os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        os.environ.setdefault("LITELLM_LOG", "ERROR")
        import litellm

        litellm.suppress_debug_info = True
        litellm.telemetry = False
        return litellm


def _connection_failure(e: BaseException) -> str:
    """'connection refused' or 'DNS failure' when that is what the exception chain holds, else ''."""
    seen = 0
    x: BaseException | None = e
    while x is not None and seen < 12:
        if isinstance(x, ConnectionRefusedError):
            return "connection refused"
        if isinstance(x, socket.gaierror):
            return "DNS failure (the host name does not resolve)"
        x, seen = x.__cause__ or x.__context__, seen + 1
    return ""


def is_local(api_base: str | None) -> bool:
    if not api_base:
        return False
    host = urlparse(api_base if "://" in api_base else f"http://{api_base}").hostname or ""
    return host in LOCAL_HOSTS or host.endswith(".local")


def api_seed(seed: int, sample: int, attempt: int = 0, round: int = 0) -> int:
    """The seed sent to the provider: distinct per sample, round and re-ask, so that n samples are not n
    copies and a deterministic server does not repeat itself when a round's prompt repeats an earlier one.
    Round 0's seed is the one older runs sent (their caches and replays stay valid)."""
    text = f"{seed}:{sample}" + (f":{attempt}" if attempt else "") + (f":r{round}" if round else "")
    h = hashlib.sha256(text.encode()).hexdigest()
    return int(h[:8], 16) & 0x7FFFFFFF


class LiteLLMModel:
    def __init__(
        self,
        name: str,
        *,
        api_base: str | None = None,
        temperature: float = 0.7,
        top_p: float = 0.8,
        max_tokens: int = 8192,
        cache_dir: Path | None = None,
        max_retries: int = 5,
        timeout: float = DEFAULT_REQUEST_TIMEOUT,
        extra: dict | None = None,
    ):
        self.name = name
        self.api_base = api_base
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.timeout = timeout
        extra = dict(extra or {})
        self.backoff_base = float(extra.pop("backoff_base", 1.0))
        self.backoff_max = float(extra.pop("backoff_max", 60.0))
        # USD per million tokens, given by the user; without them a local server is free.
        self.prices = (extra.pop("price_in", None), extra.pop("price_out", None))
        self.on_retry = None  # set by the runner: called with one line per retry (shown on the terminal)
        use_cache = bool(extra.pop("cache", True))
        self.extra = extra
        self.cache = ResponseCache(cache_dir) if use_cache else None
        self._lock = threading.Lock()
        self.stats = {"requests": 0, "retries": 0, "cache_hits": 0, "errors": 0}
        self._retries_log = threading.local()

        self._litellm = import_litellm()
        self.provider = self._resolve_provider()
        self._api_key = self.extra.pop("api_key", None)
        self._check_key()
        self._supports_seed = self._supported("seed")
        # The checkpoint a local server loaded for this name (vLLM's /v1/models ``root``): it joins the
        # cache key, so a name served with other weights (a retrained stage0) never gets old answers.
        self.served = served_root(self.api_base, served_name(self.name), self._api_key) \
            if self.cache is not None and is_local(self.api_base) else ""

    # -- set-up ------------------------------------------------------------------------------
    def _resolve_provider(self) -> str:
        try:
            _, provider, _, _ = self._litellm.get_llm_provider(model=self.name, api_base=self.api_base)
        except Exception as e:
            forms = "\n  ".join(accepted_forms())
            raise UnknownModelError(f"unknown model {self.name!r}: {e.__class__.__name__}. "
                                    f"Accepted forms:\n  {forms}") from None
        return str(provider)

    def _check_key(self) -> None:
        if self.provider == "hosted_vllm" and not (self.api_base or os.environ.get("HOSTED_VLLM_API_BASE")):
            raise MissingKeyError(f"model {self.name!r} needs --api-base (the vLLM server's URL, "
                                  f"e.g. http://127.0.0.1:8000/v1) or HOSTED_VLLM_API_BASE")
        if self._api_key or self.provider in KEYLESS_PROVIDERS or is_local(self.api_base):
            return
        try:
            env = self._litellm.validate_environment(model=self.name, api_base=self.api_base)
        except Exception:  # validation tables do not know every provider; let the call decide
            return
        missing = env.get("missing_keys") or []
        if missing:
            raise MissingKeyError(f"model {self.name!r} needs {', '.join(missing)} set in the environment "
                                  f"(or --api-base pointing at a local server)")

    def _supported(self, param: str) -> bool:
        try:
            params = self._litellm.get_supported_openai_params(model=self.name, custom_llm_provider=self.provider)
        except Exception:
            return False
        return bool(params) and param in params

    # -- requests ----------------------------------------------------------------------------
    def cache_fields(self, req: ModelRequest) -> dict[str, Any]:
        return {
            "model": self.name,
            "api_base": self.api_base,
            "messages": req.messages,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "seed": req.seed,
            "sample": req.sample,
            "round": req.round,
            "extra": _cacheable(self.extra),
            **({"attempt": req.attempt} if req.attempt else {}),  # re-asks must not hit the cache
            **({"served": self.served} if self.served else {}),  # the weights behind the name (served.py)
        }

    def probe(self) -> ProbeResult | None:
        """One look at the endpoint before the first sample (ecov.harness.models.probe); None when this
        provider has no endpoint we know how to ask. Raises EndpointUnreachable when the run cannot work."""
        key = self._api_key or ""
        base = self.api_base
        if self.provider.startswith("ollama"):
            return probe(base or OLLAMA_BASE, api=OLLAMA_API)
        if not base and self.provider in DEFAULT_BASES:
            base = DEFAULT_BASES[self.provider]
            key = key or os.environ.get(f"{self.provider.upper()}_API_KEY", "")
        if not base:
            return None
        if self.provider == "anthropic":
            headers = {"x-api-key": key, "anthropic-version": "2023-06-01"} if key else {}
        else:
            headers = {"Authorization": f"Bearer {key}"} if key else {}
        return probe(base, headers)

    def complete(self, req: ModelRequest) -> Completion:
        key = ""
        if self.cache is not None:
            key = request_key(self.cache_fields(req))
            hit = self.cache.get(key)
            if hit is not None:
                self._count("cache_hits")
                return hit
        comp = self._call_with_retries(req)
        if self.cache is not None:
            self.cache.put(key, comp, self.cache_fields(req))
        return comp

    def _kwargs(self, req: ModelRequest) -> dict[str, Any]:
        kw: dict[str, Any] = {
            "model": self.name,
            "messages": req.messages,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "timeout": self.timeout,
            "num_retries": 0,
            "max_retries": 0,
            "drop_params": True,
        }
        if self.api_base:
            kw["api_base"] = self.api_base
        if self._api_key:
            kw["api_key"] = self._api_key
        elif is_local(self.api_base) and self.provider not in KEYLESS_PROVIDERS:
            # The OpenAI SDK refuses to start without a key; a local server ignores it.
            kw["api_key"] = os.environ.get("OPENAI_API_KEY") or "sk-ecov-local"
        if self._supports_seed:
            kw["seed"] = api_seed(req.seed, req.sample, req.attempt, req.round)
        kw.update(self.extra)
        return kw

    def _call_with_retries(self, req: ModelRequest) -> Completion:
        kwargs = self._kwargs(req)
        retries = 0
        while True:
            self._count("requests")
            try:
                resp = self._litellm.completion(**kwargs)
                comp = self._completion(resp, retries)
                comp.seed = kwargs.get("seed")
                return comp
            except Exception as e:  # classify, then retry or raise ModelError
                status, retryable = self._classify(e)
                if not retryable or retries >= self.max_retries:
                    self._count("errors")
                    what = "gave up after" if retryable else "not retried;"
                    detail = (TIMEOUT_HINT if self._timed_out(e) else f"{_short(e)}{self._hint(status)}")
                    raise ModelError(
                        f"{self.name}: {self._describe(e, status)} {what} "
                        f"{retries} retr{'y' if retries == 1 else 'ies'}: {detail}",
                        status=status, retryable=retryable,
                    ) from e
                retries += 1
                self._count("retries")
                delay = self._delay(retries, e)
                if self.on_retry is not None:
                    self.on_retry(f"{self.name}: task {req.task.id} sample {req.sample} round {req.round + 1}: "
                                  f"{self._describe(e, status)}, retry {retries}/"
                                  f"{self.max_retries} in {delay:.1f} s")
                time.sleep(delay)

    def _timed_out(self, e: Exception) -> bool:
        return isinstance(e, (self._litellm.Timeout, TimeoutError))

    def _describe(self, e: Exception, status: int | None) -> str:
        """The failure in words: a timeout is ours (no answer in time), not an HTTP 408 from the server."""
        if self._timed_out(e):
            return f"no answer within the request timeout ({self.timeout:g} s)"
        refused = _connection_failure(e)
        if refused:  # LiteLLM wraps a refused connection as InternalServerError, as if the server said 500
            return f"{refused} at {self.api_base or self.provider}"
        return f"{e.__class__.__name__} (HTTP {status or '-'})"

    def _hint(self, status: int | None) -> str:
        """What to do about a fatal error whose cause is the model string, not the server."""
        if status == 404 and self.api_base and self.provider.startswith("ollama"):
            return (f" (the server at {self.api_base} has no Ollama API; for an OpenAI-compatible server "
                    f"use openai/<model>)")
        return ""

    def _classify(self, e: Exception) -> tuple[int | None, bool]:
        ll = self._litellm
        if isinstance(e, EmptyAnswer):
            return None, True
        status = getattr(e, "status_code", None)
        try:
            status = int(status) if status is not None else None
        except (TypeError, ValueError):
            status = None
        transient = (ll.RateLimitError, ll.Timeout, ll.APIConnectionError, ll.InternalServerError,
                     ll.ServiceUnavailableError, ll.BadGatewayError)
        fatal = (ll.AuthenticationError, ll.PermissionDeniedError, ll.NotFoundError, ll.BadRequestError,
                 ll.ContextWindowExceededError, ll.ContentPolicyViolationError, ll.UnprocessableEntityError)
        if isinstance(e, fatal) and not isinstance(e, transient):
            return status, False
        if isinstance(e, transient):
            return status, True
        if status is not None:
            return status, status in RETRYABLE_STATUS or status >= 500
        # Connection-level errors from httpx/openai surface without a status.
        return status, isinstance(e, (TimeoutError, ConnectionError, OSError))

    def _delay(self, attempt: int, e: Exception) -> float:
        """Exponential backoff with jitter, but never sooner than the server's Retry-After (capped)."""
        delay = min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1)) * (0.5 + random.random())
        retry_after = _retry_after(e)
        if retry_after is not None:
            delay = max(delay, min(RETRY_AFTER_MAX, retry_after))
        return delay

    def _completion(self, resp: Any, retries: int) -> Completion:
        choice = resp.choices[0] if getattr(resp, "choices", None) else None
        content = getattr(getattr(choice, "message", None), "content", None) if choice else None
        if choice is None or content is None:
            raise EmptyAnswer("the server answered without a message ("
                              + ("no choices" if choice is None else "content null") + ")")
        text = str(content)
        usage = getattr(resp, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        finish = str(getattr(choice, "finish_reason", "") or "") if choice else ""
        return Completion(text=text, prompt_tokens=prompt, completion_tokens=completion,
                          cost=self.cost(prompt, completion), model=self.name, retries=retries,
                          finish_reason=finish)

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """USD: the user's prices when given; else 0 for a local server (whatever the model's name says);
        else LiteLLM's bundled cost map (0 for models it does not price)."""
        if self.prices != (None, None):
            p_in, p_out = (float(x or 0.0) for x in self.prices)
            return (prompt_tokens * p_in + completion_tokens * p_out) / 1e6
        if is_local(self.api_base):
            return 0.0
        try:
            p, c = self._litellm.cost_per_token(model=self.name, prompt_tokens=prompt_tokens,
                                                completion_tokens=completion_tokens,
                                                custom_llm_provider=self.provider)
            return float(p) + float(c)
        except Exception:
            return 0.0

    def _count(self, what: str) -> None:
        with self._lock:
            self.stats[what] += 1


def _retry_after(e: Exception) -> float | None:
    """Seconds the server asked us to wait (Retry-After: seconds or an HTTP date; retry-after-ms)."""
    resp = getattr(e, "response", None)
    headers = getattr(resp, "headers", None) or getattr(e, "headers", None)
    if not headers:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def _cacheable(extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` for the cache key and the stored request: header values (they may carry credentials)
    only as a digest."""
    out = dict(extra)
    if out.get("extra_headers"):
        blob = json.dumps(out["extra_headers"], sort_keys=True, default=str)
        out["extra_headers"] = "sha256:" + hashlib.sha256(blob.encode()).hexdigest()
    return out


def _short(e: Exception, limit: int = 300) -> str:
    text = " ".join(str(e).split())
    return text if len(text) <= limit else text[:limit] + "..."
