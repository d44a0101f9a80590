"""Calibration with real Verilator runs: reference ceilings, the target rules, the random-stimulus
fallback, tasks that cannot be calibrated, and `ecov-data validate --write-targets` on a built folder.
Few, small designs: each compile is cached by the engine, so reruns are quick."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ecov.harness.benchmark.builders import cvdp
from ecov.harness.benchmark.calibrate import (
    Calibration,
    Run,
    apply_rule,
    calibrate_task,
    engine_scorer,
    random_testbench,
    rule_percent,
    summary,
    table,
)
from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.cli.data import main
from ecov.harness.core.records import SourceFile, Target
from ecov.harness.tasks import Task
from ecov.harness.tracks.sv.floor_tb import floor_testbench

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
needs_shared = pytest.mark.skipif(not (SHARED / "cvdp-examples").is_dir(), reason="../shared/data is not present")


@pytest.fixture(scope="module")
def score():
    return engine_scorer()


def gf_task() -> Task:
    return cvdp.build(SHARED / "cvdp-examples", references=None).tasks[0]  # the upstream reference alone


def test_rule_percent_per_benchmark():
    t = Target("uut", "overall", 90.0)
    assert rule_percent("cvdp-ecov", t, 94.23, 90.0) == 90.0
    assert rule_percent("cvdp-ecov", t, 81.7, 90.0) == 81.0
    assert rule_percent("autoeval-ecov", t, 87.5, None) == 87.0
    assert rule_percent("autoeval-ecov", t, 100.0, None) == 100.0
    assert rule_percent("ecov-embedded", t, 99.0, None) == 90.0


def test_uncalibrated_reasons_are_listed():
    tgt = [Target("dut", "overall", 100.0)]
    failed = Calibration("a", "autoeval-ecov", tgt, [Run("ref.sv", "compile_error", {}, 0.0, False, ["x.sv:3: syntax"])])
    zero = Calibration("b", "autoeval-ecov", tgt, [Run("ref.sv", "ok", {"dut:overall": 0.0}, 0.0, False)])
    assert "ref.sv: compile_error (x.sv:3: syntax)" in failed.problem and "ceiling 0%" in zero.problem
    text = table([failed, zero])
    assert "cannot be calibrated:" in text and "  a: no calibration run finished" in text
    assert summary([failed, zero])["uncalibrated"] == 2


def test_random_testbench_drives_a_clocked_design(score):
    task = next(t for t in load_benchmark() if t.id == "updown_counter")
    tb = random_testbench(task, cycles=400)
    assert re.search(rf"\b{task.dut_module}\b[^;]*\b{task.dut_instance}\s*\(", tb)
    assert "rst_n" in tb and "$finish" in tb
    assert random_testbench(task, cycles=400) == tb  # deterministic
    res = score(task, tb, 1)
    assert res.status == "ok", res.errors
    assert res.metric_percent("dut", "line") > 50 and res.metric_percent("dut", "toggle") > 50


@needs_shared
def test_cvdp_rule_from_reference_ceiling(score):
    task = gf_task()
    cal = calibrate_task(task, score)
    assert [r.tb for r in cal.runs] == ["gf_multiplier_tb.sv"] and cal.runs[0].status == "ok"
    ceiling = cal.ceiling["uut:overall"]
    assert 0 < ceiling <= 100 and cal.by == "gf_multiplier_tb.sv" and cal.problem == ""
    new, why = apply_rule(task, cal)
    assert why == "" and new.targets[0].percent == min(90.0, math.floor(ceiling))
    assert new.source["upstream_target"] == "90" and new.source["ceiling"] == f"uut:overall={ceiling:.2f}"
    assert new.source["calibration"] == "verilator: gf_multiplier_tb.sv"
    res = score(new, new.reference_tbs[0].content, 1)
    assert res.meets(new.targets)  # the rule never asks for more than the reference reaches


@needs_shared
def test_failing_reference_falls_back_to_random_stimulus(score):
    task = gf_task()
    task = replace(task, reference_tbs=[SourceFile("broken_tb.sv", "module broken_tb; initial begin x = ; end\n")])
    cal = calibrate_task(task, score, random_cycles=300)
    assert [(r.tb, r.status) for r in cal.runs][0] == ("broken_tb.sv", "compile_error")
    assert cal.runs[1].tb == "random-stimulus" and cal.runs[1].status == "ok"
    assert cal.by == "random-stimulus" and cal.problem == "" and cal.ceiling["uut:overall"] > 0


def test_design_with_nothing_to_cover_is_left_out(score):
    # like VerilogEval's Prob001_zero: a constant output, nothing a testbench can toggle or branch
    rtl = "module const_out(output logic y);\n  assign y = 1'b0;\nendmodule\n"
    tb = "module tb;\n  wire y;\n  const_out dut(.y(y));\n  initial #10 $finish;\nendmodule\n"
    task = Task("const_out", "autoeval-ecov", [SourceFile("const_out.sv", rtl)], [], "const_out", "dut", "",
                [Target("dut", "overall", 100.0)], reference_tbs=[SourceFile("tb.sv", tb)])
    cal = calibrate_task(task, score)
    new, why = apply_rule(task, cal)
    assert cal.runs[0].status == "ok" and new is None and "ceiling 0%" in why


@needs_shared
def test_cli_validate_write_targets(tmp_path):
    out = tmp_path / "cvdp"
    runner = CliRunner()
    assert runner.invoke(main, ["build", "cvdp-ecov", "--source", str(SHARED / "cvdp-examples"),
                                "--out", str(out), "--format", "jsonl"]).exit_code == 0
    r = runner.invoke(main, ["validate", str(out), "--write-targets", "--json", str(tmp_path / "cal.json"), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "cvdp_copilot_gf_multiplier_0039" in r.output and "after the rule: 1/1" in r.output
    report = json.loads((tmp_path / "cal.json").read_text())
    ceiling = report["tasks"][0]["ceiling"]["uut:overall"]
    [task] = load_benchmark(out)
    assert task.targets[0].percent == min(90.0, math.floor(ceiling))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["calibration"]["met_after"] == 1 and manifest["calibration"]["left_out"] == []
    r = runner.invoke(main, ["validate", str(out), "--quiet"])  # engine cache: no new compile
    assert r.exit_code == 0 and "1/1 tasks' targets met" in r.output
    r = runner.invoke(main, ["validate", "ecov-embedded", "--write-targets"])
    assert r.exit_code == 2 and "needs a built folder" in r.output


COUNTER = ("module cnt(input logic clk, input logic rst, input logic up, output logic [3:0] q);\n"
           "  always @(posedge clk) if (rst) q <= 0; else if (up) q <= q + 4'd1; else q <= q + 4'd2;\n"
           "endmodule\n")
COUNTER_TB = ("module tb;\n  logic clk = 0, rst = 1, up = 0; wire [3:0] q;\n  cnt dut(.clk(clk), .rst(rst), .up(up), .q(q));\n"
              "  always #5 clk = ~clk;\n  initial begin #20 rst = 0; repeat (40) begin @(negedge clk) up = ~up; end\n"
              "    $finish; end\nendmodule\n")


def counter_task(percent: float) -> Task:
    return Task("cnt", "cvdp-ecov", [SourceFile("cnt.sv", COUNTER)], [], "cnt", "dut", "",
                [Target("dut", "overall", percent)], source={"upstream_target": str(percent)},
                reference_tbs=[SourceFile("tb.sv", COUNTER_TB)])


def test_floor_testbench_meeting_a_target(score):
    """Issue 32: a target that a testbench driving nothing meets is raised to the reference's floor(ceiling)
    when the floors stay below it, and the task is recorded as measuring nothing when they do not."""
    cal = calibrate_task(counter_task(50.0), score)
    assert [f.tb for f in cal.floors] == ["floor:empty", "floor:idle"] and all(f.status == "ok" for f in cal.floors)
    empty, idle = (f.values["dut:overall"] for f in cal.floors)
    ceiling = cal.ceiling["dut:overall"]
    assert empty < idle < ceiling  # the idle counter counts by two: `up` never toggles, one branch stays dark
    low = counter_task(math.floor(idle))  # a target the idle floor meets, below the reference's reach
    new, why = apply_rule(low, calibrate_task(low, score))
    assert why == "" and new.targets[0].percent == math.floor(ceiling) and "measures_nothing" not in new.source
    # a reference no better than the idle floor: nothing to raise the target to, so it measures nothing
    at_idle = replace(low, reference_tbs=[SourceFile("idle.sv", floor_testbench(low, "idle"))])
    cal = calibrate_task(at_idle, score)
    new, why = apply_rule(at_idle, cal)
    assert why == "" and new.source["measures_nothing"].startswith("a testbench that drives nothing meets")
    assert "MEETS THE TARGET" in table([cal]) and summary([cal])["floor_met"] == ["cnt"]

