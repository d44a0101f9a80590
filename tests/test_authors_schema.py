"""The LLM4Cov authors' evaluation-set schema (hez2024/cvdp_ecov_eval) loads as ECov tasks from a local
parquet/JSONL file made here, maps Xcelium metrics, refuses unmappable ones, keeps ``is_agentic``, and
calibrates like any other benchmark (one real Verilator run)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ecov.harness.benchmark.builders import authors
from ecov.harness.benchmark.builders.common import SourceError
from ecov.harness.benchmark.calibrate import apply_rule, calibrate_task, engine_scorer
from ecov.harness.benchmark.store import load_benchmark, load_folder
from ecov.harness.core.records import Target

SUITE = Path(__file__).resolve().parents[1] / "harness" / "suite" / "updown_counter"


def _row(**over) -> dict:
    rtl = (SUITE / "rtl" / "updown_counter.sv").read_text()
    row = {
        "id": "cvdp_copilot_updown_counter_0001",
        "spec_files": [{"name": "docs/spec.md", "content": (SUITE / "spec.md").read_text()}],
        "rtl_files": [{"name": "rtl/updown_counter.sv", "content": rtl}],
        "dut_module_name": "updown_counter",
        "dut_instance_name": "dut",
        "instruction": "Write stimulus for the counter.",
        "targets": [{"inst_name": "tb.dut", "metric": "block", "target_percentage": 90.0},
                    {"inst_name": "dut", "metric": "Toggle", "target_percentage": 85.0}],
        "difficulty": "easy",
        "is_agentic": True,
    }
    row.update(over)
    return row


def test_parquet_in_the_authors_schema_loads_as_tasks(tmp_path):
    path = tmp_path / "eval.parquet"
    pq.write_table(pa.Table.from_pylist([_row(), _row(id="second", is_agentic=False)]), path)
    tasks = load_benchmark(str(path), split="eval")
    assert [t.id for t in tasks] == ["cvdp_copilot_updown_counter_0001", "second"]
    t = tasks[0]
    assert t.benchmark == "cvdp-ecov-authors"
    assert t.dut_module == "updown_counter" and t.dut_instance == "dut"
    assert [f.name for f in t.rtl_files] == ["updown_counter.sv"]
    assert [f.name for f in t.spec_files] == ["spec.md"]
    # block -> line, Toggle -> toggle; the testbench-rooted path tb.dut becomes ECov's dut
    assert t.targets == [Target("dut", "line", 90.0), Target("dut", "toggle", 85.0)]
    assert t.source["is_agentic"] == "true" and tasks[1].source["is_agentic"] == "false"
    assert t.source["upstream_target"] == "85"


def test_jsonl_folder_and_files_as_a_mapping(tmp_path):
    row = _row(rtl_files={"rtl/updown_counter.sv": (SUITE / "rtl" / "updown_counter.sv").read_text()},
               spec_files=json.dumps([]), targets=[{"inst_name": "dut", "metric": "overall",
                                                    "target_percentage": 99}])
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "eval.jsonl").write_text(json.dumps(row) + "\n")
    (t,) = load_folder(tmp_path, split="eval")
    assert t.targets == [Target("dut", "overall", 99.0)] and t.spec_files == []


@pytest.mark.parametrize("bad, message", [
    ({"targets": [{"inst_name": "dut", "metric": "fsm", "target_percentage": 90}]}, "'fsm' has no ECov equivalent"),
    ({"targets": []}, "no targets"),
    ({"rtl_files": []}, "no RTL files"),
    ({"targets": [{"inst_name": "dut", "metric": "block", "target_percentage": 190}]}, "outside (0, 100]"),
    ({"rtl_files": [{"content": "module m; endmodule"}]}, "lacks its name"),
])
def test_bad_rows_fail_with_a_clear_error(bad, message):
    with pytest.raises(SourceError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        authors.from_row(_row(**bad))


def test_offline_hub_id_is_a_clear_error(monkeypatch):
    from ecov.harness.benchmark.store import BenchmarkNotFound

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(BenchmarkNotFound, match="hez2024/cvdp_ecov_eval"):
        load_benchmark(authors.HUB_ID)


def test_an_authors_task_calibrates_like_any_other():
    task = authors.from_row(_row())
    cal = calibrate_task(task, engine_scorer(), seed=1, random_cycles=2000)
    assert cal.problem == "" and cal.by == "random-stimulus"  # no reference testbench in their schema
    new, reason = apply_rule(task, cal)
    assert reason == ""
    ceiling = cal.ceiling
    for old, t in zip(task.targets, new.targets, strict=True):
        assert t.percent == min(old.percent, float(int(ceiling[f"{t.instance}:{t.metric}"] + 1e-9)))
    assert new.source["target_rule"].startswith("cvdp-ecov-authors")
