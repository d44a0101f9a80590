"""ecov-eval end to end: real LiteLLM calls to a scripted local OpenAI-compatible server, the real engine.

The scripted answers are chosen so that the engine compiles only three distinct testbenches (GOOD, WEAK,
SYNTAX_BAD): the patch answer turns WEAK into GOOD byte for byte, so its score comes from the engine's
cache. tests/test_resume.py imports the design and answers from here.
"""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.cli.eval import default_out, eval_cmd, main, report_cmd
from ecov.harness.core.records import COMPILE_ERROR, OK, REJECTED, SourceFile, Target
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.evaluation.runner import run_eval
from ecov.harness.models import get_model
from ecov.harness.parse import NO_CODE as NO_CODE_ERROR
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tasks import Task
from ecov.harness.tracks.sv.scorer import Engine

COUNTER = """module counter (
  input  logic       clk,
  input  logic       rst_n,
  input  logic       en,
  output logic [1:0] q
);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      q <= 2'd0;
    end else if (en) begin
      q <= q + 2'd1;
    end
  end
endmodule
"""

_TB = """module tb;
  logic clk = 0, rst_n = 0, en = 0;
  logic [1:0] q;
  counter uut (.clk(clk), .rst_n(rst_n), .en(en), .q(q));
  always #5 clk = ~clk;
  initial begin
    #12 rst_n = 1;
{body}
    $finish;
  end
endmodule
"""

WEAK = _TB.format(body="    repeat (3) @(posedge clk);")  # never enables the counter: q never toggles
GOOD = _TB.format(body="    en = 1;\n    repeat (6) @(posedge clk);")
SYNTAX_BAD = _TB.format(body="    en = 1\n    repeat (6) @(posedge clk);")  # missing semicolon

# Line numbers deliberately wrong (the hunk sits at line 7): it must be placed by its context.
PATCH_TO_GOOD = """tb.sv
```diff
@@ -31,3 +31,4 @@
     #12 rst_n = 1;
-    repeat (3) @(posedge clk);
+    en = 1;
+    repeat (6) @(posedge clk);
     $finish;
```"""

BAD_PATCH = """```diff
@@ -7,2 +7,2 @@
-    repeat (99) @(negedge clk);
+    repeat (5) @(posedge clk);
```"""

NO_CODE = "I would start by reading the specification carefully and then think about the corner cases."


def full(tb: str, prose: str = "Here is the testbench.") -> str:
    return f"{prose}\n\ntb.sv\n```systemverilog\n{tb}```\n"


def make_task(task_id: str) -> Task:
    return Task(
        id=task_id,
        benchmark="evaltest",
        rtl_files=[SourceFile("counter.sv", COUNTER)],
        spec_files=[SourceFile("spec.md", "# counter\nA 2-bit counter with enable and async reset.\n")],
        dut_module="counter",
        dut_instance="uut",
        instructions="Verify the 2-bit counter.",
        targets=[Target("uut", "toggle", 75.0)],
        reference_tbs=[SourceFile("ref_tb.sv", "// SECRET-REFERENCE-TB\n" + GOOD)],
    )


TASK_IDS = ("good", "syntax", "nocode", "patch", "ratelimit", "fail")
SCRIPT = [
    full(GOOD),                                   # good: passes at round 0
    full(SYNTAX_BAD), full(GOOD),                 # syntax: compile error, fixed next round
    NO_CODE, full(GOOD),                          # nocode: no code block, then a testbench
    full(WEAK), PATCH_TO_GOOD,                    # patch: weak testbench, then a patch that completes it
    {"status": 429}, full(GOOD),                  # ratelimit: HTTP 429, retried, then an answer
    full(WEAK), NO_CODE, BAD_PATCH,               # fail: weak, no code, a patch that does not apply
]

_ENGINE = None


def engine_score(design, testbench, seed):
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = Engine(EngineConfig())
    return _ENGINE.score(design, testbench, seed)


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")


def fake_model(srv, tmp_path):
    return get_model("openai/test-model", api_base=srv.url, cache_dir=tmp_path / "llm-cache", max_retries=3,
                     extra={"backoff_base": 0.05, "backoff_max": 0.2})


def run_config(tasks, mode="agentic", agent="memoryless", max_rounds=3, n=1, protocol="ecov"):
    """The tests here exercise the ecov protocol (patches, uncovered-line feedback, spent rounds);
    tests/test_protocol.py exercises llm4cov, the default."""
    from ecov.harness.benchmark.store import dataset_hash
    from ecov.harness.core.run_folder import RunConfig

    return RunConfig(model="openai/test-model", mode=mode, agent=agent, benchmark="evaltest",
                     dataset_hash=dataset_hash(tasks), n_samples=n, max_rounds=max_rounds, protocol=protocol)


def by_task(folder: RunFolder):
    out = {}
    for r in folder.rounds():
        out.setdefault(r.task_id, []).append(r)
    return out


def test_agentic_memoryless_records_rounds_and_metrics(tmp_path, api_key):
    tasks = [make_task(t) for t in TASK_IDS]
    with FakeOpenAIServer(list(SCRIPT)) as srv:
        outcome = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks), tmp_path / "run",
                           scorer=engine_score, workers=1, progress=False)
        requests = list(srv.requests)
    assert len(requests) == len(SCRIPT) and not outcome.interrupted
    folder = RunFolder(tmp_path / "run")
    rounds = by_task(folder)
    status = {t: [r.result["status"] for r in rs] for t, rs in rounds.items()}
    assert status == {"good": [OK], "syntax": [COMPILE_ERROR, OK], "nocode": [REJECTED, OK],
                      "patch": [OK, OK], "ratelimit": [OK], "fail": [OK, OK, OK]}
    assert {t: [r.passed for r in rs] for t, rs in rounds.items()} == {
        "good": [True], "syntax": [False, True], "nocode": [False, True], "patch": [False, True],
        "ratelimit": [True], "fail": [False, False, False]}

    # The real engine: GOOD counts q through every value, WEAK never enables it (q's bits never toggle).
    good_res, weak_res = rounds["good"][0].score(), rounds["patch"][0].score()
    assert good_res.metric_percent("uut", "toggle") >= 75.0 > weak_res.metric_percent("uut", "toggle")
    assert good_res.overall > weak_res.overall

    # Every recorded chat is exactly what the server received; the reference testbench never leaks.
    sent = [b["messages"] for b in requests]
    for rs in rounds.values():
        for r in rs:
            assert r.messages in sent
    assert not any("SECRET-REFERENCE-TB" in json.dumps(b) for b in requests)
    first_user = rounds["good"][0].messages[1]["content"]
    assert "`counter`" in first_user and "`uut`" in first_user and "module counter (" in first_user
    assert "`uut` toggle coverage >= 75%" in first_user

    # Syntax error: the compile error is the feedback, and the next prompt holds it with x_t.
    r0, r1 = rounds["syntax"]
    assert "compile" in r0.feedback.lower() and "syntax error" in r0.feedback.lower()
    assert r0.feedback in r1.messages[-1]["content"] and SYNTAX_BAD.strip() in r1.messages[-1]["content"]
    assert r1.testbench == GOOD and r1.parse_error == ""

    # No code: the parse error is the round's feedback and the next prompt's; no testbench yet.
    n0, n1 = rounds["nocode"]
    assert (n0.testbench, n0.parse_error, n0.feedback) == ("", NO_CODE_ERROR, NO_CODE_ERROR)
    assert NO_CODE_ERROR in n1.messages[-1]["content"] and "## Current testbench" not in n1.messages[-1]["content"]

    # Patch with wrong line numbers: applied by context, giving exactly GOOD.
    p0, p1 = rounds["patch"]
    assert p0.testbench == WEAK and p1.testbench == GOOD and p1.parse_error == ""
    assert WEAK.strip() in p1.messages[-1]["content"] and p0.feedback in p1.messages[-1]["content"]

    # Unusable answers keep x_t and its result; the feedback leads with the parse error.
    f0, f1, f2 = rounds["fail"]
    assert f1.parse_error == NO_CODE_ERROR and f1.testbench == "" and f1.result == f0.result
    assert "could not be applied" in f2.parse_error and f2.result == f0.result
    assert f2.feedback.startswith(f2.parse_error) and f0.feedback in f2.feedback
    assert WEAK.strip() in f2.messages[-1]["content"]  # x_t is still WEAK

    # Metrics: pass@1 and per-round pass rates follow from which rounds passed.
    s = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert s == {**outcome.summary}
    assert s["samples"] == 6 and s["samples_passed"] == 5 and s["complete"]
    assert s["pass_at_k"] == {"pass@1": round(100 * 5 / 6, 2)}
    assert [r["pass_rate"] for r in s["per_round"]] == [round(100 * 2 / 6, 2), round(100 * 5 / 6, 2),
                                                        round(100 * 5 / 6, 2)]
    finals = {t: rs[-1].score().overall for t, rs in rounds.items()}
    assert s["avg_overall"] == round(sum(finals.values()) / 6, 2)
    assert s["per_round"][0]["avg_overall"] == round(
        sum(rs[0].score().overall for rs in rounds.values()) / 6, 2)
    assert s["syntax_rate"] == 100.0  # every final state ran (fail keeps its WEAK result)
    assert s["prompt_tokens"] == sum(r.prompt_tokens for rs in rounds.values() for r in rs) > 0
    assert s["completion_tokens"] > 0 and s["model_errors"] == 0

    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["harness_version"] and config["verilator_version"].startswith("5.") and config["dataset_hash"]
    assert config["task_ids"] == list(TASK_IDS)
    log = (tmp_path / "run" / "logs" / "syntax" / "s0_r0.md").read_text()
    assert "syntax error" in log.lower() and (tmp_path / "run" / "logs" / "syntax" / "s0_r1_tb.sv").read_text() == GOOD

    report = CliRunner().invoke(report_cmd, [str(tmp_path / "run")])
    assert report.exit_code == 0 and "pass@1" in report.output and "83.3" in report.output


def test_history_mode_grows_one_conversation_and_direct_mode_scores_once(tmp_path, api_key):
    tasks = [make_task("syntax")]
    with FakeOpenAIServer([full(SYNTAX_BAD), full(GOOD)]) as srv:
        run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks, agent="history"), tmp_path / "hist",
                 scorer=engine_score, workers=1, progress=False)
    r0, r1 = RunFolder(tmp_path / "hist").rounds()
    assert [m["role"] for m in r1.messages] == ["system", "user", "assistant", "user"]
    assert r1.messages[:2] == r0.messages and r1.messages[2]["content"] == full(SYNTAX_BAD)
    assert r0.feedback in r1.messages[3]["content"] and "## Current testbench" not in r1.messages[3]["content"]
    assert r1.passed and json.loads((tmp_path / "hist" / "config.json").read_text())["agent"] == "history"

    tasks = [make_task("good"), make_task("nocode")]
    with FakeOpenAIServer([full(GOOD), NO_CODE]) as srv:
        out = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks, mode="direct", max_rounds=5),
                       tmp_path / "direct", scorer=engine_score, workers=1, progress=False)
        assert len(srv.requests) == 2
    s = out.summary
    assert s["run"]["max_rounds"] == 1 and len(s["per_round"]) == 1
    assert (s["pass_rate"], s["syntax_rate"]) == (50.0, 50.0)
    assert s["per_task"]["nocode"]["best_overall"] == 0.0


def test_model_error_fails_only_that_sample_and_is_retried_on_resume(tmp_path, api_key):
    tasks = [make_task("a"), make_task("b")]
    with FakeOpenAIServer([{"status": 401}, full(GOOD)]) as srv:  # 401: not retried
        out = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks), tmp_path / "run",
                       scorer=engine_score, workers=1, progress=False)
    s = out.summary
    # a's fault is no result: named, and in no figure (no per-task row of zeros for a)
    assert s["model_errors"] == 1 and s["faulted_tasks"] == {"a": 1} and "a" not in s["per_task"]
    assert s["per_task"]["b"]["passed"] == 1 and s["pass_rate"] == 100.0 and not s["complete"]
    (a,) = [x for x in RunFolder(tmp_path / "run").samples() if x.task_id == "a"]
    assert "model error at round 1" in a.error and "401" in a.error and not a.passed

    with FakeOpenAIServer([full(GOOD)]) as srv:  # resume: only the failed sample is asked again
        out = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks), tmp_path / "run",
                       scorer=engine_score, workers=1, progress=False)
        assert len(srv.requests) == 1
    assert (out.ran, out.skipped) == (1, 1)
    assert out.summary["model_errors"] == 0 and out.summary["pass_rate"] == 100.0


@pytest.fixture
def bench(tmp_path):
    path = tmp_path / "bench"
    save_tasks([make_task("good")], path, fmt="jsonl")
    return path


@pytest.mark.parametrize("args, needle", [
    (["--model", "nosuchprovider/some-model"], "unknown model"),
    (["--model", "builtin/nonesuch"], "unknown builtin"),
    (["--model", "openai/test-model", "--benchmark", "no/such/dir-or-hub"], "--benchmark"),
    (["--model", "openai/test-model", "--max-rounds", "0"], "--max-rounds"),
    (["--model", "openai/test-model", "--mode", "chatty"], "--mode"),
    (["--model", "openai/test-model", "--task-id", "nope"], "unknown task id"),
    (["--model", "builtin/replay"], "--replay-run"),
    ([], "--model"),
])
def test_cli_usage_errors_exit_2(args, needle, bench, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    if "--benchmark" not in args:
        args = [*args, "--benchmark", str(bench)]
    res = CliRunner().invoke(eval_cmd, [*args, "--out", str(tmp_path / "out")])
    assert res.exit_code == 2, res.output
    assert needle in res.output


def test_cli_missing_key_and_config_mismatch_exit_2(bench, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    res = CliRunner().invoke(eval_cmd, ["--model", "openai/gpt-4o-mini", "--benchmark", str(bench)])
    assert res.exit_code == 2 and "OPENAI_API_KEY" in res.output

    from ecov.harness.benchmark.store import load_benchmark

    tasks = load_benchmark(str(bench))
    RunFolder(tmp_path / "run").write_config(run_config(tasks))  # temperature 0.7
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    with FakeOpenAIServer([]) as srv:  # a live endpoint: the probe lets it through, the folder refuses
        res = CliRunner().invoke(eval_cmd, ["--model", "openai/test-model", "--api-base", srv.url,
                                            "--benchmark", str(bench), "--temperature", "0.2", "--max-rounds", "3",
                                            "--out", str(tmp_path / "run")])
    assert res.exit_code == 2 and "another configuration" in res.output and "temperature" in res.output

    res = CliRunner().invoke(report_cmd, [str(tmp_path / "nothing")])
    assert res.exit_code == 2 and "not an ecov-eval run folder" in res.output


def test_main_dispatches_report_and_default_out_is_stable(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["report", str(tmp_path / "missing")])
    assert exc.value.code == 2
    assert default_out("openai/Qwen3-4B", "agentic", "memoryless", "ecov-embedded") == \
        Path("runs/openai-qwen3-4b_agentic_ecov-embedded")
    assert default_out("x", "agentic", "history", "cvdp-ecov").name == "x_agentic-history_cvdp-ecov"
    assert os.fspath(default_out("x", "direct", "memoryless", "b")) == os.fspath(Path("runs/x_direct_b"))
