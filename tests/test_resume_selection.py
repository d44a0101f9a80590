"""Task selection is not a run's identity (docs/evaluation.md): the same --out with --limit 1, then --limit 2
(or another --task-id) extends the run; compare pairs a subset run with a fuller one on the tasks they
share and says how many pairs it used. Real runs of builtin/random, scored with Verilator."""

from __future__ import annotations

import json
import subprocess
import sys

from ecov.harness.benchmark.store import dataset_hash, select_tasks

COMMON = ["--model", "builtin/random", "--mode", "direct", "--no-progress"]


def _eval(*args, cwd):
    return subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", *args], capture_output=True,
                          text=True, timeout=900, cwd=cwd)


def test_limit_then_more_tasks_extends_the_run_and_compare_pairs_the_intersection(tmp_path):
    run = tmp_path / "run"
    first = _eval(*COMMON, "--limit", "1", "--out", str(run), cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    config = json.loads((run / "config.json").read_text())
    assert config["dataset_hash"] == dataset_hash(select_tasks("ecov-embedded"))  # the benchmark, not the pick
    more = _eval(*COMMON, "--limit", "2", "--out", str(run), cwd=tmp_path)
    assert more.returncode == 0, more.stderr[-2000:]
    assert "(1 samples run now, 1 already done)" in more.stdout
    picked = _eval(*COMMON, "--task-id", "uart", "--out", str(run), cwd=tmp_path)
    assert picked.returncode == 0, picked.stderr[-2000:]
    samples = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
    ids = [t.id for t in select_tasks("ecov-embedded")[:2]] + ["uart"]
    assert sorted(s["task_id"] for s in samples) == sorted(ids)
    assert json.loads((run / "config.json").read_text())["task_ids"] == ids

    small = tmp_path / "small"
    assert _eval(*COMMON, "--task-id", "uart", "--out", str(small), cwd=tmp_path).returncode == 0
    comp = subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", "compare", str(small), str(run)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert comp.returncode == 0, comp.stderr
    assert "paired on 1 tasks, 1 (task, sample) pairs" in comp.stdout
    assert "2 samples have no partner in the other run and are left out" in comp.stdout
