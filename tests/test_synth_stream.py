"""Synth at scale: run folders streamed once (same bytes as the whole-folder reader), every score through
the executor, the executor option on ecov-train and the pipeline.

The golden outputs (tests/data/synth_golden.json) were written by the code that loaded whole run folders,
on the scripted fixture runs of test_trainers; tests/synth_golden.py re-creates them.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
import synth_golden

from ecov.harness.core.records import ScoreResult
from ecov.harness.core.run_folder import RoundRecord, RunFolder, SampleRecord
from ecov.harness.evaluation.runner import finished_rounds
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.scoring.executor import Executor
from ecov.harness.tracks.sv.scorer import Engine
from ecov.trainers import runview
from ecov.trainers.config import ConfigError
from ecov.trainers.pipeline import Pipeline, load_pipeline
from ecov.trainers.pipeline_config import ExecutorSpec

REPO = Path(__file__).resolve().parents[1]


class CountingExecutor(Executor):
    """A local executor that counts the jobs it scores (thread-safe)."""

    name = "counting"

    def __init__(self, engine, width: int = 2):
        self.engine, self.width, self.jobs = engine, width, 0
        self._lock = threading.Lock()

    def score(self, design, testbench, seed=1) -> ScoreResult:
        with self._lock:
            self.jobs += 1
        return self.engine.score(design, testbench, seed)

    @property
    def parallelism(self) -> int:
        return self.width


@pytest.fixture(scope="module")
def fixture_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("stream")
    return root, synth_golden.record(root)


@pytest.fixture(scope="module")
def engine():
    return Engine(EngineConfig())


@pytest.mark.parametrize("case", synth_golden.CASES)
def test_synth_streams_each_source_once_and_writes_the_same_bytes(case, fixture_runs, engine, monkeypatch):
    root, runs = fixture_runs
    reads: dict[str, int] = {}
    real = runview.read_jsonl

    def counted(path):
        reads[str(path)] = reads.get(str(path), 0) + 1
        return real(path)

    def whole_folder(self):
        raise AssertionError("RunFolder.rounds() loads a whole rounds.jsonl")

    monkeypatch.setattr(runview, "read_jsonl", counted)
    monkeypatch.setattr(RunFolder, "rounds", whole_folder)
    ex = CountingExecutor(engine)
    out = synth_golden.run_case(case, root, runs, ex)
    golden = json.loads(synth_golden.GOLDEN.read_text())
    assert out == {k: v for k, v in golden.items() if k.startswith(case + "/")}
    sources = {k: v for k, v in reads.items() if Path(k).parent.name in ("student_run", "student_direct")}
    assert sources and all(n == 1 for n in sources.values()), reads
    # Scores (re-scored rows, revisions, rollout rounds) went through the executor; stage 0 trusts the run.
    # stage0_rescore: 4 recorded answers, one without code; ecov1: K = 5 revisions, one without code;
    # llm4cov1: 2 states x 2 repetitions x 3 rounds (the replayed round 0 included), one answer without code.
    expected = {"stage0": 0, "stage0_all": 0, "stage0_rescore": 3, "ecov1": 4, "llm4cov1": 2 * 2 * 3 - 1}
    assert ex.jobs == expected[case]


def _round(task: str, sample: int, rnd: int, text: str) -> dict:
    return RoundRecord(task, sample, rnd, "h", text, "", "", "", {"status": "ok"}, False).to_dict()


def test_read_finished_is_finished_rounds_in_one_pass(tmp_path):
    """Interleaved samples, an unfinished one, a faulted attempt redone, a torn last line."""
    folder = RunFolder(tmp_path / "run")
    folder.root.mkdir()
    lines = [_round("a", 0, 0, "a0-try1"), _round("b", 0, 0, "b0"), _round("a", 0, 1, "a0-try1-r1"),
             _round("c", 0, 0, "unfinished"), _round("b", 0, 1, "b0-r1"),
             _round("a", 0, 0, "a0-try2"), _round("a", 1, 0, "a1")]
    folder.rounds_path.write_text("".join(json.dumps(d) + "\n" for d in lines) + '{"task_id": "a", "sam')
    samples = [SampleRecord("a", 0, 2, False, None, True, 0, 0, [], error="model down"),
               SampleRecord("b", 0, 2, False, None, True, 0, 0, []), SampleRecord("a", 1, 1, False, None, True, 0, 0, []),
               SampleRecord("a", 0, 1, False, None, True, 0, 0, [])]
    folder.samples_path.write_text("".join(json.dumps(s.to_dict()) + "\n" for s in samples))
    fin = runview.read_finished(folder, RoundRecord.from_dict)
    assert fin.trajectories == dict(sorted(finished_rounds(folder).items()))
    assert [r.response for r in fin.trajectories[("a", 0)]] == ["a0-try2"]
    assert list(fin.trajectories) == [("a", 0), ("a", 1), ("b", 0)]
    assert fin.errors == {(s.task_id, s.sample): s.error for s in folder.samples()}
    assert fin.task_ids == {"a", "b", "c"}


def test_executor_option_on_the_cli_and_the_pipeline(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from ecov.trainers.cli import main

    for cmd in ("synth", "stage"):
        res = CliRunner().invoke(main, [cmd, "--help"])
        assert "--executor [local|ray]" in res.output and "--ray-address" in res.output and "--workers" in res.output
    res = CliRunner().invoke(main, ["synth", "--config", str(REPO / "trainers/configs/stage1.yaml"),
                                    "--executor", "local", "--ray-address", "head:6379"])
    assert res.exit_code == 2 and "--ray-address needs --executor ray" in res.output

    cfg = load_pipeline(REPO / "trainers/configs/pipeline.yaml")
    assert cfg.executor.kind == "local"
    cfg.executor = ExecutorSpec(kind="ray", ray_address="head:6379", workers=4)
    cfg.workdir = str(tmp_path)
    seen = []
    monkeypatch.setattr(Pipeline, "_run", lambda self, cmd, log, env=None: seen.append(cmd))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "rows.jsonl").write_text("{}\n")
    Pipeline(cfg, log=lambda _m: None)._synth(tmp_path, 1, ["runs/x"], "ckpt", "build/t", None)
    assert seen[0][-6:] == ["--executor", "ray", "--ray-address", "head:6379", "--workers", "4"]
    bad = tmp_path / "bad.yaml"
    bad.write_text((REPO / "trainers/configs/pipeline.yaml").read_text() + "\nexecutor: {kind: dask}\n")
    with pytest.raises(ConfigError, match="executor.kind"):
        load_pipeline(bad)
