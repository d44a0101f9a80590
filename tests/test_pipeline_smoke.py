"""The user-runnable CPU smoke of the whole recipe: `ecov-train pipeline --config
trainers/configs/pipeline_tiny_cpu.yaml`, as shipped (only the work folder and the server port moved into
the test's temporary folder), killed with SIGKILL while a stage-1 step runs against a served checkpoint,
run again to the end, then run a third time with one SFT setting changed.

Every step runs for real: the corpus builder on the shipped records, the teacher (builtin/random) through
ecov-eval with Verilator, a tiny Qwen3 built on the spot and served by an OpenAI-compatible server the
driver starts and stops, synth with selection, rollouts and rejection, SFT (trl), evaluation of each
stage's checkpoint on cvdp-ecov, and the leaderboard submission folder. The test checks what the issue
asks of it: every stage trains on non-zero rows, stages 1 and 2 select the student's states, roll out,
judge the rollouts and keep fixes (stage 2's: written by the stage-1 student, revising the failures whose
fixes it was trained on: `states_from: stage1-direct`), the student's testbenches are built and simulated
by Verilator, a rerun after SIGKILL stops what the killed run left and serves the right
checkpoint at every step, and a changed setting re-runs exactly the steps it shapes.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

pytest.importorskip("trl")
pytest.importorskip("torch")

from ecov.trainers.serving import checkpoint_digest  # noqa: E402

pytestmark = pytest.mark.train

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "trainers" / "configs" / "pipeline_tiny_cpu.yaml"
STEPS = ["corpus", "rules", "teacher-direct", "teacher-agentic", "tiny-model", "stage0-synth", "stage0-sft",
         "stage0-eval", "stage1-direct", "stage1-synth", "stage1-sft", "stage1-eval", "stage2-direct",
         "stage2-synth", "stage2-sft", "stage2-eval", "submission"]
KILL_AT = "09-stage1-direct"  # the stage-0 checkpoint is served and ecov-eval is asking it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ecov_train() -> list[str]:
    exe = Path(sys.executable).parent / "ecov-train"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "ecov.trainers.cli"]


def _pid_alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _kill_driver_at(cmd: list[str], work: Path, timeout: float = 1800) -> list[dict]:
    """Start the driver, SIGKILL it (it alone) once KILL_AT has started with its server up; returns the
    pid files it left."""
    driver = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            pids = [json.loads(p.read_text()) for p in (work / "pids").glob("*.json")] if (work / "pids").is_dir() else []
            if (work / KILL_AT / "started.json").exists() and any(p["label"] == "server-stage0" for p in pids) \
                    and any(p["label"].startswith("step-") for p in pids):
                time.sleep(2)  # let ecov-eval ask the server something
                driver.send_signal(signal.SIGKILL)
                driver.wait()
                return pids
            assert driver.poll() is None, driver.stderr.read()[-3000:]
            time.sleep(0.5)
        raise AssertionError(f"{KILL_AT} never started")
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()


def test_tiny_cpu_pipeline_every_stage_survives_sigkill_and_resumes_by_content(tmp_path):
    cfg = yaml.safe_load(CONFIG.read_text())
    cfg["workdir"] = str(tmp_path / "work")
    port = cfg["student_serve"]["port"] = _free_port()
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    work = tmp_path / "work"
    cmd = _ecov_train() + ["pipeline", "--config", str(path)]

    # 1. SIGKILL of the driver alone: its server and its ecov-eval run on, holding the port.
    left = _kill_driver_at(cmd, work)
    assert {p["label"] for p in left} >= {"server-stage0", "step-09"}
    assert all(_pid_alive(p["pid"]) for p in left)

    # 2. The rerun stops them, resumes the cut-off step and runs to the end.
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3000)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-5000:]
    for p in left:
        assert f"stopping {p['label']} (pid {p['pid']}" in res.stderr
        assert not _pid_alive(p["pid"])
    assert "[09 stage1-direct] resuming in" in res.stderr
    assert res.stderr.count("done already") == 8  # steps 01-08 finished before the kill
    out = json.loads(res.stdout)
    assert [s["step"].split("-", 1)[1] for s in out["steps"]] == STEPS
    done = {p.parent.name.split("-", 1)[1]: json.loads(p.read_text()) for p in work.glob("*/done.json")}
    assert set(done) == set(STEPS)

    # The right checkpoint at every step that served one: the server listed (and kept listing) the path
    # named by the digest of the checkpoint the step asked for.
    expect = {"stage0-eval": "stage0-sft", "stage1-direct": "stage0-sft", "stage1-eval": "stage1-sft",
              "stage2-direct": "stage1-sft", "stage2-synth": "stage1-sft", "stage2-eval": "stage2-sft"}
    for step, sft in expect.items():
        ckpt = done[sft]["checkpoint"]
        if step != "stage2-synth":
            assert done[step]["checkpoint"] == ckpt
            assert done[step]["served"].endswith(f"ckpt-{checkpoint_digest(ckpt)[:16]}")
            assert Path(done[step]["served"]).resolve() == Path(ckpt).resolve()
    assert done["stage0-eval"]["served"] != done["stage1-eval"]["served"]
    assert done["stage2-eval"]["checkpoint"] == done["stage2-sft"]["checkpoint"]  # trained, or carried on
    rollouts = json.loads((Path(done["stage2-synth"]["rows_path"]).parent / "rollouts" / "config.json").read_text())
    assert rollouts["model"] == "openai/stage1"  # stage 2's rollouts: the stage-1 student, served
    # ... revising the states whose fixes stage 1 trained on (states_from: stage1-direct)
    stage2 = yaml.safe_load(Path(done["stage2-synth"]["config"]).read_text())
    assert stage2["sources"] == [done["stage1-direct"]["run"]]

    # Every stage trains on rows of its own; stages 1 and 2 select states of the student's, roll out, judge
    # the rollouts and keep a fix: stage 1 the teacher's, stage 2 the stage-1 student's own.
    for stage in (0, 1, 2):
        assert done[f"stage{stage}-synth"]["rows"] >= 1, done[f"stage{stage}-synth"]
        assert done[f"stage{stage}-sft"]["steps"] >= 1 and not done[f"stage{stage}-sft"].get("skipped")
    for stage in (1, 2):
        syn = done[f"stage{stage}-synth"]
        assert syn["states"] >= 1 and syn["selected"] >= 1 and syn["rollouts"] >= 1, syn
        assert syn["rounds_by_reason"].get("kept", 0) >= 1, syn
    assert done["stage2-eval"]["checkpoint"] != done["stage1-sft"]["checkpoint"]
    # The student's own testbenches were built and simulated by Verilator (read from the run records):
    # its direct answers for the designs it learnt, and its stage-2 fix of its own failure.
    ran = []
    for run in (done["stage1-direct"]["run"], done["stage2-direct"]["run"],
                Path(done["stage2-synth"]["rows_path"]).parent / "rollouts"):
        for line in (Path(run) / "rounds.jsonl").read_text().splitlines():
            r = json.loads(line)
            if r.get("testbench") and r["result"]["status"] in ("ok", "no_finish"):
                ran.append((Path(run).name, r["task_id"], r["result"]["status"], r["result"]["overall"]))
    assert any(run == "rollouts" for run, *_ in ran), ran  # stage 2's fix, by the stage-1 student
    assert any(run == "run" for run, *_ in ran), ran  # a direct answer
    # Stage 0's rows carry neither the injected rules nor prose, and the rebuilt prompts are the chats sent.
    rows = [json.loads(line) for line in Path(done["stage0-synth"]["rows_path"]).read_text().splitlines()]
    assert rows and all("generation_rules" not in json.dumps(r["prompt"]) for r in rows)
    assert all(r["completion"][0]["content"].startswith("filename: ") for r in rows)
    assert "rebuilt prompts differ" not in (work / "06-stage0-synth" / "log.txt").read_text()
    teacher_cfg = json.loads((Path(done["teacher-direct"]["run"]) / "config.json").read_text())
    assert teacher_cfg["extra"]["instructions_suffix"]["sha256"]
    ev = json.loads((Path(done["stage2-eval"]["run"]) / "config.json").read_text())
    assert ev["benchmark"] == "cvdp-ecov" and ev["model"] == "openai/stage2"
    assert Path(done["submission"]["submission"]).is_dir()
    # Nothing is left behind: no server on the port, no pid file.
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0
    assert not list((work / "pids").glob("*.json"))

    # 3. Resume by content: one stage-2 SFT setting changed re-runs that SFT and what follows, nothing else.
    cfg["stages"]["stage2"]["overrides"]["sft"]["max_steps"] += 1
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stderr.count("done already") == len(STEPS) - 3
    assert "[15 stage2-sft] runs again: its config or inputs changed: sft.max_steps: 10 -> 11" in again.stderr
    assert "[16 stage2-eval] runs again: an earlier step changed or ran again" in again.stderr
    redone = json.loads((work / "15-stage2-sft" / "done.json").read_text())
    assert not redone.get("skipped") and redone["steps"] == 11, redone
    assert os.stat(Path(redone["checkpoint"]) / "model.safetensors").st_mode & 0o044 == 0o044
