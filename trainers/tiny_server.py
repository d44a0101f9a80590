"""A minimal OpenAI-compatible chat server for a local transformers checkpoint (CPU smoke runs).

    python -m ecov.trainers.tiny_server --model runs/tiny-model --name student --port 8011

Serves ``GET /v1/models`` (with ``root``, the checkpoint loaded, as vLLM lists it) and
``POST /v1/chat/completions`` (non-streaming), rendering the chat with the checkpoint's own chat template,
as vLLM does; on a GPU when there is one. One request is generated at a time. For real models
the pipeline starts vLLM instead (docs/trainers.md).
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Generator:
    def __init__(self, path: str, max_new_tokens: int):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.tok = AutoTokenizer.from_pretrained(path)
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        dtype = torch.bfloat16 if self.device == "cuda" else torch.float32
        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype).to(self.device)
        self.model.eval()
        self.cap = max_new_tokens
        self.lock = threading.Lock()

    def chat(self, messages: list[dict], max_tokens: int, temperature: float, top_p: float, seed: int) -> tuple[str, str, int, int]:
        ids = self.tok.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt")
        if hasattr(ids, "keys"):
            ids = ids["input_ids"]
        ids = ids.to(self.device)
        n = min(int(max_tokens or self.cap), self.cap)
        with self.lock, self.torch.no_grad():
            self.torch.manual_seed(seed)
            out = self.model.generate(ids, max_new_tokens=n, do_sample=temperature > 0,
                                      temperature=max(temperature, 1e-5), top_p=top_p,
                                      pad_token_id=self.tok.pad_token_id, eos_token_id=self.tok.eos_token_id)
        new = out[0, ids.shape[1]:]
        text = self.tok.decode(new, skip_special_tokens=True)
        finish = "length" if len(new) >= n and int(new[-1]) != self.tok.eos_token_id else "stop"
        return text, finish, int(ids.shape[1]), int(len(new))


def make_server(path: str, name: str, port: int, max_new_tokens: int = 256) -> ThreadingHTTPServer:
    gen = _Generator(path, max_new_tokens)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt, *args):  # quiet: the pipeline keeps the server's log file short
            pass

        def _send(self, code: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path.rstrip("/").endswith("/v1/models"):
                # root: the checkpoint loaded, as vLLM lists it (the response cache and the pipeline read it)
                self._send(200, {"object": "list", "data": [{"id": name, "object": "model", "owned_by": "ecov",
                                                             "root": path}]})
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self):
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                text, finish, p, c = gen.chat(req["messages"], req.get("max_tokens") or req.get("max_completion_tokens"),
                                              float(req.get("temperature", 0.7)), float(req.get("top_p", 1.0)),
                                              int(req.get("seed") or 0))
            except (KeyError, TypeError, ValueError) as e:
                self._send(400, {"error": {"message": f"{type(e).__name__}: {e}"}})
                return
            self._send(200, {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion",
                             "created": int(time.time()), "model": name,
                             "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                          "finish_reason": finish}],
                             "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}})

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--max-new-tokens", type=int, default=256)
    a = ap.parse_args()
    srv = make_server(a.model, a.name, a.port, a.max_new_tokens)
    print(f"serving {a.model} as {a.name} on http://127.0.0.1:{a.port}/v1", flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
