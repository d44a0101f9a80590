"""A scripted OpenAI-compatible HTTP server for tests (stdlib only, 127.0.0.1, ephemeral port).

Usage::

    with FakeOpenAIServer(["first answer", {"status": 429}, "second answer"]) as srv:
        model = get_model("openai/fake", api_base=srv.url)
        ...
        assert len(srv.requests) == 3

Each POST to ``/v1/chat/completions`` (or ``/chat/completions``) takes the next script item, or
calls the script with the request body when it is a callable. Items:

* ``"text"`` -- a normal completion with that content and plausible usage counts;
* ``{"content": "text", "delay": 0.5}`` -- the same, after sleeping ``delay`` seconds
  (``usage`` may be given as a dict to override the counts);
* ``{"choices": []}`` -- a 200 answer with no choices; ``{"content": None}`` -- one whose message content is
  null (both faults of real servers under load);
* ``{"status": 429, "body": {...}}`` -- that HTTP error; ``body`` defaults to an OpenAI-style
  error JSON (``{"error": {"message", "type", "code"}}``); ``headers`` may add response headers.

When the script is exhausted the server answers 500 with a message saying so.
``GET /v1/models`` lists one model, ``fake-model``.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ScriptItem = str | dict[str, Any]
Script = list[ScriptItem] | Callable[[dict[str, Any]], ScriptItem]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_exceeded",
}


def _count_tokens(text: str) -> int:
    """A rough token count (about 4 characters a token), enough for accounting tests."""
    return max(1, (len(text) + 3) // 4) if text else 0


def _prompt_tokens(body: dict[str, Any]) -> int:
    messages = body.get("messages") or []
    return sum(4 + _count_tokens(str(m.get("content", ""))) for m in messages if isinstance(m, dict))


class FakeOpenAIServer:
    """Context manager running the scripted server in a daemon thread."""

    def __init__(self, script: Script):
        self._script = script if callable(script) else list(script)
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> FakeOpenAIServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                if self.path.rstrip("/") in ("/v1/models", "/models"):
                    self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model",
                                                                 "created": 0, "owned_by": "ecov"}]})
                else:
                    self._json(404, _error_body(404, f"no route GET {self.path}"))

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.path.split("?")[0].rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                    self._json(404, _error_body(404, f"no route POST {self.path}"))
                    return
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError as e:
                    self._json(400, _error_body(400, f"request body is not JSON: {e}"))
                    return
                item = server._next(body, dict(self.headers.items()))
                status, payload, headers = server._answer(item, body)
                self._json(status, payload, headers)

            def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, str(v))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    # -- properties --------------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def remaining(self) -> int:
        """Script items not yet consumed (0 for a callable script)."""
        return 0 if callable(self._script) else len(self._script)

    # -- scripting ---------------------------------------------------------------------------
    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> ScriptItem | None:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if callable(self._script):
                return self._script(body)
            return self._script.pop(0) if self._script else None

    def _answer(self, item: ScriptItem | None, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        if item is None:
            n = len(self.requests)
            return 500, _error_body(500, f"FakeOpenAIServer script exhausted (request #{n} has no answer)"), {}
        if isinstance(item, str):
            item = {"content": item}
        if item.get("delay"):
            time.sleep(float(item["delay"]))
        status = int(item.get("status", 200))
        headers = dict(item.get("headers") or {})
        if status != 200:
            return status, item.get("body") or _error_body(status, f"scripted HTTP {status}"), headers
        raw = item.get("content", "")
        content = None if raw is None else str(raw)
        prompt = _prompt_tokens(body)
        completion = _count_tokens(content or "")
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        usage.update(item.get("usage") or {})
        payload = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(body.get("model", "fake-model")),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": item.get("finish_reason", "stop"), "logprobs": None}],
            "usage": usage,
            "system_fingerprint": "fp_ecov_fake",
        }
        if "choices" in item:
            payload["choices"] = item["choices"]
        return 200, payload, headers


def _error_body(status: int, message: str) -> dict[str, Any]:
    kind = _ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind, "param": None, "code": str(status)}}
