"""The llm4cov protocol (the default) end to end: real LiteLLM calls to the scripted local server, the
real engine. Format re-asks spend no round, the memory keeps the best state through regressions, a
cut-off answer is asked again, and the summary carries both best-state and final coverage.
"""

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer
from test_eval_e2e import GOOD, NO_CODE, SYNTAX_BAD, WEAK, engine_score, fake_model, make_task, run_config

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.cli.eval import eval_cmd
from ecov.harness.core.protocol import DEFAULT_PROTOCOL, LLM4COV
from ecov.harness.core.records import COMPILE_ERROR, OK, REJECTED
from ecov.harness.core.run_folder import RunConfig, RunFolder
from ecov.harness.evaluation.runner import RunMismatch, run_eval
from ecov.harness.loop.agent import AgentConfig
from ecov.harness.models import get_model
from ecov.harness.tracks.sv.prompts import LLM4COV_SYSTEM


def l4c(tb: str) -> str:
    return f"Here is the testbench.\n\nfilename: tb_counter.sv\n```systemverilog\n{tb}```\n"


def no_name(tb: str) -> str:  # a fenced block but no file name anywhere
    return f"Here is the testbench.\n\n```systemverilog\n{tb}```\n"


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")


def test_defaults_are_the_paper_protocol():
    assert DEFAULT_PROTOCOL == "llm4cov" and AgentConfig().rounds == 4 and AgentConfig().protocol == "llm4cov"
    assert AgentConfig(protocol="ecov").rounds == 5 and AgentConfig(mode="direct").rounds == 1
    assert RunConfig(model="m", mode="agentic", agent="memoryless", benchmark="b", dataset_hash="h").protocol \
        == "llm4cov"
    # A run folder written before protocols read as the loop it ran.
    assert RunConfig.from_dict({"model": "m", "mode": "agentic", "agent": "memoryless", "benchmark": "b",
                                "dataset_hash": "h"}).protocol == "ecov"
    with pytest.raises(ValueError, match="protocol must be one of"):
        AgentConfig(protocol="nope")
    assert "no checks" in LLM4COV_SYSTEM and "filename: tb_" in LLM4COV_SYSTEM and "`bind`" in LLM4COV_SYSTEM


def test_reasks_spend_no_round_and_memory_keeps_the_best(tmp_path, api_key):
    tasks = [make_task("mem")]
    script = [no_name(WEAK), no_name(WEAK), l4c(WEAK),  # round 0: two re-asks, then WEAK
              l4c(GOOD),  # round 1: a new best
              l4c(SYNTAX_BAD),  # round 2: regression (compile error)
              l4c(WEAK)]  # round 3: regression (lower coverage)
    with FakeOpenAIServer(script) as srv:
        out = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks, max_rounds=None, protocol="llm4cov"),
                       tmp_path / "run", scorer=engine_score, workers=1, progress=False)
        requests = list(srv.requests)
    assert len(requests) == 6 and srv.remaining == 0
    # The three attempts of round 0 send the same chat; the re-asks get fresh seeds (no cached repeat).
    assert requests[0]["messages"] == requests[1]["messages"] == requests[2]["messages"]
    assert len({r.get("seed") for r in requests[:3]}) == 3
    rounds = RunFolder(tmp_path / "run").rounds()
    assert [r.round for r in rounds] == [0, 1, 2, 3]  # four model rounds: re-asks spent none
    r0, r1, r2, r3 = rounds
    assert r0.reasks == 2 and len(r0.rejected_responses) == 2 and r0.testbench == WEAK
    assert all("named no testbench file" in why for why in r0.reask_reasons) and r1.reasks == 0
    assert [r.result["status"] for r in rounds] == [OK, OK, COMPILE_ERROR, OK]
    assert [r.new_best for r in rounds] == [True, True, False, False]
    # Memoryless prompts: system, task, the best testbench as the assistant's answer, its feedback.
    assert [m["role"] for m in r3.messages] == ["system", "user", "assistant", "user"]
    assert r2.state_round == r3.state_round == 1 and r3.messages == r2.messages
    assert GOOD.strip() in r3.messages[2]["content"] and r1.feedback in r3.messages[3]["content"]
    assert SYNTAX_BAD.strip() not in json.dumps(r3.messages)
    # Prompt layout: stimulus-only system prompt, `// File:` blocks, no targets; feedback without uncovered code.
    assert r0.messages[0]["content"] == LLM4COV_SYSTEM
    user = r0.messages[1]["content"]
    assert "// File: counter.sv" in user and "// File: spec.md" in user and "<instructions>" in user
    assert "toggle coverage >= 75" not in user and "`uut`" in user
    assert "- status: success" in r1.feedback and "- stage: coverage" in r1.feedback and "uut:" in r1.feedback
    assert "missing" not in r1.feedback and "- status: build_failed" in r2.feedback and "- log:" in r2.feedback

    (s,) = RunFolder(tmp_path / "run").samples()
    good, weak = r1.score().overall, r0.score().overall
    assert good > weak
    assert (s.passed, s.passed_round, s.best_round, s.reasks, s.stop_reason) == (True, 1, 1, 2, "rounds")
    assert (s.best_state_overall, s.final_overall) == (good, weak)
    summ = out.summary
    assert summ["protocol"] == "llm4cov" and summ["run"]["protocol"] == "llm4cov" and summ["run"]["max_rounds"] == 4
    assert (summ["avg_overall"], summ["avg_overall_best"], summ["avg_overall_final"]) == (good, good, weak)
    assert (summ["reasks"], summ["samples_reasked"], summ["format_failures"]) == (2, 1, 0)
    assert [r["pass_rate"] for r in summ["per_round"]] == [0.0, 100.0, 100.0, 100.0]
    assert [r["avg_overall"] for r in summ["per_round"]] == [weak, good, good, good]

    # builtin/replay replays the unusable answers too, so a re-scored run re-asks the same way.
    rep = run_eval(tasks, get_model("builtin/replay", replay_run=tmp_path / "run"),
                   run_config(tasks, max_rounds=None, protocol="llm4cov"), tmp_path / "replayed",
                   scorer=engine_score, workers=1, progress=False)
    assert [r.reasks for r in RunFolder(tmp_path / "replayed").rounds()] == [2, 0, 0, 0]
    assert rep.summary["avg_overall"] == good


def test_cut_off_answer_is_asked_again_and_four_unusable_answers_end_the_sample(tmp_path, api_key):
    # Distinct instructions: the llm4cov prompt names no task id, and identical chats are cache hits.
    tasks = [make_task("cut"), replace(make_task("never"), instructions="Verify the counter, again.")]
    cut = {"content": "filename: tb_counter.sv\n```systemverilog\nmodule tb;\n  logic clk", "finish_reason": "length"}
    script = [cut, l4c(GOOD)] + [NO_CODE] * 4
    with FakeOpenAIServer(script) as srv:
        out = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks, mode="direct", protocol="llm4cov"),
                       tmp_path / "run", scorer=engine_score, workers=1, progress=False)
        assert len(srv.requests) == 6
    by = {r.task_id: r for r in RunFolder(tmp_path / "run").rounds()}
    assert by["cut"].reasks == 1 and by["cut"].rejected_finish == ["length"] and by["cut"].finish_reason == "stop"
    assert "cut off" in by["cut"].reask_reasons[0] and by["cut"].testbench == GOOD and by["cut"].passed
    never = by["never"]
    assert never.reasks == LLM4COV.format_reasks == 3 and never.testbench == "" and never.parse_error
    assert never.result["status"] == REJECTED
    samples = {s.task_id: s for s in RunFolder(tmp_path / "run").samples()}
    assert samples["never"].stop_reason == "format" and not samples["never"].passed
    assert out.summary["format_failures"] == 1 and out.summary["reasks"] == 4
    assert out.summary["pass_rate"] == 50.0 and out.summary["syntax_rate"] == 50.0


def test_a_folder_of_another_protocol_is_not_resumed(tmp_path):
    tasks = [make_task("a")]
    RunFolder(tmp_path / "run").write_config(run_config(tasks, protocol="ecov", max_rounds=5))
    with pytest.raises(RunMismatch, match="protocol: 'ecov' \\(folder\\) vs 'llm4cov'"):
        run_eval(tasks, None, run_config(tasks, max_rounds=5, protocol="llm4cov"), tmp_path / "run",
                 scorer=lambda *a: None, progress=False)


def test_cli_builtin_random_runs_llm4cov_by_default(tmp_path, monkeypatch):
    """The issue's "done when": builtin/random, agentic, no protocol option: 4 rounds, stimulus-only prompt,
    and a summary with final and best-over-rounds coverage and re-ask counts."""
    bench = tmp_path / "bench"
    save_tasks([make_task("counter")], bench, fmt="jsonl")
    res = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--mode", "agentic", "--benchmark", str(bench),
                                        "--out", str(tmp_path / "run"), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "protocol llm4cov" in res.output and "best / final" in res.output and "format re-asks" in res.output
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert (config["protocol"], config["max_rounds"]) == ("llm4cov", 4)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    for key in ("avg_overall_best", "avg_overall_final", "reasks", "pass_at_k_any", "stop_reasons"):
        assert key in summary, key
    rounds = RunFolder(tmp_path / "run").rounds()
    assert 1 <= len(rounds) <= 4 and rounds[0].messages[0]["content"] == LLM4COV_SYSTEM
    assert all(r.reasks == 0 and r.testbench for r in rounds)  # its answers are always well formed
    if len(rounds) > 1:  # no uncovered code in llm4cov feedback
        assert "Uncovered code" not in rounds[0].feedback and "Next step:" in rounds[0].feedback


def test_testbench_language_seam_keeps_the_protocol_rules():
    """Another track (cocotb) brings its prompts and parser; the protocol still refuses cut-off answers."""
    from ecov.harness.core.protocol import ECOV
    from ecov.harness.loop.agent import tb_io

    task = make_task("seam")
    py = "test_dut.py\n```python\nimport cocotb\n\n@cocotb.test()\nasync def t(dut):\n    pass\n```\n"
    l4c_py, ecov_py = tb_io(LLM4COV, "cocotb"), tb_io(ECOV, "cocotb")
    assert l4c_py.parse(py, "stop", None, task, set()).ok
    assert "cut off" in l4c_py.parse(py, "length", None, task, set()).error
    assert ecov_py.parse(py, "length", None, task, set()).ok  # ecov: no re-asks, the answer is used
    assert "python" in l4c_py.messages(task, None, None)[-1]["content"].lower()
    sv = tb_io(LLM4COV, "sv")
    assert sv.messages(task, None, None)[0]["content"] == LLM4COV_SYSTEM and sv.llm4cov_history
    assert sv.parse(l4c(GOOD), "stop", None, task, set()).testbench == GOOD
