"""The pipeline's bookkeeping, without training: resume by content (a step's key, why it runs again), the
preflight (`ecov-train pipeline --check`), and the servers it owns (a busy port is refused and its holder
named; a server answering for another checkpoint is refused at readiness; pid files of a killed run).

Every process here is real (an HTTP server in a subprocess, the CLI); none needs torch.
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
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer

from ecov.trainers.cli import main
from ecov.trainers.config import ConfigError
from ecov.trainers.owned import Owned, PidFiles, port_busy, proc_start
from ecov.trainers.pipeline import Pipeline, PlannedStep, chain_keys, load_pipeline
from ecov.trainers.pipeline_config import ServeSpec, StepFailed
from ecov.trainers.serving import serve, wait_ready

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "trainers" / "configs" / "pipeline_tiny_cpu.yaml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _config(tmp_path: Path, **changes) -> Path:
    cfg = yaml.safe_load(TINY.read_text())
    cfg["workdir"] = str(tmp_path / "work")
    cfg["student_serve"]["port"] = _free_port()
    for k, v in changes.items():
        cfg[k] = v
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path


# -- resume by content --------------------------------------------------------------------------------

def _pipeline(tmp_path: Path, confs: dict[str, dict], log: list[str]) -> Pipeline:
    p = Pipeline(load_pipeline(_config(tmp_path)), log=log.append)
    p.plan = chain_keys([PlannedStep(name, conf) for name, conf in confs.items()])
    return p


def _run_all(p: Pipeline, ran: list[str]) -> None:
    for s in list(p.plan):
        p.step(s.name, lambda f, n=s.name: (ran.append(n), (f / "out.txt").write_text(n), {"summary": n})[-1])


def test_a_changed_step_runs_again_with_every_step_after_it_and_says_why(tmp_path):
    confs = {"a": {"x": 1}, "b": {"lr": 1e-5, "steps": 3}, "c": {"n": 5}}
    log, ran = [], []
    _run_all(_pipeline(tmp_path, confs, log), ran)
    assert ran == ["a", "b", "c"]
    done_b = json.loads((tmp_path / "work" / "02-b" / "done.json").read_text())
    assert done_b["conf"] == {"lr": 1e-5, "steps": 3} and len(done_b["key"]) == 16

    log, ran = [], []
    _run_all(_pipeline(tmp_path, confs, log), ran)  # nothing changed: nothing runs
    assert ran == [] and sum("done already" in m for m in log) == 3

    (tmp_path / "work" / "02-b" / "stale.txt").write_text("from the old config")
    log, ran = [], []
    _run_all(_pipeline(tmp_path, {**confs, "b": {"lr": 2e-5, "steps": 3}}, log), ran)
    assert ran == ["b", "c"]
    assert "[02 b] runs again: its config or inputs changed: lr: 1e-05 -> 2e-05" in log
    assert "[03 c] runs again: an earlier step changed or ran again" in log
    assert not (tmp_path / "work" / "02-b" / "stale.txt").exists()  # it ran from an empty folder


def test_a_cut_off_step_resumes_in_its_folder_only_when_its_inputs_are_the_same(tmp_path):
    confs = {"a": {"x": 1}, "b": {"y": 1}}
    log = []
    p = _pipeline(tmp_path, confs, log)
    p.step("a", lambda f: {"summary": "a"})
    with pytest.raises(KeyboardInterrupt):  # cut off mid-step: started.json, no done.json
        p.step("b", lambda f: ((f / "partial.txt").write_text("half"), (_ for _ in ()).throw(KeyboardInterrupt))[1])
    folder = tmp_path / "work" / "02-b"
    assert (folder / "started.json").exists() and not (folder / "done.json").exists()

    log = []
    p = _pipeline(tmp_path, confs, log)
    p.step("a", lambda f: {"summary": "a"})
    p.step("b", lambda f: {"summary": "kept " + (f / "partial.txt").read_text()})
    assert "[02 b] resuming in" in " ".join(log)
    assert json.loads((folder / "done.json").read_text())["summary"] == "kept half"

    (folder / "done.json").unlink()
    (folder / "started.json").write_text(json.dumps({"key": "0" * 16}))
    log = []
    p = _pipeline(tmp_path, confs, log)
    p.step("a", lambda f: {"summary": "a"})
    p.step("b", lambda f: {"summary": str((f / "partial.txt").exists())})
    assert any("starts afresh" in m and "of other inputs" in m for m in log)
    assert json.loads((folder / "done.json").read_text())["summary"] == "False"


def test_plan_keys_follow_the_config_not_the_ports_or_speed(tmp_path):
    from ecov.trainers.pipeline import plan_steps

    cfg = load_pipeline(_config(tmp_path))
    keys = {s.name: s.key for s in plan_steps(cfg)}
    cfg.student_serve.port += 1
    cfg.final_eval.concurrency = 7
    assert {s.name: s.key for s in plan_steps(cfg)} == keys
    cfg.stages["stage2"]["overrides"]["sft"]["max_steps"] = 11
    changed = {s.name for s in plan_steps(cfg) if s.key != keys[s.name]}
    assert changed == {"stage2-sft", "stage2-eval", "submission"}  # synth keeps its rollouts



def test_stage2_states_from_is_part_of_the_plan_and_checked(tmp_path):
    """The smoke's stage 2 revises the states stage 1 fixed (states_from: stage1-direct); the paper's,
    its own (own). Which one shapes stage2-synth's key; a bad value or a misplaced key is refused."""
    from ecov.trainers.pipeline import plan_steps

    cfg = load_pipeline(_config(tmp_path))
    assert cfg.stages["stage2"]["states_from"] == "stage1-direct"
    keys = {s.name: s.key for s in plan_steps(cfg)}
    cfg.stages["stage2"]["states_from"] = "own"
    changed = {s.name for s in plan_steps(cfg) if s.key != keys[s.name]}
    assert changed == {"stage2-synth", "stage2-sft", "stage2-eval", "submission"}
    stages = yaml.safe_load(TINY.read_text())["stages"]
    for where, value, why in (("stage2", "stage0-direct", "own or stage1-direct"),
                              ("stage1", "stage1-direct", "only stage2 has it")):
        bad = {k: dict(v) for k, v in stages.items()}
        bad["stage2"].pop("states_from")
        bad[where]["states_from"] = value
        with pytest.raises(ConfigError, match=why):
            load_pipeline(_config(tmp_path, stages=bad))
    with pytest.raises(ConfigError, match="needs stages 1 and 2 in stage_list"):
        load_pipeline(_config(tmp_path, stage_list=[0, 2]))
    other = {k: dict(v) for k, v in stages.items()}
    other["stage1"]["designs"] = "long"
    with pytest.raises(ConfigError, match="on the same designs, got long and all"):
        load_pipeline(_config(tmp_path, stages=other))

# -- the preflight ------------------------------------------------------------------------------------

def test_check_passes_the_tiny_config(tmp_path):
    res = CliRunner().invoke(main, ["pipeline", "--config", str(_config(tmp_path)), "--check"])
    assert res.exit_code == 0, res.output
    assert "PROBLEM" not in res.output and "steps: corpus, rules, teacher-direct" in res.output
    assert "stages.stage1: the stage config is valid" in res.output
    assert not (tmp_path / "work").exists()  # nothing written


def test_check_and_the_run_stop_on_a_missing_benchmark_before_any_model_work(tmp_path):
    cfg = yaml.safe_load(TINY.read_text())
    stages = cfg["stages"]
    stages["stage1"]["overrides"]["curation"]["contamination"]["eval_benchmark"] = "build/cvdp-ecov"
    stages["stage2"]["overrides"]["sft"]["max_stepz"] = 3  # a typo in an override
    path = _config(tmp_path, eval_benchmark="no-such-benchmark", stages=stages)
    res = CliRunner().invoke(main, ["pipeline", "--config", str(path), "--check"])
    assert res.exit_code == 1, res.output
    problems = [line for line in res.output.splitlines() if line.startswith("PROBLEM")]
    assert len(problems) == 3, res.output
    assert "eval_benchmark" in problems[0] and "no-such-benchmark" in problems[0]
    assert any("stages.stage1.curation.contamination.eval_benchmark" in p and "build/cvdp-ecov" in p
               for p in problems)
    assert any("max_stepz" in p for p in problems)
    # The run itself runs the preflight first and stops there: no step folder, no model built.
    res = CliRunner().invoke(main, ["pipeline", "--config", str(path)])
    assert res.exit_code == 1 and "the preflight found problems (nothing was run)" in res.output
    assert not (tmp_path / "work").exists()


def test_pipeline_refuses_a_stage_config_and_its_help_names_a_pipeline_config():
    res = CliRunner().invoke(main, ["pipeline", "--config", str(ROOT / "trainers/configs/stage1.yaml")])
    assert res.exit_code == 2 and "is a stage config" in res.output and "ecov-train stage" in res.output
    help_text = CliRunner().invoke(main, ["pipeline", "--help"]).output
    assert "pipeline.yaml" in help_text and "--check" in help_text


def test_shipped_pipeline_configs_name_benchmarks_that_exist():
    """The stage configs once pointed contamination at build/cvdp-ecov, which nothing builds: the
    paper's run failed at stage-1 curation, after the teacher's rollouts."""
    from ecov.trainers.pipeline_config import stage_dict
    from ecov.trainers.preflight import benchmark_problem

    for name in ("pipeline.yaml", "pipeline_tiny_cpu.yaml", "pipeline_gpu_smoke.yaml"):
        cfg = load_pipeline(ROOT / "trainers" / "configs" / name)
        for stage in cfg.stage_list:
            ct = stage_dict(cfg, stage).get("curation", {}).get("contamination", {})
            if ct.get("eval_benchmark"):
                assert not benchmark_problem(ct["eval_benchmark"], ct.get("eval_split", "test"), name)


# -- servers the pipeline owns ------------------------------------------------------------------------

def _http_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(100):
        if port_busy(port):
            return proc
        time.sleep(0.1)
    raise AssertionError("the http server did not start")


def test_a_busy_port_is_refused_and_its_holder_named(tmp_path):
    port = _free_port()
    holder = _http_server(port)
    try:
        spec = ServeSpec(kind="tiny", port=port, startup_timeout=30)
        with pytest.raises(StepFailed) as e, serve(spec, str(tmp_path), "stage0", tmp_path / "work",
                                                   tmp_path / "serve.log", "student_serve"):
            pass
        assert f"port {port} is busy: pid {holder.pid}" in str(e.value) and "http.server" in str(e.value)
        assert "student_serve.port" in str(e.value)
        assert holder.poll() is None  # a process no pid file names is never touched
    finally:
        holder.kill()
        holder.wait()


def test_readiness_refuses_a_server_that_lists_another_checkpoint(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with FakeOpenAIServer([]) as srv, pytest.raises(StepFailed) as e:  # lists fake-model, no root
            wait_ready(srv.url, proc, 10, tmp_path / "log", "stage1", "/work/served/ckpt-abc")
        assert "not 'stage1' serving /work/served/ckpt-abc" in str(e.value)
    finally:
        proc.kill()
        proc.wait()


def test_a_rerun_stops_what_a_killed_run_left_and_nothing_else(tmp_path):
    work = tmp_path / "work"
    port = _free_port()
    ours = _http_server(port)
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    pids = PidFiles(work)
    pids.record(Owned("server-stage0", ours.pid, proc_start(ours.pid), ["python", "-m", "http.server"], port,
                      "/x/served/ckpt-1"))
    # A pid file whose process is gone, and one whose pid now belongs to another process (a recycled pid).
    pids.record(Owned("step-09", 999999, "1", ["ecov-eval"]))
    pids.record(Owned("step-10", stranger.pid, "1", ["ecov-train"]))
    try:
        assert [o.label for o in pids.leftovers()] == ["server-stage0"]
        said: list[str] = []
        pids.stop_leftovers(said.append)
        assert ours.wait(timeout=30) is not None and not port_busy(port)
        assert said == [f"stopping server-stage0 (pid {ours.pid}, serving /x/served/ckpt-1 on port {port}), "
                        "left running by an earlier run of this pipeline"]
        assert stranger.poll() is None and pids.all() == []
    finally:
        for p in (ours, stranger):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL) if p is ours else p.kill()
            p.wait()


def test_the_gpu_smoke_config_extends_the_cpu_one_and_its_preflight_wants_a_gpu(tmp_path):
    """pipeline_gpu_smoke.yaml is the CPU run (its student, steps and learning rates) with the 4B run's
    differences (SFT through accelerate with the shipped FSDP config, bf16, gradient checkpointing); on a
    machine without a GPU its preflight names exactly that, and nothing else."""
    import importlib.util

    path = tmp_path / "smoke.yaml"
    path.write_text(yaml.safe_dump({"extends": str(ROOT / "trainers/configs/pipeline_gpu_smoke.yaml"),
                                    "workdir": str(tmp_path / "work"), "student_serve": {"port": _free_port()},
                                    "min_free_gb": 1}))
    cfg = load_pipeline(path)
    assert cfg.sft == {"launcher": "accelerate", "accelerate_config": "trainers/configs/accelerate_fsdp.yaml",
                       "processes": 1}
    cpu = load_pipeline(ROOT / "trainers/configs/pipeline_tiny_cpu.yaml")
    assert cfg.tiny and cfg.tiny_model == cpu.tiny_model and cfg.corpus["split_tokens"] == 80  # inherited
    for stage in ("stage0", "stage1", "stage2"):
        sft, cpu_sft = cfg.stages[stage]["overrides"]["sft"], cpu.stages[stage]["overrides"]["sft"]
        assert sft["bf16"] is True and sft["gradient_checkpointing"] is True
        assert {k: sft[k] for k in ("max_steps", "learning_rate")} == {k: cpu_sft[k] for k in ("max_steps", "learning_rate")}
    assert cfg.stages["stage0"]["designs"] == "short" and cfg.allow_empty_stage
    res = CliRunner().invoke(main, ["pipeline", "--config", str(path), "--check"])
    gpus = 0
    if importlib.util.find_spec("torch") is not None:
        import torch

        gpus = torch.cuda.device_count()
    problems = [line for line in res.output.splitlines() if line.startswith("PROBLEM")]
    if gpus:
        assert res.exit_code == 0 and not problems, res.output
    else:
        assert res.exit_code == 1 and len(problems) == 1, res.output
        assert "sft.processes is 1 but 0 GPU(s) are visible" in problems[0]
