"""A dead or wrong model endpoint fails the run at once, naming the URL and the cause (issue 35): no sample
burns its retries, no run folder appears, no 0% summary is printed. Real servers on 127.0.0.1."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fake_openai import FakeOpenAIServer

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.models import ModelError, ModelRequest, get_model
from ecov.harness.models.probe import EndpointUnreachable, probe


@contextmanager
def answering(status: int):
    """A server whose every GET answers ``status`` with a JSON body."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server API)
            body = b'{"error": {"message": "no"}}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


def refused_url() -> str:
    """A port nothing listens on (bound, then closed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/v1"


def _eval(tmp_path, api_base: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", "--model", "openai/fake", "--api-base",
                           api_base, "--limit", "2", "--out", str(tmp_path / "run"), "--no-progress"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


@pytest.mark.parametrize("case, words", [
    ("refused", ["connection refused at"]),
    ("dns", ["cannot resolve 'nosuchhost.invalid' (DNS failure)"]),
    (401, ["refused the credentials (HTTP 401"]),
    (404, ["no OpenAI-compatible API at", "HTTP 404"]),
])
def test_dead_or_wrong_endpoint_fails_before_any_sample(tmp_path, case, words):
    if case == "refused":
        ctx, url = None, refused_url()
    elif case == "dns":
        ctx, url = None, "http://nosuchhost.invalid/v1"
    else:
        ctx = answering(case)
        url = ctx.__enter__()
    try:
        proc = _eval(tmp_path, url)
    finally:
        if ctx is not None:
            ctx.__exit__(None, None, None)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 6, out[-2000:]
    error = [line for line in out.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and url.split("/v1")[0] in error[0], out[-2000:]
    for w in words:
        assert w in error[0], error[0]
    assert "No sample was run" in error[0]
    assert "pass %" not in out and "retry" not in out  # no summary, no retries burnt
    assert not (tmp_path / "run").exists()


def test_probe_lets_a_live_server_through_and_notes_a_busy_one():
    with FakeOpenAIServer(["x"]) as srv:
        assert probe(srv.url).ok
    with answering(503) as url:  # a 5xx can get better by waiting: the run goes on with a note
        looked = probe(url)
        assert not looked.ok and "HTTP 503" in looked.note
    with pytest.raises(EndpointUnreachable, match="connection refused"):
        probe(refused_url())


def test_a_refused_connection_mid_run_is_named_not_called_http_500(tmp_path):
    """LiteLLM wraps a refused connection as InternalServerError; the fault line says what happened."""
    url = refused_url()
    model = get_model("openai/fake", api_base=url, max_retries=0, cache_dir=tmp_path)
    task = load_suite()[0]
    with pytest.raises(ModelError) as err:
        model.complete(ModelRequest(task=task, messages=[{"role": "user", "content": "hi"}], sample=0, seed=1))
    assert f"connection refused at {url}" in str(err.value)
    assert "HTTP 500" not in str(err.value)
