"""What a small real model writes (issue 23, item 8), end to end through `ecov-eval`, `report` and `view`.

Qwen2.5-Coder-0.5B on a CPU server (docs/models.md, "A real small model on a CPU, by hand") answered
mostly in two ways, scripted here on the local fake server: it copied the answer format's example
(`module tb_example; ... endmodule`, a compile error) and it ran into --max-tokens (finish_reason
`length`, re-asked, then unusable). Each must be explained so that the model and the user can act on it:
the compile error names the testbench file as the prompts show it and Verilator's real version; the
summary says why each sample did not pass and that answers hit --max-tokens; the view calls a cut-off
answer "unusable", not "rejected" (a rule rejection).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer
from test_eval_e2e import make_task

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.cli.eval import EXIT_FAULTS, eval_cmd, report_cmd, view_cmd
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.sim.verilator import verilator_release

# The model echoed the instructions: a file name line, then the format's own placeholder block.
ECHO = ("1. On a plain-text line of its own, name the testbench file:\n   filename: tb_counter.sv\n"
        "2. Then write the complete testbench in one fenced SystemVerilog block:\n"
        "```systemverilog\nmodule tb_example;\n  ...\nendmodule\n```\n")
CUT = {"content": "filename: tb_counter.sv\n```systemverilog\nmodule tb;\n  logic clk;\n  // File: counter.sv",
       "finish_reason": "length"}


@pytest.fixture
def bench(tmp_path):
    path = tmp_path / "bench"
    long = make_task("long")
    long.instructions = "Verify the 2-bit counter, with long bursts of enable."  # another prompt
    save_tasks([make_task("echo"), long], path, fmt="jsonl")
    return path


def test_small_model_failures_are_explained(bench, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    out = tmp_path / "run"
    script = [ECHO, CUT, CUT, CUT, CUT]  # echo: compile error; long: cut off, re-asked 3 times (llm4cov)
    with FakeOpenAIServer(script) as srv:
        res = CliRunner().invoke(eval_cmd, [
            "--model", "openai/qwen", "--api-base", srv.url, "--benchmark", str(bench), "--mode", "direct",
            "--max-tokens", "1500", "--workers", "1", "--no-progress", "--cache-dir", str(tmp_path / "cache"),
            "--out", str(out)])
        assert len(srv.requests) == 5, res.output
    assert res.exit_code == 0, res.output

    rounds = {r.task_id: r for r in RunFolder(out).rounds()}
    echo, long = rounds["echo"], rounds["long"]
    assert echo.result["status"] == "compile_error"
    # The feedback names the file as the model wrote it and the prompts show it, at the error's line.
    assert "tb_counter.sv:2:" in echo.feedback and "testbench.sv" not in echo.feedback
    if verilator_release():
        assert "?v=0.000" not in echo.feedback and f"?v={verilator_release()}" in echo.feedback
    assert long.reasks == 3 and not long.testbench and "cut off at the length limit" in long.parse_error

    # The summary says why each sample did not pass, and what to do about the cut-off answers.
    for text in (res.output, CliRunner().invoke(report_cmd, [str(out)]).output):
        why = text[text.index("not passed"):]
        assert re.search(r"compile error \(1\): echo", why), why
        assert "unusable answer (cut off at --max-tokens 1500) (1): long" in why
        assert "re-ask reasons        cut off at --max-tokens 1500: 3" in why
        assert "raise --max-tokens" in why and "ecov-eval view" in why

    # The view: the cut-off round is an unusable answer with its re-asks, not a rule rejection.
    assert CliRunner().invoke(view_cmd, [str(out)]).exit_code == 0
    page = (out / "view" / "t" / "long.html").read_text()
    assert "unusable answer" in page and ">rejected<" not in page
    assert "Asked again 3 times before this answer" in page
    assert page.count("cut off at the length limit") == 5  # 3 re-asks, the parse error, the feedback
    echo_page = (out / "view" / "t" / "echo.html").read_text()
    assert "compile_error" in echo_page and "tb_counter.sv:2:" in echo_page


def test_a_slow_server_timeout_says_what_to_change(bench, tmp_path, monkeypatch):
    """A request past --request-timeout is retried, then the sample is a fault (exit 6, resumable), and the
    message says there was no answer within the timeout and to raise it: not an "HTTP 408" from the server."""
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    slow = {"content": ECHO, "delay": 2.5}
    with FakeOpenAIServer([slow, slow]) as srv:
        res = CliRunner().invoke(eval_cmd, [
            "--model", "openai/qwen", "--api-base", srv.url, "--benchmark", str(bench), "--mode", "direct",
            "--task-id", "echo", "--request-timeout", "1", "--max-retries", "1", "--no-progress",
            "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "run")])
        assert len(srv.requests) == 2
    assert res.exit_code == EXIT_FAULTS, res.output
    assert "no answer within the request timeout (1 s), retry 1/1" in res.output
    assert "no answer within the request timeout (1 s) gave up after 1 retry" in res.output
    assert "larger --request-timeout" in res.output and "HTTP 408" not in res.output
    assert "run the same command again" in res.output


def test_ecov_parser_says_an_unusable_answer_was_cut_off():
    """Under the ecov protocol a cut-off answer is still used when it parses; when it does not, the error
    says it was cut off at the length limit (the server's finish_reason), not only that a block is open."""
    from ecov.harness.core.protocol import ECOV
    from ecov.harness.tracks.base import tb_io

    task = make_task("cut")
    io = tb_io(ECOV, "sv")
    cut = CUT["content"]
    assert "not closed" in io.parse(cut, "stop", None, task, set()).error
    assert "cut off at the length limit" in io.parse(cut, "length", None, task, set()).error
    whole = "tb.sv\n```systemverilog\nmodule tb;\n  counter uut ();\n  initial $finish;\nendmodule\n```\nAnd th"
    assert io.parse(whole, "length", None, task, set()).ok
