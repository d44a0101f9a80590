"""Faults are not answers (issue 24 item 4, issue 25): a flaky model server or a failing harness never
becomes a score, is never cached, and a run that met one is incomplete, exits non-zero and is redone on
resume until its figures equal an undisturbed run's. Real LiteLLM calls to tests/fake_openai.py, the real
engine. Storms here are short; the mechanism (Retry-After, retries, resume) is the one a 75 s storm meets.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time

import pytest
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer
from test_eval_e2e import GOOD, WEAK, engine_score, full, make_task, run_config

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.cli.eval import EXIT_FAULTS, eval_cmd
from ecov.harness.core.limits import KEPT_ANSWER_CHARS, MAX_ANSWER_CHARS
from ecov.harness.core.records import Target
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.evaluation.runner import run_eval
from ecov.harness.models import ModelError, ModelRequest, get_model
from ecov.harness.models.cache import ResponseCache

FAST = {"backoff_base": 0.01, "backoff_max": 0.02}
VOLATILE = ("updated", "seconds")


@pytest.fixture(autouse=True)
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")


def model(srv, tmp_path, retries=3, **extra):
    return get_model("openai/test-model", api_base=srv.url, cache_dir=tmp_path / "llm-cache",
                     max_retries=retries, extra={**FAST, **extra})


def figures(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in VOLATILE}


def cached_texts(tmp_path) -> list[str]:
    return [json.loads(p.read_text())["completion"]["text"] for p in (tmp_path / "llm-cache").rglob("*.json")]


def answer_good(body):
    return full(GOOD)


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory):
    """The reference: two tasks, direct mode, a server that always answers."""
    tmp = tmp_path_factory.mktemp("undisturbed")
    tasks = [make_task("a"), make_task("b")]
    with FakeOpenAIServer(answer_good) as srv:
        import os

        os.environ.setdefault("OPENAI_API_KEY", "dummy")
        out = run_eval(tasks, model(srv, tmp), run_config(tasks, mode="direct", max_rounds=1), tmp / "run",
                       scorer=engine_score, workers=1, progress=False)
    assert out.summary["complete"] and out.summary["pass_rate"] == 100.0
    return figures(out.summary)


def request():
    return ModelRequest(messages=[{"role": "user", "content": "write a testbench"}], task=make_task("a"))


def test_empty_choices_and_null_content_are_retried_and_never_cached(tmp_path):
    with FakeOpenAIServer([{"choices": []}, {"content": None}, "the answer"]) as srv:
        comp = model(srv, tmp_path).complete(request())
    assert comp.text == "the answer" and comp.retries == 2
    assert cached_texts(tmp_path) == ["the answer"]

    with FakeOpenAIServer([{"choices": []}, {"content": None}]) as srv:  # out of retries: an error, not ""
        with pytest.raises(ModelError, match="EmptyAnswer"):
            model(srv, tmp_path / "other", retries=1).complete(request())
    assert not (tmp_path / "other" / "llm-cache").exists() or cached_texts(tmp_path / "other") == []


def test_a_bad_cache_entry_is_dropped_and_asked_again(tmp_path):
    with FakeOpenAIServer(["first"]) as srv:
        model(srv, tmp_path).complete(request())
    (entry,) = (tmp_path / "llm-cache").rglob("*.json")
    data = json.loads(entry.read_text())
    data["completion"]["text"] = "edited to look better"
    entry.write_text(json.dumps(data))
    with FakeOpenAIServer(["second"]) as srv:
        comp = model(srv, tmp_path).complete(request())
        assert len(srv.requests) == 1  # the edited entry was not served
    assert comp.text == "second" and not comp.cached
    entry.write_text(entry.read_text()[:40])  # torn
    assert ResponseCache(tmp_path / "llm-cache").get(data["key"]) is None and not entry.exists()


def test_retry_after_is_honoured_and_retries_are_recorded_and_shown(tmp_path, undisturbed):
    """A 429 storm with Retry-After: 1 lasting 1.5 s. The backoff alone (10-20 ms) would spend the 3
    retries in well under the storm; honouring Retry-After outlasts it with few requests."""
    start = time.monotonic()
    storm = 1.5
    lock = threading.Lock()
    throttled = []

    def script(body):
        with lock:
            if time.monotonic() - start < storm:
                throttled.append(1)
                return {"status": 429, "headers": {"Retry-After": "1"}}
        return full(GOOD)

    tasks = [make_task("a"), make_task("b")]
    lines: list[str] = []
    with FakeOpenAIServer(script) as srv:
        out = run_eval(tasks, model(srv, tmp_path, retries=3), run_config(tasks, mode="direct", max_rounds=1),
                       tmp_path / "run", scorer=engine_score, workers=1, progress=False, notify=lines.append)
    assert figures(out.summary) == undisturbed
    assert 1 <= len(throttled) <= 3  # each wait lasted the server's second, not the 10 ms backoff
    rounds = RunFolder(tmp_path / "run").rounds()
    assert sum(r.retries for r in rounds) == len(throttled) and rounds[0].retries >= 1
    assert any("HTTP 429" in x and "retry 1/3" in x for x in lines)


def test_faults_outlasting_the_retries_end_incomplete_then_resume_to_the_undisturbed_figures(tmp_path,
                                                                                        undisturbed):
    tasks = [make_task("a"), make_task("b")]
    cfg = run_config(tasks, mode="direct", max_rounds=1)
    faults = [{"choices": []}, {"content": None}, {"status": 503}, {"status": 429, "headers": {"Retry-After": "0"}}]
    with FakeOpenAIServer([*faults, full(GOOD)]) as srv:  # a: every try faults; b: answered
        out = run_eval(tasks, model(srv, tmp_path, retries=3), cfg, tmp_path / "run", scorer=engine_score,
                       workers=1, progress=False)
    s = out.summary
    assert not s["complete"] and s["faults"] == 1 and "a sample 0" in s["fault_examples"][0]
    assert "" not in cached_texts(tmp_path) and len(cached_texts(tmp_path)) == 1
    with FakeOpenAIServer(answer_good) as srv:  # one resume: only the fault is asked again
        out = run_eval(tasks, model(srv, tmp_path), cfg, tmp_path / "run", scorer=engine_score, workers=1,
                       progress=False)
        assert len(srv.requests) == 1
    assert figures(out.summary) == undisturbed


def test_a_harness_fault_is_not_a_score(tmp_path, undisturbed):
    tasks = [make_task("a"), make_task("b")]
    cfg = run_config(tasks, mode="direct", max_rounds=1)

    def broken(design, tb, seed):
        raise OSError(28, "No space left on device")

    with FakeOpenAIServer(answer_good) as srv:
        out = run_eval(tasks, model(srv, tmp_path), cfg, tmp_path / "run", scorer=broken, workers=1,
                       progress=False)
    s = out.summary
    assert not s["complete"] and s["faults"] == 2 and "infra error" in s["fault_examples"][0]
    assert RunFolder(tmp_path / "run").rounds() == []  # no round recorded a harness failure as a result
    with FakeOpenAIServer(answer_good) as srv:
        out = run_eval(tasks, model(srv, tmp_path), cfg, tmp_path / "run", scorer=engine_score, workers=1,
                       progress=False)
    assert figures(out.summary) == undisturbed


def test_each_round_and_reask_sends_its_own_seed_and_records_it(tmp_path):
    tasks = [make_task("a")]
    with FakeOpenAIServer(lambda body: full(WEAK)) as srv:  # never passes: every round is asked
        run_eval(tasks, model(srv, tmp_path), run_config(tasks, max_rounds=3, n=2), tmp_path / "run",
                 scorer=engine_score, workers=1, progress=False)
        sent = [b["seed"] for b in srv.requests]
    assert len(sent) == 6 and len(set(sent)) == 6
    recorded = [s for r in RunFolder(tmp_path / "run").rounds() for s in r.api_seeds]
    assert sorted(recorded) == sorted(sent)


def test_an_oversized_answer_is_a_format_failure_cut_in_the_record(tmp_path):
    tasks = [make_task("a")]
    huge = full(GOOD) + "//" + "x" * MAX_ANSWER_CHARS
    with FakeOpenAIServer([huge]) as srv:
        run_eval(tasks, model(srv, tmp_path), run_config(tasks, mode="direct", max_rounds=1), tmp_path / "run",
                 scorer=engine_score, workers=1, progress=False)
    (rec,) = RunFolder(tmp_path / "run").rounds()
    assert "over the limit" in rec.parse_error and not rec.testbench and not rec.passed
    assert len(rec.response) == KEPT_ANSWER_CHARS


def test_a_torn_last_line_does_not_swallow_the_next_sample(tmp_path):
    tasks = [make_task("a"), make_task("b")]
    cfg = run_config(tasks, mode="direct", max_rounds=1)
    with FakeOpenAIServer(answer_good) as srv:
        run_eval(tasks[:1], model(srv, tmp_path), cfg, tmp_path / "run", scorer=engine_score, workers=1,
                 progress=False)
        for name in ("samples.jsonl", "rounds.jsonl"):
            with open(tmp_path / "run" / name, "a") as f:
                f.write('{"task_id": "b", "sample": 0, "tor')
        out = run_eval(tasks, model(srv, tmp_path), cfg, tmp_path / "run", scorer=engine_score, workers=1,
                       progress=False)
    assert out.summary["complete"] and {s.task_id for s in RunFolder(tmp_path / "run").samples()} == {"a", "b"}
    assert len(RunFolder(tmp_path / "run").rounds()) == 2


def test_cli_a_dead_model_server_exits_non_zero_and_says_why(tmp_path):
    """Dead before the run: the probe names the URL, no folder, no summary (tests/test_endpoint_probe.py)."""
    bench = tmp_path / "bench"
    save_tasks([make_task("a")], bench, fmt="jsonl")
    res = CliRunner().invoke(eval_cmd, ["--model", "openai/test-model", "--api-base", "http://127.0.0.1:9/v1",
                                        "--benchmark", str(bench), "--max-retries", "0", "--no-progress",
                                        "--request-timeout", "5", "--out", str(tmp_path / "run")])
    assert res.exit_code == EXIT_FAULTS, res.output
    assert "connection refused at http://127.0.0.1:9/v1" in res.output and "pass %" not in res.output
    assert not (tmp_path / "run").exists()


def test_cli_a_server_failing_mid_run_prints_the_error_then_an_incomplete_summary(tmp_path):
    """Faulted samples are no 0%: the error comes first, the summary says INCOMPLETE, names the cause and
    leaves them out of every figure; the exit code is non-zero."""
    bench = tmp_path / "bench"
    other = dataclasses.replace(make_task("b"), instructions="Verify the 2-bit counter (b).")  # no cache hit
    save_tasks([make_task("a"), other], bench, fmt="jsonl")
    with FakeOpenAIServer([full(GOOD), {"status": 500}]) as srv:  # one worker: a answers, b meets the 500
        res = CliRunner().invoke(eval_cmd, ["--model", "openai/test-model", "--api-base", srv.url, "--mode", "direct",
                                            "--benchmark", str(bench), "--max-retries", "0", "--no-progress",
                                            "--workers", "1", "--cache-dir", str(tmp_path / "c"),
                                            "--out", str(tmp_path / "run")])
    out = res.output
    assert res.exit_code == EXIT_FAULTS, out
    assert out.index("Error: 1 sample ended on a fault") < out.index("ECov evaluation:")
    assert "INCOMPLETE" in out and "left out of every figure" in out and "HTTP 500" in out
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["complete"] is False and summary["faults"] == 1
    assert summary["samples"] == 1 and summary["pass_rate"] == 100.0  # b's fault is no 0 in the figures
    assert summary["faulted_tasks"] == {"b": 1}


def test_cli_ollama_against_an_openai_server_is_a_clear_error(tmp_path):
    bench = tmp_path / "bench"
    save_tasks([make_task("a")], bench, fmt="jsonl")
    with FakeOpenAIServer(answer_good) as srv:
        res = CliRunner().invoke(eval_cmd, ["--model", "ollama/qwen", "--api-base", srv.url.removesuffix("/v1"),
                                            "--benchmark", str(bench), "--no-progress",
                                            "--out", str(tmp_path / "run")])
    assert res.exit_code == EXIT_FAULTS, res.output
    assert "use openai/<model>" in res.output


def test_cli_request_flags_reach_the_server_and_the_key_stays_out_of_the_run(tmp_path):
    bench = tmp_path / "bench"
    save_tasks([make_task("a")], bench, fmt="jsonl")
    with FakeOpenAIServer(answer_good) as srv:
        res = CliRunner().invoke(eval_cmd, [
            "--model", "openai/test-model", "--api-base", srv.url, "--benchmark", str(bench), "--no-progress",
            "--mode", "direct", "--api-key", "sk-secret-123", "--extra-body", '{"repetition_penalty": 1.1}',
            "--extra-header", "X-Team: ecov", "--timeout", "30", "--cache-dir", str(tmp_path / "c"),
            "--out", str(tmp_path / "run")])
        body, headers = srv.requests[0], {k.lower(): v for k, v in srv.headers[0].items()}
    assert res.exit_code == 0, res.output
    assert body["repetition_penalty"] == 1.1 and headers.get("x-team") == "ecov"
    assert headers.get("authorization") == "Bearer sk-secret-123"
    run_text = "".join(p.read_text() for p in (tmp_path / "run").rglob("*") if p.is_file())
    cache_text = "".join(p.read_text() for p in (tmp_path / "c").rglob("*.json"))
    assert "sk-secret-123" not in run_text and "sk-secret-123" not in cache_text
    cfg = json.loads((tmp_path / "run" / "config.json").read_text())
    assert cfg["extra"]["request_timeout"] == 30 and cfg["extra"]["extra_body"] == {"repetition_penalty": 1.1}


@pytest.mark.parametrize("args", [["-n", "100000000"], ["--max-rounds", "1000000"], ["--timeout", "0"],
                                  ["--extra-body", "[1]"], ["--extra-header", "nocolon"]])
def test_cli_bounds(args, tmp_path):
    res = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--out", str(tmp_path / "r"), *args])
    assert res.exit_code == 2 and not (tmp_path / "r").exists(), res.output


def _bad(task_id="a", **changes):
    t = make_task(task_id)
    return dataclasses.replace(t, **changes)


@pytest.mark.parametrize("tasks, needle", [
    (None, "duplicate task id(s): 'a'"),
    (lambda: [_bad(targets=[Target("uut", "toggle", -1.0)])], "task 'a': targets[0].percent -1.0"),
    (lambda: [_bad(targets=[Target("uut", "toggle", 150.0)])], "targets[0].percent 150.0"),
    (lambda: [_bad(targets=[Target("uut", "toggle", float("nan"))])], "targets[0].percent nan"),
    (lambda: [_bad(targets=[])], "task 'a': targets is empty"),
    (lambda: [_bad(targets=[Target("uut", "fsm", 50.0)])], "targets[0].metric 'fsm'"),
    (lambda: [_bad(targets=[Target("nope", "line", 50.0)])], "targets[0].instance 'nope'"),
])
def test_bad_task_files_are_errors_naming_task_and_field(tasks, needle, tmp_path):
    bench = tmp_path / "bench"
    path = save_tasks(tasks() if tasks else [make_task("a")], bench, fmt="jsonl")
    if tasks is None:  # save_tasks refuses duplicates: write the copy by hand, as a hostile file would
        data = next(bench.rglob("*.jsonl"))
        data.write_text(data.read_text() * 2)
    assert path
    res = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--benchmark", str(bench), "--no-progress",
                                        "--out", str(tmp_path / "run")])
    assert res.exit_code == 2 and needle in res.output, res.output
    assert not (tmp_path / "run").exists()


def test_a_truncated_cached_object_is_dropped_not_linked(tmp_path):
    from ecov.harness.sim.buildcache import ObjectCache

    cache, obj = ObjectCache(tmp_path / "objects"), tmp_path / "unit.o"
    obj.write_bytes(b"\x7fELF" + bytes(range(256)) * 40)
    cache.store("ab12", obj)
    assert cache.fetch("ab12", tmp_path / "copy.o") and (tmp_path / "copy.o").read_bytes() == obj.read_bytes()
    stored = cache.path("ab12")
    stored.write_bytes(stored.read_bytes()[:100])  # a full disk, a killed copy
    assert not cache.fetch("ab12", tmp_path / "bad.o")
    assert not stored.exists() and not (tmp_path / "bad.o").exists()
