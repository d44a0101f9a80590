"""Answers belong to the model that gave them: two checkpoints served one after the other under one name
get their own answers from the response cache, as ``ecov-train pipeline`` serves them (and as anyone
serving a folder with vLLM or the tiny server does).

Before, the cache key named the served model ("stage0") and not its weights: re-running stage-0's
evaluation after a retraining got the old model's answers back, byte for byte, in no time.
"""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from ecov.harness.benchmark.store import load_benchmark  # noqa: E402
from ecov.harness.models import ModelRequest, get_model  # noqa: E402
from ecov.trainers.pipeline_config import ServeSpec  # noqa: E402
from ecov.trainers.serving import serve  # noqa: E402
from ecov.trainers.tiny_model import build_tiny_model  # noqa: E402

pytestmark = pytest.mark.train

TEXTS = ["filename: tb.sv\n```systemverilog\nmodule tb;\n  initial $finish;\nendmodule\n```",
         "Write a SystemVerilog testbench for the counter.", "always @(posedge clk) q <= q + 1;"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_checkpoints_served_under_one_name_get_their_own_answers(tmp_path):
    task = load_benchmark("ecov-embedded", "test")[0]
    req = ModelRequest(messages=[{"role": "user", "content": "Write a testbench for the counter."}], task=task)
    spec = ServeSpec(kind="tiny", port=_free_port(), args=["--max-new-tokens", "24"], startup_timeout=300)
    folder, work, cache = tmp_path / "stage0-final", tmp_path / "work", tmp_path / "responses"

    def ask():
        with serve(spec, str(folder), "stage0", work, tmp_path / "serve.log", env={"OMP_NUM_THREADS": "1"}) as s:
            model = get_model(s.model, api_base=s.api_base, temperature=1.0, max_tokens=24, cache_dir=cache)
            return model.complete(req), s.root

    build_tiny_model(folder, TEXTS, vocab_size=300, seed=0)  # the untrained student
    first, root_a = ask()
    again, _ = ask()
    assert not first.cached and again.cached and again.text == first.text  # same weights: the cache answers

    shutil.rmtree(folder)  # the same folder and name, other weights: a retrained stage0
    build_tiny_model(folder, TEXTS, vocab_size=300, seed=1)
    second, root_b = ask()
    assert root_a != root_b and Path(root_b).resolve() == folder.resolve()
    assert not second.cached and second.text != first.text  # asked, not served from the cache

    # The cache entry names what answered: the root the server listed for the name.
    entries = [p.read_text() for p in cache.rglob("*.json")]
    assert len(entries) == 2 and all(('"served": "' + r) in e for r, e in zip(sorted([root_a, root_b]), sorted(
        entries, key=lambda e: e.split('"served": "')[1]), strict=True))
