"""The user-runnable CPU smoke of the whole recipe: `ecov-train pipeline --config
trainers/configs/pipeline_tiny_cpu.yaml`, as shipped (only the work folder and the server port moved into
the test's temporary folder), then run again to show it resumes without redoing a step.

Every step runs for real: the corpus builder on the shipped records, a tiny model built on the spot and
served by an OpenAI-compatible server the driver starts and stops, ecov-eval with Verilator, synth, SFT
(trl), evaluation of each stage's checkpoint on cvdp-ecov, and the leaderboard submission folder.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("trl")
pytest.importorskip("torch")

pytestmark = pytest.mark.train

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "trainers" / "configs" / "pipeline_tiny_cpu.yaml"
STEPS = ["corpus", "tiny-model", "rules", "teacher-direct", "teacher-agentic", "stage0-synth", "stage0-sft",
         "stage0-eval", "stage1-direct", "stage1-synth", "stage1-sft", "stage1-eval", "stage2-direct",
         "stage2-synth", "stage2-sft", "stage2-eval", "submission"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ecov_train() -> list[str]:
    exe = Path(sys.executable).parent / "ecov-train"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "ecov.trainers.cli"]


def test_tiny_cpu_pipeline_runs_every_step_and_resumes(tmp_path):
    cfg = yaml.safe_load(CONFIG.read_text())
    cfg["workdir"] = str(tmp_path / "work")
    cfg["student_serve"]["port"] = _free_port()
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    # Run from the repository root, as a user does on a fresh clone (the config's relative paths).
    res = subprocess.run(_ecov_train() + ["pipeline", "--config", str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=3000)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = json.loads(res.stdout)
    assert [s["step"].split("-", 1)[1] for s in out["steps"]] == STEPS
    work = tmp_path / "work"
    done = {p.parent.name.split("-", 1)[1]: json.loads(p.read_text()) for p in work.glob("*/done.json")}
    assert set(done) == set(STEPS)

    # The corpus: single-top filter and contamination applied, split train.
    corpus = json.loads((Path(done["corpus"]["folder"]) / "manifest.json").read_text())
    assert corpus["benchmark"] == "ecov-train" and corpus["count"] >= 1
    assert any("top modules" in s["reason"] for s in corpus["skipped"])
    # The teacher's runs were made with the rules; stage 0's rows carry neither rules nor prose.
    teacher_cfg = json.loads((Path(done["teacher-direct"]["run"]) / "config.json").read_text())
    assert teacher_cfg["extra"]["instructions_suffix"]["sha256"]
    rows = [json.loads(line) for line in Path(done["stage0-synth"]["rows_path"]).read_text().splitlines()]
    assert rows and all("generation_rules" not in json.dumps(r["prompt"]) for r in rows)
    assert all(r["completion"][0]["content"].startswith("filename: ") for r in rows)
    # Stage 0 trained a checkpoint that the next steps served and evaluated on cvdp-ecov.
    assert done["stage0-sft"]["steps"] >= 1 and (Path(done["stage0-sft"]["checkpoint"]) / "config.json").exists()
    ev = json.loads((Path(done["stage2-eval"]["run"]) / "config.json").read_text())
    assert ev["benchmark"] == "cvdp-ecov" and ev["model"].startswith("openai/stage")
    assert (Path(done["submission"]["submission"])).is_dir()
    # No server is left behind.
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", cfg["student_serve"]["port"])) != 0

    again = subprocess.run(_ecov_train() + ["pipeline", "--config", str(path)], cwd=ROOT, capture_output=True,
                           text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stderr.count("done already") == len(STEPS)
