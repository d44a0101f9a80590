"""Kill ``ecov-eval`` midway (SIGKILL), run it again, and get the summary an uninterrupted run gets."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer
from test_eval_e2e import GOOD, WEAK, full, make_task

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.cli.eval import eval_cmd, report_cmd
from ecov.harness.core.run_folder import RunFolder, read_jsonl
from ecov.harness.evaluation.runner import TIMING_FIELDS

TASKS = ("p1", "w1", "p2", "w2")  # p*: answered GOOD (passes at round 0); w*: WEAK every round (never passes)
N, ROUNDS = 2, 2
TOTAL = len(TASKS) * N


def answer(body):
    task = re.search(r"# Task: (\S+)", body["messages"][1]["content"]).group(1)
    return {"content": full(GOOD if task.startswith("p") else WEAK), "delay": 0.4}


def command(url, bench, out, cache):
    return [sys.executable, "-m", "ecov.harness.cli.eval", "--model", "openai/test-model", "--api-base", url,
            "--benchmark", str(bench), "--mode", "agentic", "--protocol", "ecov", "--max-rounds", str(ROUNDS), "-n", str(N),
            "--workers", "2", "--out", str(out), "--cache-dir", str(cache), "--no-progress"]


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def comparable(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_FIELDS}


def test_killed_run_resumes_to_the_same_summary(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    bench = tmp_path / "bench"
    save_tasks([make_task(t) for t in TASKS], bench, fmt="jsonl")
    env = {**os.environ, "OPENAI_API_KEY": "dummy", "PYTHONPATH": str(Path(__file__).parents[1])}
    killed, whole = tmp_path / "killed", tmp_path / "whole"

    with FakeOpenAIServer(answer) as srv:
        proc = subprocess.Popen(command(srv.url, bench, killed, tmp_path / "llm1"), env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 300
        while lines(killed / "samples.jsonl") < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        done_before = len(RunFolder(killed).samples())
        assert 2 <= done_before < TOTAL, proc.stdout.read().decode()[-3000:]

        # Resume and the uninterrupted baseline run in this process (a second LiteLLM import per
        # subprocess costs tens of seconds on a loaded machine); the killed run was a real process.
        rerun = CliRunner().invoke(eval_cmd, command(srv.url, bench, killed, tmp_path / "llm1")[3:])
        assert rerun.exit_code == 0, rerun.output[-3000:]
        assert f"{done_before} already done" in rerun.output

        straight = CliRunner().invoke(eval_cmd, command(srv.url, bench, whole, tmp_path / "llm2")[3:])
        assert straight.exit_code == 0, straight.output[-3000:]

    resumed = json.loads((killed / "summary.json").read_text())
    uninterrupted = json.loads((whole / "summary.json").read_text())
    assert comparable(resumed) == comparable(uninterrupted)
    assert resumed["complete"] and resumed["samples"] == TOTAL
    assert resumed["pass_rate"] == 50.0 and resumed["pass_at_k"] == {"pass@1": 50.0, "pass@2": 50.0}

    # rounds.jsonl holds each finished sample's rounds exactly once: no stale attempt left behind.
    def rounds(folder):
        recs = list(read_jsonl(folder / "rounds.jsonl"))
        keys = [(r["task_id"], r["sample"], r["round"]) for r in recs]
        assert len(keys) == len(set(keys))
        return sorted((r["task_id"], r["sample"], r["round"], r["prompt_hash"], r["testbench"], r["passed"])
                      for r in recs)

    assert rounds(killed) == rounds(whole)
    assert len(rounds(whole)) == 2 * N * 1 + 2 * N * ROUNDS
    stale = killed / "logs" / "superseded_rounds.jsonl"
    if stale.exists():  # the kill caught a sample between rounds: its first attempt was set aside
        assert {(r["task_id"], r["sample"]) for r in read_jsonl(stale)} <= {(t, s) for t in TASKS for s in range(N)}

    report = CliRunner().invoke(report_cmd, [str(killed)])
    assert report.exit_code == 0 and "pass@2 50.0" in report.output and "w2" in report.output


def test_ctrl_c_stops_cleanly_keeping_finished_samples(tmp_path, monkeypatch):
    """KeyboardInterrupt in the main thread (what Ctrl-C raises) while workers are mid-sample. A real
    SIGINT, not _thread.interrupt_main(): that only sets a flag, which a main thread blocked waiting on its
    workers may not see until the run has ended."""
    import threading

    from test_eval_e2e import engine_score, fake_model, run_config

    from ecov.harness.evaluation.runner import run_eval

    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    tasks = [make_task(t) for t in TASKS]
    samples = tmp_path / "run" / "samples.jsonl"

    def press_ctrl_c():
        deadline = time.monotonic() + 120
        while lines(samples) < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(os.getpid(), signal.SIGINT)

    # Ctrl-C raises KeyboardInterrupt only under Python's own SIGINT handler: an earlier test in the same
    # process (a library that installs its own) must not decide what this one measures.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with FakeOpenAIServer(answer) as srv:
            model = fake_model(srv, tmp_path)
            threading.Thread(target=press_ctrl_c, daemon=True).start()
            out = run_eval(tasks, model, run_config(tasks, max_rounds=ROUNDS, n=N), tmp_path / "run",
                           scorer=engine_score, workers=2, progress=False)
    finally:
        signal.signal(signal.SIGINT, previous)
        assert out.interrupted and 1 <= out.ran < TOTAL
        summary = json.loads((tmp_path / "run" / "summary.json").read_text())
        assert summary["samples"] == len(RunFolder(tmp_path / "run").samples()) == out.ran
        assert not summary["complete"]

        # The resume asks the model again for what was not finished: a model server must be there.
        with FakeOpenAIServer(answer) as srv:
            out = run_eval(tasks, fake_model(srv, tmp_path), run_config(tasks, max_rounds=ROUNDS, n=N),
                           tmp_path / "run", scorer=engine_score, workers=2, progress=False)
    assert not out.interrupted and out.skipped + out.ran == TOTAL and out.summary["complete"]
    assert out.summary["pass_rate"] == 50.0


def test_a_folder_in_use_or_not_a_run_is_refused(tmp_path):
    from test_eval_e2e import run_config

    from ecov.harness.evaluation.runner import RunMismatch, lock_run, run_eval

    tasks = [make_task("p1")]
    held = lock_run(RunFolder(tmp_path / "busy"))  # as another ecov-eval process would hold it
    try:
        with pytest.raises(RunMismatch, match="in use by another ecov-eval"):
            run_eval(tasks, None, run_config(tasks), tmp_path / "busy", scorer=lambda *a: None, progress=False)
    finally:
        held.close()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(RunMismatch, match="not an ecov-eval run folder"):
        run_eval(tasks, None, run_config(tasks), tmp_path / "other", scorer=lambda *a: None, progress=False)
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == ["notes.txt"]
