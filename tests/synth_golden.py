"""Synth outputs of every recipe on the scripted fixture runs of test_trainers, normalised for comparison.

``outputs(root)`` records the student's agentic and direct runs (real ecov-eval runs against a scripted
server and the real engine), runs ``synth_stage`` for stage 0 (paper filters on and off, re-scored), the
ecov recipe and the llm4cov recipe, and returns each output file's text with ``root`` replaced by
``<ROOT>`` and timing fields removed. tests/data/synth_golden.json holds what the code that loaded whole
run folders wrote (``python tests/synth_golden.py --write``); the streaming code must write the same bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer
from test_trainers import (
    ROLLOUT_SCRIPT,
    TEACHER_SCRIPT,
    record_direct_run,
    record_student_run,
)

from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine
from ecov.trainers.config import config_from_dict
from ecov.trainers.stages import synth_stage

GOLDEN = Path(__file__).resolve().parent / "data" / "synth_golden.json"
FILES = ("rows.raw.jsonl", "rows.jsonl", "states.jsonl", "rejection.jsonl", "synth.json", "curation.json")
TIMING = ("seconds",)


def _cases(agentic: str, direct: str, tasks: str, url: str) -> dict[str, dict]:
    base = {"student": {"base": "x", "init": "x"}, "tasks": {"path": tasks},
            "curation": {"contamination": {}, "length": {}}}
    reviser = {"model": "openai/teacher", "api_base": url, "max_tokens": 2048, "cache": False}
    return {
        "stage0": {**base, "stage": 0, "sources": [direct, agentic]},
        "stage0_all": {**base, "stage": 0, "sources": [direct, agentic], "stage0": {"enabled": False}},
        "stage0_rescore": {**base, "stage": 0, "sources": [agentic], "stage0": {"enabled": False},
                           "curation": {"contamination": {}, "length": {}, "rescore": True}},
        "ecov1": {**base, "stage": 1, "recipe": "ecov", "sources": [agentic],
                  "sampling": {"budget": 1}, "rejection": {"k": 5, "tau": 5.0, "concurrency": 1, "reviser": reviser}},
        "llm4cov1": {**base, "stage": 1, "recipe": "llm4cov", "sources": [direct],
                     "rollouts": {"rounds": 2, "repetitions": 2, "concurrency": 1},
                     "direct_rows": {"enabled": True, "min_coverage": 50.0},
                     "rejection": {"reviser": reviser}},
    }


SCRIPTS = {"ecov1": TEACHER_SCRIPT, "llm4cov1": ROLLOUT_SCRIPT}


def _normalise(text: str, root: Path, jsonl: bool) -> str:
    text = text.replace(str(root), "<ROOT>")
    if not jsonl:
        return text
    lines = []
    for line in text.splitlines():
        d = json.loads(line)
        for k in TIMING:
            d.pop(k, None)
        lines.append(json.dumps(d, sort_keys=True))
    return "\n".join(lines) + ("\n" if lines else "")


def record(root: Path) -> tuple[str, str, str]:
    """The student's agentic and direct runs and their task file: (agentic, direct, tasks) paths."""
    mp = pytest.MonkeyPatch()
    try:
        _, agentic, tasks = record_student_run(root / "a", mp)
        _, direct, _ = record_direct_run(root / "d", mp)
    finally:
        mp.undo()
    return str(agentic.root), str(direct.root), str(tasks)


CASES = ("stage0", "stage0_all", "stage0_rescore", "ecov1", "llm4cov1")


def run_case(name: str, root: Path, runs: tuple[str, str, str], engine) -> dict[str, str]:
    """Synth one case into ``root/name``; its output files, normalised."""
    spec = _cases(*runs, "http://unused/v1")[name]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "dummy")
        with FakeOpenAIServer(list(SCRIPTS.get(name, []))) as srv:
            if "rejection" in spec:
                spec["rejection"]["reviser"]["api_base"] = srv.url
            synth_stage(config_from_dict({**spec, "output_dir": str(root / name)}), engine=engine,
                        log=lambda _m: None)
    out = {}
    for f in FILES:
        p = root / name / f
        if p.exists():
            out[f"{name}/{f}"] = _normalise(p.read_text(), root, f.endswith(".jsonl"))
    return out


def outputs(root: Path, engine=None) -> dict[str, str]:
    runs = record(root)
    engine = engine if engine is not None else Engine(EngineConfig())
    out: dict[str, str] = {}
    for name in CASES:
        out.update(run_case(name, root, runs, engine))
    return out


if __name__ == "__main__":  # python tests/synth_golden.py --write
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        got = outputs(Path(d))
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    print(json.dumps({k: len(v) for k, v in got.items()}, indent=1))
