"""builtin/random: port parsing, roles, planning from feedback, and real Verilator scores of its testbenches."""

from __future__ import annotations

import re

import pytest

from ecov.harness.core.records import (
    INFRA_ERROR,
    OK,
    TIMEOUT,
    ScoreResult,
    SourceFile,
    Target,
    UncoveredPoint,
)
from ecov.harness.hdl.ports import _parse_pyslang, _parse_regex, classify, parse_ports
from ecov.harness.models import ModelRequest, get_model
from ecov.harness.parse import parse_llm4cov, parse_response
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tasks import Task
from ecov.harness.tracks.random_plan import Plan, constants_in, hot_values
from ecov.harness.tracks.sv.scorer import Engine

# Sequential, active-low async reset, parameterized width; `match` needs din == 24'habcdef, which uniform
# random stimulus essentially never produces.
SEQ = """
module acc #(parameter int W = 24, parameter int STEP = 3) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         en,
  input  logic [1:0]   op,
  input  logic [W-1:0] din,
  output logic [W-1:0] q,
  output logic         match,
  output logic         zero
);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      q <= '0;
      match <= 1'b0;
    end else if (en) begin
      case (op)
        2'd0: q <= q + W'(STEP);
        2'd1: q <= q - din;
        2'd2: q <= q ^ din;
        default: q <= din;
      endcase
      if (din == 24'habcdef) match <= 1'b1;
    end
  end
  assign zero = (q == '0);
endmodule
"""

# Purely combinational.
COMB = """
module mux_alu (
  input  logic [3:0] a,
  input  logic [3:0] b,
  input  logic [1:0] sel,
  input  logic       inv,
  output logic [4:0] y
);
  always_comb begin
    case (sel)
      2'b00: y = a + b;
      2'b01: y = {1'b0, a & b};
      2'b10: y = {1'b0, a | b};
      default: y = (a > b) ? 5'd1 : 5'd0;
    endcase
    if (inv) y = ~y;
  end
endmodule
"""

# Verilog-2001 non-ANSI ports, active-high reset used with posedge, a signed input, an unpacked array
# input, an inout and a second clock: the testbench must still compile.
ODD = """
module odd_ports (sys_clk, pclk, rst, sa, tbl, io, flag, cnt);
  parameter N = 3;
  input sys_clk;
  input pclk;
  input rst;
  input signed [2*N-1:0] sa;
  input [7:0] tbl [0:N];
  inout [1:0] io;
  output reg flag;
  output reg [N:0] cnt;
  always @(posedge sys_clk or posedge rst)
    if (rst) flag <= 1'b0;
    else flag <= (sa < 0) ^ tbl[1][0];
  always @(posedge pclk)
    if (rst) cnt <= 0;
    else cnt <= cnt + 1'b1;
  assign io = flag ? 2'b10 : 2'bzz;
endmodule
"""


# A header with a width macro, a package with an enum and a packed struct, a 2-D packed port, a 128-bit
# port, an unpacked output array, an asynchronous clear, and port names the testbench uses internally.
PKG_VH = "`define DW 16\n"
PKG = """
package st_pkg;
  typedef enum logic [1:0] {IDLE, RUN, STOP} mode_t;
  typedef struct packed { logic [3:0] tag; logic v; } hdr_t;
endpackage
"""
PKG_DUT = """
`include "defs.vh"
module pkg_dut import st_pkg::*; #(parameter int LANES = 4) (
  input  logic                  ck,
  input  logic                  aclr,
  input  mode_t                 mode,
  input  hdr_t                  hdr,
  input  logic [LANES-1:0][7:0] lanes,
  input  logic [127:0]          wide,
  input  logic [`DW-1:0]        word,
  input  logic                  fresh,
  input  logic [2:0]            k,
  output logic [7:0]            dout [4],
  output mode_t                 mode_q,
  output logic [`DW-1:0]        acc
);
  always_ff @(posedge ck or posedge aclr) begin
    if (aclr) begin acc <= '0; mode_q <= IDLE; end
    else begin
      mode_q <= mode;
      if (mode == RUN && hdr.v && fresh) acc <= acc + word + wide[15:0] + 16'(k);
      else if (mode == STOP) acc <= '0;
    end
  end
  always_comb for (int i = 0; i < 4; i++) dout[i] = lanes[i] ^ {4'h0, hdr.tag};
endmodule
"""


def make_task(name: str, module: str, rtl: str, extra: list[SourceFile] | None = None) -> Task:
    files = [*(extra or []), SourceFile(f"{module}.sv", rtl)]
    return Task(id=f"unit/{name}", benchmark="unit", rtl_files=files, spec_files=[],
                dut_module=module, dut_instance="uut", instructions="", targets=[Target("uut", "overall", 90.0)])


SEQ_TASK = make_task("acc", "acc", SEQ)
COMB_TASK = make_task("mux_alu", "mux_alu", COMB)
ODD_TASK = make_task("odd", "odd_ports", ODD)
PKG_TASK = make_task("pkg", "pkg_dut", PKG_DUT, [SourceFile("defs.vh", PKG_VH), SourceFile("st_pkg.sv", PKG)])


def answer(task: Task, **kw) -> str:
    return get_model("builtin/random").complete(ModelRequest(messages=[], task=task, **kw)).text


def make_tb(task: Task, **kw) -> str:
    parsed = parse_response(answer(task, **kw))
    assert parsed.ok, parsed.error
    return parsed.testbench


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    return Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), run_seconds=30))


# ---- ports and roles (no simulator) ----------------------------------------------------------------


def test_ports_pyslang_and_regex_agree():
    for task in (SEQ_TASK, COMB_TASK, ODD_TASK):
        a = _parse_pyslang(task.rtl_files, task.dut_module)
        b = _parse_regex(task.rtl_files, task.dut_module)
        assert [(p.name, p.direction, p.width, p.unpacked) for p in a.ports] == \
               [(p.name, p.direction, p.width, p.unpacked) for p in b.ports]
    ports = {p.name: p for p in parse_ports(ODD_TASK.rtl_files, "odd_ports").ports}
    assert ports["sa"].width == 6 and ports["sa"].signed
    assert ports["tbl"].width == 8 and ports["tbl"].unpacked == ((0, 3),)
    assert ports["io"].direction == "inout"


def test_roles_from_names_and_usage():
    seq = classify(parse_ports(SEQ_TASK.rtl_files, "acc"), SEQ)
    assert seq.clocks == ["clk"] and seq.resets == {"rst_n": True}
    assert [p.name for p in seq.data] == ["en", "op", "din"]
    odd = classify(parse_ports(ODD_TASK.rtl_files, "odd_ports"), ODD)
    assert odd.clocks == ["sys_clk", "pclk"] and odd.resets == {"rst": False}
    comb = classify(parse_ports(COMB_TASK.rtl_files, "mux_alu"), COMB)
    assert comb.clocks == [] and comb.resets == {}
    pkg = classify(parse_ports(PKG_TASK.rtl_files, "pkg_dut"), PKG_DUT)
    assert pkg.clocks == ["ck"] and pkg.resets == {"aclr": False}


def test_ports_through_includes_macros_and_packages():
    ports = {p.name: p for p in parse_ports(PKG_TASK.rtl_files, "pkg_dut").ports}
    assert ports["word"].width == 16 and ports["acc"].width == 16  # `DW from the included header
    assert ports["mode"].type_name == "st_pkg::mode_t" and ports["mode"].width == 2
    assert ports["hdr"].width == 5 and ports["lanes"].width == 32 and ports["wide"].width == 128
    assert ports["dout"].unpacked == ((0, 3),)
    regex = {p.name: p for p in _parse_regex(PKG_TASK.rtl_files, "pkg_dut").ports}
    assert regex["word"].width == 16 and regex["lanes"].width == 32 and regex["dout"].unpacked == ((0, 3),)


def test_unknown_module_is_a_clear_error():
    from ecov.harness.models import ModelError

    bad = make_task("missing", "not_here", SEQ)
    with pytest.raises(ModelError, match="cannot read the ports of not_here"):
        answer(bad)


# ---- text properties (no simulator) ----------------------------------------------------------------


def test_answer_is_formatted_like_an_llm_and_connects_every_port():
    text = answer(SEQ_TASK)
    assert text.startswith("filename: tb_acc.sv\n```systemverilog\n") and text.rstrip().endswith("```")
    assert parse_llm4cov(text).ok and parse_response(text, dut_module="acc").ok  # both protocols read it
    tb = make_tb(SEQ_TASK)
    assert re.search(r"^module tb;", tb, re.M) and "$finish" in tb
    assert re.search(r"\bacc uut \(", tb)
    for port in ("clk", "rst_n", "en", "op", "din", "q", "match", "zero"):
        assert f".{port}({port})" in tb
    assert "logic [23:0] din;" in tb  # width of the default parameter value
    assert "rst_n = ~ecov_active;" in tb  # active-low reset


def test_deterministic_per_request():
    assert answer(SEQ_TASK) == answer(SEQ_TASK)
    assert answer(SEQ_TASK, sample=1) != answer(SEQ_TASK)
    assert answer(SEQ_TASK, seed=2) != answer(SEQ_TASK)


def test_constants_from_uncovered_text():
    assert constants_in("if (din == 24'habcdef) match <= 1'b1;") == [0xABCDEF, 1]
    assert constants_in("else if (count >= 200) x <= 4'b1x10;") == [0b1010, 200]
    assert constants_in("y = a + b;") == []


def seq_result_missing_match() -> ScoreResult:
    return ScoreResult(status=OK, instance="uut", overall=80.0, uncovered=[
        UncoveredPoint("uut", "line", "acc.sv", 22, "if", "if (din == 24'habcdef) match <= 1'b1;"),
        UncoveredPoint("uut", "line", "acc.sv", 15, "if", "q <= '0;  // rst_n branch"),
    ])


def test_hot_values_go_to_the_named_input():
    data = classify(parse_ports(SEQ_TASK.rtl_files, "acc"), SEQ).data
    hot = hot_values(seq_result_missing_match(), data)
    assert 0xABCDEF in hot["din"] and 0xABCDEE in hot["din"] and 0xABCDF0 in hot["din"]
    assert 1 not in hot["din"]  # `1'b1` is a corner value already
    assert all(v < 4 for v in hot.get("op", []))  # only values that fit a 2-bit input


def test_agentic_round_uses_feedback():
    first = make_tb(SEQ_TASK)
    second = make_tb(SEQ_TASK, round=1, testbench=first, result=seq_result_missing_match())
    assert second != first
    plan0, plan1 = Plan.from_testbench(first), Plan.from_testbench(second)
    # Round 1 replays round 0's segment, then runs a twice longer one steered by the feedback.
    assert plan1.segments[0] == plan0.segments[0]
    assert [s.cycles for s in plan1.segments] == [4000, 8000]
    assert "ecov_run(4000);" in second and "ecov_run(8000);" in second
    assert "din = 24'habcdef;" in second and "24'habcdef" not in first
    assert plan1.segments[1].reset_one_in == 40  # reset logic was uncovered: more resets
    assert "ecov_reset_one_in = 40;" in second
    timed_out = make_tb(SEQ_TASK, round=2, testbench=second, result=ScoreResult(status=TIMEOUT))
    assert [s.cycles for s in Plan.from_testbench(timed_out).segments] == [3000]
    # A testbench that is not ours (another agent's) just starts a fresh plan.
    other = make_tb(SEQ_TASK, round=1, testbench="module tb; endmodule", result=seq_result_missing_match())
    assert len(Plan.from_testbench(other).segments) == 1


# ---- real Verilator runs -------------------------------------------------------------------------


def percents(res: ScoreResult) -> dict[str, float]:
    return {m: f["percent"] for m, f in res.coverage.get("uut", {}).items()}


@pytest.fixture(scope="module")
def direct_engine(tmp_path_factory) -> Engine:
    """The direct path (a diagnostic, never a score): runs designs the trusted replay cannot drive."""
    return Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), run_seconds=30), direct=True)


# ODD_TASK has an inout and an unpacked-array input, PKG_TASK an unpacked-array output: the trusted replay
# drives plain ports only (docs/scoring.md), so the random testbench's build and run are checked directly.
@pytest.mark.parametrize("task", [SEQ_TASK, COMB_TASK, ODD_TASK, PKG_TASK], ids=lambda t: t.id)
def test_random_testbench_compiles_runs_and_covers(engine, direct_engine, task):
    replayable = task not in (ODD_TASK, PKG_TASK)
    res = (engine if replayable else direct_engine).score(task.design, make_tb(task))
    assert res.status == OK, (res.errors, res.log_tail)
    assert res.overall > 0
    assert percents(res)["line"] > 0


def test_a_design_the_replay_cannot_drive_is_an_infra_error_naming_its_ports(engine):
    res = engine.score(PKG_TASK.design, make_tb(PKG_TASK))
    assert res.status == INFRA_ERROR and "cannot be replayed" in res.errors[0] and "unpacked array" in res.errors[0]


def test_feedback_round_reaches_the_hidden_constant(engine):
    tb0 = make_tb(SEQ_TASK)
    res0 = engine.score(SEQ_TASK.design, tb0)
    assert res0.status == OK
    match_line = next(i for i, text in enumerate(SEQ.splitlines(), 1) if "24'habcdef" in text)
    assert any(u.line == match_line and u.metric in ("line", "branch") for u in res0.uncovered), \
        "round 0 unexpectedly hit din == 24'habcdef"
    tb1 = make_tb(SEQ_TASK, round=1, testbench=tb0, result=res0)
    res1 = engine.score(SEQ_TASK.design, tb1)
    assert res1.status == OK
    assert not any(u.line == match_line and u.metric in ("line", "branch") for u in res1.uncovered)
    assert res1.overall > res0.overall
    # Round 1 replays round 0's stimulus first, so no metric of any instance drops.
    for inst, metrics in res0.coverage.items():
        for metric, fig in metrics.items():
            assert res1.coverage[inst][metric]["covered"] >= fig["covered"], (inst, metric)
