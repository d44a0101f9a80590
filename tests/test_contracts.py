"""Interface contracts (issue 22): the monitor bound into the DUT, its figures, and what a testbench may
not do to it. Real Verilator builds of the embedded suite's sync_fifo. The calibration of every shipped
contract (the reference passes legally, hits every kept bin, coverage unchanged) and a broken rule caught by
name are in tests/test_contracts_benchmarks.py, for all three benchmarks.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.contracts.bind import ns_of_ps
from ecov.harness.contracts.spec import ContractError, check, design_sha256, parse_meta, reference_clean
from ecov.harness.core.records import INFRA_ERROR, OK, REJECTED, Contract, ScoreResult
from ecov.harness.core.run_folder import RoundRecord
from ecov.harness.core.state import sample_from_rounds
from ecov.harness.evaluation.metrics import summarize
from ecov.harness.evaluation.report import format_summary
from ecov.harness.loop.feedback import render_eda_feedback, render_feedback
from ecov.harness.models import get_model
from ecov.harness.models.base import ModelRequest
from ecov.harness.models.legal_random import ConstraintError, legalize_block
from ecov.harness.parse import fenced_blocks
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.rules import check_testbench
from ecov.harness.tracks.sv.prompts import build_messages
from ecov.harness.tracks.sv.scorer import Engine

SUITE = {t.id: t for t in load_suite()}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), run_seconds=30))


def _fifo_with(rule_sv: str, rules: list[dict]) -> tuple:
    """sync_fifo with a test-only contract holding ``rule_sv`` (rules invented for the test's sake)."""
    task = SUITE["sync_fifo"]
    meta = {"task_id": "sync_fifo", "dut_module": "sync_fifo", "design_sha256": design_sha256(task.rtl_files),
            "rules": rules, "bins": [{"name": "full_seen", "spec": "full"}]}
    sv = ("module ecov_contract (input logic clk, input logic rst_n, input logic wr_en, input logic rd_en,\n"
          "  input logic full, input logic empty);\n"
          f"  always @(posedge clk) if (rst_n) begin\n    {rule_sv}\n    `ECOV_COVER(full_seen, full)\n  end\n"
          "endmodule\n")
    return replace(task.design, contract=Contract(sv=sv, meta=json.dumps(meta))), task


TB = """module tb;
  logic clk = 0, rst_n = 0, wr_en = 0, rd_en = 0, clr_err = 0; logic [7:0] wr_data = 0;
  logic [7:0] rd_data; logic full, empty, almost_full, almost_empty, overflow, underflow, diag; logic [5:0] count;
  sync_fifo u_fifo (.*);
  always #5 clk = ~clk;
  %s
  initial begin
    repeat (2) @(posedge clk); rst_n <= 1;
    repeat (4) begin @(posedge clk); wr_en <= 1; wr_data <= wr_data + 1; end
    @(posedge clk); wr_en <= 0; rd_en <= 1;   // the first pop (cycle 7)
    repeat (3) @(posedge clk);
    rd_en <= 0; repeat (40) begin @(posedge clk); wr_en <= 1; end   // fills it: more coverage after
    wr_en <= 0; rd_en <= 1; repeat (40) @(posedge clk);
    $finish;
  end
endmodule
"""


def test_violation_names_rule_time_ports_and_counts_only_what_came_before(engine):
    design, _ = _fifo_with("if (rd_en) `ECOV_VIOLATION(no_pop_ever)",
                           [{"name": "no_pop_ever", "spec": "test rule", "ports": ["rd_en"]}])
    r = engine.score(design, TB % "")
    assert r.status == OK, r.errors
    v = r.legal["violation"]
    assert v["rule"] == "no_pop_ever" and v["ports"] == ["rd_en"] and v["spec"] == "test rule"
    assert 60 <= v["time_ns"] <= 90  # the first posedge with rd_en=1
    assert r.legal["violations"]["no_pop_ever"] > 1  # every one counted, the run went on
    # paper-protocol figures are the whole run's; legal ones stop at the first violation
    assert r.legal["overall"] < r.overall
    assert "full_seen" in r.legal["bins_all"] and "full_seen" not in r.legal["bins"]
    plain = engine.score(replace(design, contract=None), TB % "")
    assert plain.coverage == r.coverage and plain.overall == r.overall  # the monitor adds no points
    targets = SUITE["sync_fifo"].targets
    assert r.meets_legal(targets) is False and plain.meets_legal(targets) is None


def test_legal_run_keeps_whole_run_figures(engine):
    design, _ = _fifo_with("if (wr_en && rd_en) `ECOV_VIOLATION(no_push_and_pop)",
                           [{"name": "no_push_and_pop", "spec": "test rule", "ports": ["wr_en", "rd_en"]}])
    r = engine.score(design, TB % "")
    assert r.status == OK and r.legal["violation"] is None and r.legal["violations"] == {}
    assert r.legal["overall"] == r.overall and r.legal["bins"] == ["full_seen"]


def test_testbench_macros_do_not_reach_the_monitor(engine):
    """A testbench that redefines the prelude's macros (to silence the monitor) changes nothing."""
    design, _ = _fifo_with("if (rd_en) `ECOV_VIOLATION(no_pop_ever)",
                           [{"name": "no_pop_ever", "spec": "test rule", "ports": ["rd_en"]}])
    tb = "`define ECOV_VIOLATION(n) \n`define ECOV_COVER(n, e) \n" + TB % ""
    r = engine.score(design, tb)
    assert r.status == OK and r.legal["violation"]["rule"] == "no_pop_ever"


STEP_TB = """`timescale %s
module tb;
  reg [3:0] data_in; wire [7:0] data_out;
  hamming_code_tx_for_4bit uut_transmitter (.data_in(data_in), .data_out(data_out));
  initial begin
    data_in = 0; #20005;
    for (int i = 0; i < 16; i++) begin data_in = i; #10; end
    $finish;
  end
endmodule
"""


def test_monitor_time_is_the_harness_ns_whatever_the_testbench_declares(engine):
    """hamming_0029's rule is a 10 ns hold and its RTL declares no timescale: a testbench in 1 ps units that
    steps #10 (10 ps) breaks it, at 20.025 ns (the monitor once ran in the testbench's unit there and read
    the steps as legal); the same steps in ns units are legal."""
    task = next(t for t in load_benchmark("cvdp-ecov") if t.id == "cvdp_copilot_hamming_code_tx_and_rx_0029")
    assert not any("timescale" in f.content for f in task.rtl_files)
    fast = engine.score(task.design, STEP_TB % "1ps/1ps")
    assert fast.status == OK, fast.errors
    assert fast.legal["violation"]["rule"] == "input_held_10_time_units"
    assert fast.legal["violation"]["time_ns"] == 20.025  # data_in = 1 at 20,015 ps, = 2 at 20,025 ps
    slow = engine.score(task.design, (STEP_TB % "1ns/1ps").replace("#20005", "#20"))
    assert slow.status == OK and slow.legal["violation"] is None, slow.legal


def test_violation_time_keeps_whole_ns_and_ps_digits():
    assert ns_of_ps(75_000) == 75 and isinstance(ns_of_ps(75_000), int)
    assert ns_of_ps(405) == 0.405 and ns_of_ps(20_015) == 20.015


def test_design_hash_mismatch_is_an_error(engine):
    design, task = _fifo_with("", [])
    meta = json.loads(design.contract.meta)
    meta["design_sha256"] = "0" * 64
    stale = replace(design, contract=Contract(sv=design.contract.sv, meta=json.dumps(meta)))
    with pytest.raises(ContractError, match="another design"):
        check(stale.contract, stale)
    r = engine.score(stale, task.reference_tbs[0].content)
    assert r.status == INFRA_ERROR and "another design" in r.errors[0]


@pytest.mark.parametrize("snippet", [
    "initial $display(u_fifo.ecov_contract_i.clk);",                    # see it
    "initial u_fifo.ecov_contract_i.rd_en = 0;",                         # write it
    "initial ecov_contract_violation(\"x\", 0);",                       # call its DPI function
    "ecov_contract ecov_contract_i (.clk(clk));",                        # instantiate one
])
def test_testbench_cannot_name_the_monitor(snippet):
    task = SUITE["sync_fifo"]
    found = check_testbench(TB % snippet, [task.dut_module], [f.name for f in task.rtl_files], "u_fifo",
                            design_sources=[(f.name, f.content) for f in task.rtl_files])
    assert any(v.rule == "harness-name" for v in found), found


@pytest.mark.parametrize("tb_extra, rule", [
    ("module ecov_contract; endmodule\n", "harness-name"),
    ("bind sync_fifo mon m (.*);\nmodule mon(input logic clk); endmodule\n", "bind"),
])
def test_testbench_cannot_redefine_or_bind(engine, tb_extra, rule):
    design, _ = _fifo_with("", [])
    r = engine.score(design, tb_extra + TB % "")
    assert r.status == REJECTED and any(rule in e for e in r.errors), r.errors


def test_meta_names_are_checked():
    with pytest.raises(ContractError):
        parse_meta(json.dumps({"task_id": "t", "dut_module": "m", "design_sha256": "x",
                               "rules": [{"name": "bad name"}]}))


def test_upstream_reference_recorded_illegal_must_stay_illegal():
    meta = parse_meta(json.dumps({"task_id": "t", "dut_module": "m", "design_sha256": "x", "bins": [{"name": "b"}],
                                  "illegal_references": [{"name": "up_tb.sv", "why": "new values every #5"}]}))
    assert meta.illegal_references == (("up_tb.sv", "new values every #5"),)
    broke = {"rule": "r"}
    assert reference_clean(meta, "up_tb.sv", True, True, broke, ["b"])
    assert not reference_clean(meta, "up_tb.sv", True, True, None, [])  # the record went stale
    assert not reference_clean(meta, "up_tb.sv", True, False, broke, [])  # the monitor changed coverage
    assert reference_clean(meta, "ecov_t.sv", True, True, None, [])
    assert not reference_clean(meta, "ecov_t.sv", True, True, broke, [])
    assert not reference_clean(meta, "ecov_t.sv", True, True, None, ["b"])


def _round(task: str, r: int, passed: bool, legal: bool | None, overall: float, legal_overall: float) -> RoundRecord:
    res = ScoreResult(status=OK, instance="u", coverage={"u": {"overall": {"percent": overall}}}, overall=overall)
    if legal is not None:
        res.legal = {"overall": legal_overall, "violation": None if legal else {"rule": "r"}}
    return RoundRecord(task_id=task, sample=0, round=r, prompt_hash="", response="", testbench="tb", parse_error="",
                       feedback="", result=res.to_dict(), passed=passed, legal_passed=legal)


def test_summary_legal_counts_only_contract_tasks_per_round():
    samples = [
        sample_from_rounds("a", 0, [_round("a", 0, True, False, 99, 10)]),                    # passes, illegal
        sample_from_rounds("b", 0, [_round("b", 0, False, False, 50, 5),
                                    _round("b", 1, True, True, 99, 99)]),                    # legal at round 1
        sample_from_rounds("c", 0, [_round("c", 0, True, None, 99, 0)]),                      # no contract
    ]
    s = summarize(samples, 2)
    lg = s["legal"]
    assert lg["tasks"] == 2 and lg["samples"] == 2 and lg["samples_passed"] == 1
    assert lg["pass_rate"] == 50.0 and lg["paper_pass_rate"] == 100.0 and lg["samples_violating"] == 1
    assert [r["pass_rate"] for r in lg["per_round"]] == [0.0, 50.0]
    assert s["per_task"]["b"]["legal_passed"] == 1 and "legal_passed" not in s["per_task"]["c"]
    assert "legal pass %" in format_summary({**s, "run": {}})


def test_ecov_feedback_names_the_rule_and_llm4cov_is_unchanged():
    res = ScoreResult(status=OK, instance="u", coverage={"u": {"overall": {"percent": 80.0, "covered": 8, "total": 10}}},
                      overall=80.0)
    plain_ecov, plain_eda = render_feedback(res, []), render_eda_feedback(res, [])
    res.legal = {"overall": 12.5, "violations": {"hold_a": 3},
                 "violation": {"rule": "hold_a", "time_ns": 55, "ports": ["a", "busy"], "spec": "hold a while busy"}}
    text = render_feedback(res, [])
    assert "'hold_a'" in text and "ports a, busy" in text and "55 ns" in text and "12.50%" in text
    assert "hold a while busy" in text and text.startswith(plain_ecov.split("\n")[0])
    assert render_eda_feedback(res, []) == plain_eda  # the paper protocol's o_t never mentions contracts


def test_ecov_prompt_states_interface_rules_llm4cov_prompt_does_not():
    task = SUITE["uart"]
    bare = replace(task, contract=None)
    ecov_with, ecov_without = build_messages(task, protocol="ecov"), build_messages(bare, protocol="ecov")
    assert "## Interface rules" in ecov_with[-1]["content"] and "## Interface rules" not in ecov_without[-1]["content"]
    assert build_messages(task, protocol="llm4cov") == build_messages(bare, protocol="llm4cov")
    assert "ECOV_" not in ecov_with[-1]["content"] and "ecov_contract" not in ecov_with[-1]["content"]


@pytest.mark.parametrize("task_id", ["dm_cache", "i2c_target", "uart"])
def test_legal_random_obeys_the_rules_random_breaks(engine, task_id):
    """builtin/random breaks the task's rules; builtin/legal-random (its stimulus plus the contract's
    constraints) runs the same plan without breaking any."""
    task = SUITE[task_id]
    got = {}
    for name in ("builtin/random", "builtin/legal-random"):
        text = get_model(name).complete(ModelRequest(messages=[], task=task)).text
        got[name] = engine.score(task.design, fenced_blocks(text)[0].content)
        assert got[name].status == OK, got[name].errors
    assert got["builtin/random"].legal["violation"] is not None
    assert got["builtin/legal-random"].legal["violation"] is None
    assert got["builtin/legal-random"].legal["overall"] > got["builtin/random"].legal["overall"]


def test_legal_random_without_contract_is_random():
    task = replace(SUITE["uart"], contract=None)
    req = ModelRequest(messages=[], task=task)
    assert get_model("builtin/legal-random").complete(req).text == get_model("builtin/random").complete(req).text


def test_legal_random_refuses_constraints_on_unknown_ports():
    with pytest.raises(ConstraintError, match="not an input"):
        legalize_block([{"kind": "zero", "port": "nope"}], {"a": 1}, set())
    with pytest.raises(ConstraintError, match="condition"):
        legalize_block([{"kind": "hold", "ports": ["a"], "while": "a && b"}], {"a": 1}, {"b"})
    with pytest.raises(ConstraintError, match="condition"):
        legalize_block([{"kind": "pulse_when", "port": "a", "when": "!b == 1"}], {"a": 1}, {"b"})
    block = "\n".join(legalize_block([{"kind": "pulse_when", "port": "a", "when": "b == 0"},
                                      {"kind": "hold", "ports": ["a"], "while": "b != 2"}], {"a": 1}, {"b"}))
    assert "if (!(b == 0)) a = '0;" in block and "if (b != 2) a = ecov_legal_prev_a;" in block
    strobe = "\n".join(legalize_block([{"kind": "max_high", "port": "a", "cycles": 1}], {"a": 1}, set()))
    assert "if (a && ecov_legal_prev_a && ecov_legal_age_a >= 1) a = '0;" in strobe
