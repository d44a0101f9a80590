"""The model layer against a real HTTP server on 127.0.0.1: LiteLLM adapter, retries, cache, keys, replay."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fake_openai import FakeOpenAIServer

from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder
from ecov.harness.models import (
    Completion,
    MissingKeyError,
    ModelError,
    ModelRequest,
    UnknownModelError,
    get_model,
)
from ecov.harness.models.cache import ResponseCache, default_cache_dir, request_key
from ecov.harness.tasks import Task

TASK = Task("suite/demo", "suite", [], [], "demo", "uut", "write a testbench", [])
FAST = {"backoff_base": 0.01, "backoff_max": 0.05}


def request(text: str = "write a testbench for demo", **kw) -> ModelRequest:
    return ModelRequest(messages=[{"role": "system", "content": "You write testbenches."},
                                  {"role": "user", "content": text}], task=TASK, **kw)


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)


def litellm_prices(model: str) -> tuple[float, float]:
    from ecov.harness.models.litellm_model import import_litellm

    entry = import_litellm().model_cost[model]
    return entry["input_cost_per_token"], entry["output_cost_per_token"]


def test_completion_usage_cost_and_request_body(tmp_path):
    usage = {"prompt_tokens": 1200, "completion_tokens": 345}
    with FakeOpenAIServer([{"content": "tb.sv\n```systemverilog\nmodule tb; endmodule\n```", "usage": usage}]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, temperature=0.2,
                          top_p=0.9, max_tokens=777, extra=FAST)
        comp = model.complete(request(seed=3, sample=1))
    assert comp.text.startswith("tb.sv\n```systemverilog")
    assert (comp.prompt_tokens, comp.completion_tokens) == (1200, 345)
    # A local server is free whatever the model's name says (issue 25); a remote one is priced by the map.
    assert comp.cost == 0.0 and not comp.cached and comp.retries == 0
    p_in, p_out = litellm_prices("gpt-4o-mini")
    model.api_base = "https://api.example.com/v1"
    assert model.cost(1200, 345) == pytest.approx(1200 * p_in + 345 * p_out) and model.cost(1200, 345) > 0
    body = srv.requests[0]
    assert body["model"] == "gpt-4o-mini"
    assert body["messages"][1]["content"] == "write a testbench for demo"
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.2, 0.9, 777)
    assert isinstance(body["seed"], int)


def test_unpriced_model_costs_zero(tmp_path):
    with FakeOpenAIServer(["answer"]) as srv:
        comp = get_model("openai/ecov-unpriced-model", api_base=srv.url, cache_dir=tmp_path).complete(request())
    assert comp.text == "answer" and comp.cost == 0.0 and comp.prompt_tokens > 0


def test_rate_limit_is_retried_and_counted(tmp_path):
    with FakeOpenAIServer([{"status": 429}, {"status": 503}, "finally"]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, extra=FAST)
        comp = model.complete(request())
    assert comp.text == "finally"
    assert comp.retries == 2
    assert model.stats["retries"] == 2 and model.stats["requests"] == 3
    assert len(srv.requests) == 3


def test_auth_error_is_not_retried(tmp_path):
    with FakeOpenAIServer([{"status": 401, "body": {"error": {"message": "bad key", "type": "invalid_api_key"}}},
                           "never sent"]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, extra=FAST)
        with pytest.raises(ModelError) as err:
            model.complete(request())
    assert err.value.status == 401 and not err.value.retryable
    assert "not retried" in str(err.value)
    assert len(srv.requests) == 1 and srv.remaining == 1


def test_bad_request_is_not_retried(tmp_path):
    with FakeOpenAIServer([{"status": 400}, "never sent"]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, extra=FAST)
        with pytest.raises(ModelError):
            model.complete(request())
    assert len(srv.requests) == 1


def test_server_errors_give_up_after_max_retries(tmp_path):
    with FakeOpenAIServer([{"status": 500}] * 5) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, max_retries=2, extra=FAST)
        with pytest.raises(ModelError) as err:
            model.complete(request())
    assert err.value.retryable and err.value.status == 500
    assert "gave up after 2 retries" in str(err.value)
    assert len(srv.requests) == 3


def test_timeout_is_retried(tmp_path):
    with FakeOpenAIServer([{"content": "late", "delay": 1.5}, "on time"]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, timeout=0.3, extra=FAST)
        comp = model.complete(request())
    assert comp.text == "on time" and comp.retries == 1
    assert len(srv.requests) == 2


def test_cache_hit_makes_no_request(tmp_path):
    with FakeOpenAIServer(["first", "second", "third"]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, extra=FAST)
        a = model.complete(request())
        b = model.complete(request())
        # A fresh model over the same cache directory (a rerun) is answered from disk too.
        c = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path).complete(request())
        assert len(srv.requests) == 1
        d = model.complete(request(sample=1))  # another sample is another request
        e = model.complete(request("a different prompt"))
    assert (a.text, b.text, c.text, d.text, e.text) == ("first", "first", "first", "second", "third")
    assert not a.cached and b.cached and c.cached and not d.cached
    assert b.prompt_tokens == a.prompt_tokens and b.cost == a.cost
    assert model.stats["cache_hits"] == 1
    assert len(srv.requests) == 3


def test_cache_can_be_disabled(tmp_path):
    with FakeOpenAIServer(["one", "two"]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, extra={"cache": False})
        assert [model.complete(request()).text for _ in range(2)] == ["one", "two"]
    assert not any(tmp_path.iterdir())


def test_cache_files_and_default_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ECOV_CACHE_DIR", str(tmp_path / "root"))
    assert default_cache_dir() == tmp_path / "root" / "responses"
    cache = ResponseCache()
    key = request_key({"model": "m", "messages": [{"role": "user", "content": "x"}]})
    assert cache.get(key) is None
    cache.put(key, Completion("text", 3, 4, 0.5, model="m"))
    hit = cache.get(key)
    assert hit == Completion("text", 3, 4, 0.5, cached=True, model="m")
    assert [p.name for p in cache.path(key).parent.iterdir()] == [f"{key}.json"]  # no temp file left


def test_concurrent_requests_are_all_answered(tmp_path):
    lock = threading.Lock()
    seen: list[str] = []

    def answer(body: dict) -> str:
        with lock:
            seen.append(body["messages"][-1]["content"])
        return "re: " + body["messages"][-1]["content"]

    with FakeOpenAIServer(answer) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path, extra=FAST)
        with ThreadPoolExecutor(max_workers=6) as pool:
            outs = list(pool.map(lambda i: model.complete(request(f"prompt {i}")).text, range(12)))
    assert outs == [f"re: prompt {i}" for i in range(12)]
    assert sorted(seen) == sorted(f"prompt {i}" for i in range(12))
    assert model.stats["requests"] == 12


def test_missing_key_is_reported_up_front():
    with pytest.raises(MissingKeyError, match="ANTHROPIC_API_KEY"):
        get_model("anthropic/claude-3-5-sonnet-20240620")
    with pytest.raises(MissingKeyError, match="OPENAI_API_KEY"):
        get_model("openai/gpt-4o")


def test_vllm_needs_an_api_base(monkeypatch):
    monkeypatch.delenv("HOSTED_VLLM_API_BASE", raising=False)
    with pytest.raises(MissingKeyError, match="needs --api-base"):
        get_model("hosted_vllm/my-model")


def test_local_servers_need_no_key():
    assert get_model("hosted_vllm/my-model", api_base="http://10.0.0.5:8000/v1").name == "hosted_vllm/my-model"
    assert get_model("openai/anything", api_base="http://localhost:8000/v1").name == "openai/anything"


def test_unknown_models():
    with pytest.raises(UnknownModelError, match="Accepted forms") as err:
        get_model("nosuchprovider/some-model")
    assert "hosted_vllm/<model>" in str(err.value) and "builtin/random" in str(err.value)
    with pytest.raises(UnknownModelError, match="builtin/legal-random, builtin/random, builtin/reference, builtin/replay"):
        get_model("builtin/oracle")
    with pytest.raises(UnknownModelError):
        get_model("")


def test_replay_answers_recorded_rounds(tmp_path):
    folder = RunFolder(tmp_path / "run")
    folder.write_config(RunConfig(model="openai/gpt-4o-mini", mode="agentic", agent="memoryless",
                                  benchmark="suite", dataset_hash="abc"))
    for rnd, text in enumerate(["round zero answer", "round one answer"]):
        folder.append_round(RoundRecord(task_id=TASK.id, sample=0, round=rnd, prompt_hash="h", response=text,
                                        testbench="", parse_error="", feedback="", result={}, passed=False,
                                        prompt_tokens=10 + rnd, completion_tokens=20, cost=0.25))
    model = get_model("builtin/replay", replay_run=folder.root)
    first = model.complete(request(round=0))
    assert (first.text, first.prompt_tokens, first.cost, first.cached) == ("round zero answer", 10, 0.25, True)
    assert first.model == "openai/gpt-4o-mini"
    assert model.complete(request(round=1)).text == "round one answer"
    with pytest.raises(ModelError, match=r"sample 0 round 3 \(recorded rounds for this sample: \[1, 2\]\)"):
        model.complete(request(round=2))
    with pytest.raises(ModelError, match="no rounds recorded"):
        model.complete(request(sample=4))


def test_replay_needs_a_run_folder(tmp_path):
    with pytest.raises(ModelError, match="needs replay_run"):
        get_model("builtin/replay")
    with pytest.raises(ModelError, match="not a run folder"):
        get_model("builtin/replay", replay_run=tmp_path)


def test_fake_server_script_exhausted_and_models_route():
    import json
    import urllib.error
    import urllib.request

    with FakeOpenAIServer([]) as srv:
        listing = json.loads(urllib.request.urlopen(srv.url + "/models", timeout=5).read())
        assert listing["data"][0]["id"] == "fake-model"
        req = urllib.request.Request(srv.url + "/chat/completions", data=b'{"messages": []}',
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=5)
        assert err.value.code == 500
        assert "script exhausted" in json.loads(err.value.read())["error"]["message"]
