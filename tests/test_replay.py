"""The trusted replay (issue 30): the figures come from a DUT-only model driven by run 1's recorded inputs.

Pure tests of the trace format first (no build); then real Verilator runs on the embedded
``updown_counter`` (one DUT-only build shared by every test): racy testbenches score the same
covered/uncovered points through the replay as through the direct path, and what a testbench does
beyond the DUT's input ports (a forged coverage file or end marker in the harness's folder, writes and
force on DUT internals, a parameter decoy, a flood past the trace cap, a malformed trace) gains nothing.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.core.records import CRASHED, INFRA_ERROR, OK, REJECTED, Design, SourceFile
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim import recorder
from ecov.harness.sim import trace as tr
from ecov.harness.sim.replay import ReplaySpec
from ecov.harness.tracks.sv.scorer import Engine

# --------------------------------------------------------------------------------------------------
# The trace format (pure)

HEADER = tr.Header(-12, (tr.Port("clk", 1), tr.Port("d", 70)), (tr.Param("W", 32, 8),))


def _trace() -> tr.Trace:
    return tr.Trace(HEADER, [tr.Record(tr.STEP, 0, (0, 5)), tr.Record(tr.SAMPLE, 5000, (1, (1 << 69) | 3)),
                             tr.Record(tr.FINAL, 9000, (1,))])


def test_trace_round_trips_and_knows_its_end():
    data = tr.encode(_trace())
    got = tr.decode(data)
    assert got.header == HEADER and got.records == _trace().records
    assert got.finished and got.end_time == 9000
    assert tr.decode_header(data)[0].design_bytes() == HEADER.design_bytes()


@pytest.mark.parametrize("cut", ["truncated", "trailing", "kind", "wide", "backwards", "no-final", "magic", "cap"])
def test_malformed_traces_are_refused(cut):
    data = tr.encode(_trace())
    head = len(tr.encode_header(HEADER))
    rec = 9 + 4 * HEADER.record_words
    bad = {
        "truncated": data[:-3],
        "trailing": data + b"\0",
        "kind": data[:head] + b"\x07" + data[head + 1:],
        "wide": data[:head + 9 + 4] + (1 << 31).to_bytes(4, "little") + data[head + 13:],  # bits above 70 set
        "backwards": tr.encode(tr.Trace(HEADER, [tr.Record(tr.STEP, 9, (0, 0)), tr.Record(tr.STEP, 8, (0, 0)),
                                                 tr.Record(tr.FINAL, 9, (0,))])),
        "no-final": data[:head + rec],
        "magic": b"X" + data[1:],
        "cap": data,
    }[cut]
    with pytest.raises(tr.TraceError):
        tr.decode(bad, cap=len(data) - 1 if cut == "cap" else None)


def test_recorder_plan_mirrors_only_edges_of_input_ports():
    task = TASKS["updown_counter"]
    edges = recorder.edges_of_triggers(["@(posedge clk)", "@(negedge rst_n)", "@(posedge u_x.clk_o)",
                                        "@([true] __VdlySched.awaitingCurrentTime())", "@( en)"],
                                       ("clk", "rst_n", "en"))
    assert edges == ("negedge rst_n", "posedge clk")
    plan = recorder.plan(task.design, edges)
    assert plan.inputs[:2] == ("clk", "rst_n") and plan.params == (("WIDTH", "integral"),)
    text = recorder.recorder_sv(plan, recorder.record_capacity(9))
    assert "always @(posedge clk)" in text and "always @( en)" not in text and "bind updown_counter" in text
    assert "input bit [287:0] v" in text and "always" not in recorder.recorder_sv(plan)  # the replay model's: header only
    with pytest.raises(recorder.ReplayUnsupported):
        recorder.plan(task.design, ("posedge nowhere",))


# --------------------------------------------------------------------------------------------------
# Real runs on updown_counter

TASKS = {t.id: t for t in load_suite()}
DESIGN = TASKS["updown_counter"].design

PORTS = """  logic clk = 0, rst_n = 0, en = 0, up = 0, load = 0, sat = 0;
  logic [7:0] load_val = 0;
  wire [7:0] count; wire at_max, at_min, wrapped, diag;
"""
# Inputs written with blocking assignments right after the clock edge (the race the recorder must capture).
RACY_BLOCKING = f"""module tb;
{PORTS}  updown_counter dut (.*);
  always #5 clk = ~clk;
  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1;
    repeat (400) begin
      @(posedge clk);
      en = $urandom; up = $urandom; sat = $urandom; load = ($urandom % 6) == 0; load_val = $urandom;
    end
    $finish;
  end
endmodule
"""
# The clock and the inputs change in the same time step, in both orders; an asynchronous reset at a clock
# edge; the clock starts high at time 0.
RACY_SAME_STEP = """module tb;
  logic clk = 1, rst_n = 0, en = 0, up = 0, load = 0, sat = 0;
  logic [7:0] load_val = 0;
  wire [7:0] count; wire at_max, at_min, wrapped, diag;
  updown_counter dut (.*);
  initial forever begin
    #5 en = $urandom; clk = 0;
    #5 clk = 1; up = $urandom; load = ($urandom % 5) == 0; load_val = $urandom;
  end
  initial begin
    #3 rst_n = 1;
    repeat (300) begin #10; sat = $urandom; end
    #2 rst_n = 0; #10 rst_n = 1;
    repeat (100) #10;
    $finish;
  end
endmodule
"""
# Non-blocking writes at both edges, and an input driven by an impure continuous assignment.
RACY_NBA = """module tb;
  logic clk = 0, rst_n = 0, en = 0, up = 0, load = 0, sat = 0;
  wire [7:0] load_val;
  wire [7:0] count; wire at_max, at_min, wrapped, diag;
  assign load_val = $urandom;
  updown_counter dut (.*);
  always #5 clk = ~clk;
  always @(negedge clk) begin en <= $urandom; up <= $urandom; end
  always @(posedge clk) begin load <= ($urandom % 4) == 0; sat <= $urandom; end
  initial begin #17 rst_n = 1; repeat (400) @(posedge clk); $finish; end
endmodule
"""
# Honest stimulus that reaches part of the design (at_max, diag and the key sequence stay uncovered).
HONEST_BODY = """  always #5 clk = ~clk;
  initial begin
    #12 rst_n = 1; en = 1; up = 1;
    repeat (20) @(negedge clk);
    up = 0;
    repeat (30) @(negedge clk);
    $finish;
  end
"""
HONEST = f"module tb;\n{PORTS}  updown_counter dut (.*);\n{HONEST_BODY}endmodule\n"
# The same stimulus, plus writes and force on the DUT's internals (refused by the rules, so scored here with
# the rules bypassed: the layer below them).
TAMPER = HONEST.replace("    $finish;\n", "    force dut.count = 8'hff;\n    dut.key_step = 2'd3;\n"
                        "    dut.diag = 1'b1;\n    #20 $finish;\n")


class NoRules(Engine):
    """The engine with the test rules switched off: what the replay alone must hold."""

    def _rules(self, base, design, testbench):
        return None, []


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    cfg = EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), use_cache=False, run_seconds=30,
                       max_uncovered=10**6)
    return Engine(cfg), Engine(cfg, direct=True), NoRules(cfg)


def _uncovered(res) -> set:
    return {(u.instance, u.metric, u.file, u.line, u.detail) for u in res.uncovered}


@pytest.mark.parametrize("tb", [RACY_BLOCKING, RACY_SAME_STEP, RACY_NBA], ids=["blocking", "same-step", "nba"])
def test_replay_matches_the_direct_path_on_racy_testbenches(engines, tb):
    replay, direct, _ = engines
    r, d = replay.score(DESIGN, tb), direct.score(DESIGN, tb)
    assert r.status == d.status == OK, (r.errors, d.errors)
    assert _uncovered(r) == _uncovered(d) and r.coverage == d.coverage and r.overall == d.overall
    assert 0 < r.overall < 100 and r.phases["replay"] > 0
    assert r.legal == d.legal and r.legal["bins_total"] > 0  # the task's contract monitor, in the replay


def test_forged_files_in_run_1s_folder_gain_nothing(engines):
    """Run 1 that reached the harness's folder (an escape) and wrote a full coverage.dat, point list and end
    marker: the figures come from the replay, so they are the honest ones."""
    replay, _, _ = engines
    honest = replay.score(DESIGN, HONEST)
    real_run = replay.backend.run

    def forging_run(job, seed, limits, outdir=None, nonce=""):
        ran = real_run(job, seed, limits, outdir, nonce)
        text = (outdir / "coverage.dat").read_text() if (outdir / "coverage.dat").exists() else ""
        (outdir / "coverage.dat").write_text(text.replace("' 0\n", "' 9\n"))
        (outdir / "end").write_text(f"ecov-end {nonce} finish=1 trace=ok\n")
        return ran

    replay.backend.run = forging_run
    try:
        forged = replay.score(DESIGN, HONEST.replace("$finish;", "$finish(0);"))
    finally:
        replay.backend.run = real_run
    assert honest.status == forged.status == OK and 0 < honest.overall < 100
    assert forged.coverage == honest.coverage and _uncovered(forged) == _uncovered(honest)


def test_writes_and_force_on_internals_gain_nothing(engines):
    replay, direct, norules = engines
    honest = replay.score(DESIGN, HONEST)
    assert replay.score(DESIGN, TAMPER).status == REJECTED  # the rules, as feedback
    tampered = norules.score(DESIGN, TAMPER)
    assert tampered.status == OK
    assert tampered.coverage == honest.coverage and _uncovered(tampered) == _uncovered(honest)
    # the same testbench counted in its own process (the former path, rules off) would have gained
    assert NoRules(direct.config, direct=True).score(DESIGN, TAMPER).overall > honest.overall


def test_a_parameter_decoy_gains_nothing(engines):
    """A decoy module holds the default instance the rules read; the real top overrides WIDTH."""
    replay, _, norules = engines
    decoy = ("module decoy;\n" + PORTS + "  updown_counter dut (.*);\nendmodule\n"
             + HONEST.replace("updown_counter dut", "updown_counter #(.WIDTH(4)) dut").replace("[7:0]", "[3:0]"))
    for engine in (replay, norules):
        res = engine.score(DESIGN, decoy)
        assert res.status == REJECTED and res.overall == 0.0 and res.coverage == {}, res.errors
        assert "parameter-override" in res.errors[0]
    res = norules.score(DESIGN, decoy)
    assert "WIDTH=4" in res.errors[0] and "WIDTH=8" in res.errors[0]


def test_a_recording_over_the_cap_is_an_error(engines):
    replay, _, _ = engines
    small = Engine(replace(replay.config, trace_mb=1))
    flood = RACY_BLOCKING.replace("repeat (400)", "repeat (20000)")
    res = small.score(DESIGN, flood)
    assert res.status == CRASHED and res.coverage == {} and "cap of 1 MB" in res.errors[0]


def test_a_malformed_or_truncated_trace_is_an_error_and_a_forged_one_is_just_stimulus(engines):
    replay, _, _ = engines
    rp = replay.replayer
    prep = rp.prepare(DESIGN, None)
    build = prep.candidates[0][1]
    assert build.header is not None and [p.name for p in build.header.ports][:2] == ["clk", "rst_n"]
    idle = {p.name: 0 for p in build.header.ports}

    def step(t, kind=tr.STEP, **kv):
        return tr.Record(kind, t, tuple({**idle, **kv}[p.name] for p in build.header.ports))

    recs = [step(0)] + [step(t * 5000, tr.SAMPLE if t % 2 else tr.STEP, clk=t % 2, rst_n=int(t > 2), en=1, up=1)
                        for t in range(1, 200)] + [tr.Record(tr.FINAL, 1_000_000, (1,))]
    forged = tr.encode(tr.Trace(build.header, recs))
    base = replace(replay._base(DESIGN, 1), status=OK)
    res = rp.score(replace(base), prep, forged, "ok", DESIGN, "tb.dut", 1)
    assert res.status == OK and 0 < res.overall < 100  # a well-formed forged trace is scored as the stimulus it is
    for bad in (forged[:-7], forged[: len(forged) // 2], forged + b"\0\0"):
        ran = rp.builder.run(build, bad, replay.config.run_limits())
        assert ran.ran.returncode == 3 and ran.malformed.startswith("ECov replay: malformed trace")
        res = rp.score(replace(base), prep, bad, "ok", DESIGN, "tb.dut", 1)
        assert res.status == REJECTED and "trace-integrity" in res.errors[0] and res.coverage == {}
    res = rp.score(replace(base), prep, b"ECOVTRC1garbage", "ok", DESIGN, "tb.dut", 1)
    assert res.status == REJECTED and "trace-integrity" in res.errors[0]
    # a trace whose ports are not this DUT's is refused by the replay main itself too
    other = tr.encode(tr.Trace(tr.Header(-12, (tr.Port("clk", 1),)), [tr.Record(tr.FINAL, 0, (0,))]))
    assert rp.builder.run(build, other, replay.config.run_limits()).ran.returncode == 3


def test_the_replay_build_is_shared_and_writes_the_outputs_on_request(engines):
    replay, _, _ = engines
    rp = replay.replayer
    build = rp.builder.build(ReplaySpec(DESIGN), replay.config.build_limits())
    assert build.cached and build.edges == ("negedge rst_n", "posedge clk")
    assert [p.name for p in build.outputs] == ["count", "at_max", "at_min", "wrapped", "diag"]
    header = build.header
    idle = [0] * len(header.ports)
    names = [p.name for p in header.ports]
    recs = [tr.Record(tr.STEP, 0, tuple(idle))]
    for t in range(1, 12):
        v = list(idle)
        v[names.index("clk")], v[names.index("rst_n")], v[names.index("en")], v[names.index("up")] = t % 2, 1, 1, 1
        recs.append(tr.Record(tr.SAMPLE if t % 2 else tr.STEP, t * 5000, tuple(v)))
    recs.append(tr.Record(tr.FINAL, 60000, (1,)))
    ran = rp.builder.run(build, tr.encode(tr.Trace(header, recs)), replay.config.run_limits(), outputs=True)
    assert ran.ran.returncode == 0 and ran.got.ended
    out = tr.decode(ran.outputs)
    counts = [r.values[0] for r in out.records if r.kind == tr.STEP]
    assert counts[-1] == 6 and out.finished  # six rising edges out of reset, counting up
    assert Path(build.folder, "sim").exists()


# --------------------------------------------------------------------------------------------------
# Edge cases: a port wider than 64 bits, a packed-struct port, two clocks on opposite edges, a clock
# generated inside the DUT, an asynchronous reset; and the ports the replay refuses.

EDGE_RTL = """package edge_pkg;
  typedef struct packed { logic [3:0] op; logic [11:0] arg; } cmd_t;
endpackage
module edge_dut import edge_pkg::*; (
    input  logic        clk_a, clk_b, rst_n,
    input  logic [69:0] wide,
    input  cmd_t        cmd,
    output logic [69:0] acc,
    output logic [7:0]  cnt_b, cnt_div
);
  logic div;
  always_ff @(posedge clk_a or negedge rst_n)
    if (!rst_n) begin acc <= '0; div <= 1'b0; end
    else begin
      div <= ~div;
      case (cmd.op)
        4'd1: acc <= acc ^ wide;
        4'd2: acc <= {acc[68:0], acc[69]} + {58'd0, cmd.arg};
        4'd3: if (wide[69] && wide[0]) acc <= '1;
        default: ;
      endcase
    end
  always_ff @(negedge clk_b or negedge rst_n)
    if (!rst_n) cnt_b <= '0;
    else if (cmd.op == 4'd4 && wide[64]) cnt_b <= cnt_b + 8'd1;
  always_ff @(posedge div or negedge rst_n)
    if (!rst_n) cnt_div <= '0;
    else if (cmd.arg[0]) cnt_div <= cnt_div + 8'd1;
endmodule
"""
EDGE_DESIGN = Design(files=(SourceFile("edge_dut.sv", EDGE_RTL),), top="edge_dut", instance="dut")
EDGE_TB = """module tb;
  import edge_pkg::*;
  logic clk_a = 0, clk_b = 1, rst_n = 0;
  logic [69:0] wide = 0;
  cmd_t cmd = '0;
  wire [69:0] acc; wire [7:0] cnt_b, cnt_div;
  edge_dut dut (.*);
  always #5 clk_a = ~clk_a;
  always #7 clk_b = ~clk_b;
  initial begin
    #12 rst_n = 1;
    repeat (300) begin
      @(posedge clk_a);
      wide = {$urandom, $urandom, $urandom}; cmd = cmd_t'($urandom);   // right after the edge
      @(negedge clk_b) cmd.op <= 4'($urandom % 5);
    end
    rst_n = 0; #3 rst_n = 1; #50 $finish;
  end
endmodule
"""


def test_wide_struct_ports_several_and_generated_clocks_replay_like_the_direct_path(engines):
    replay, direct, _ = engines
    build = replay.replayer.builder.build(ReplaySpec(EDGE_DESIGN), replay.config.build_limits())
    assert build.edges == ("negedge clk_b", "negedge rst_n", "posedge clk_a")  # not the DUT's generated `div`
    assert {p.name: p.width for p in build.header.ports}["wide"] == 70
    r, d = replay.score(EDGE_DESIGN, EDGE_TB), direct.score(EDGE_DESIGN, EDGE_TB)
    assert r.status == d.status == OK, (r.errors, d.errors)
    assert _uncovered(r) == _uncovered(d) and r.coverage == d.coverage and 0 < r.overall < 100


IFACE = "interface bus_if; logic a; modport mp(input a); endinterface\n"


@pytest.mark.parametrize("port, params, before", [
    ("inout wire io", "", ""), ("input logic [3:0] arr [2]", "", ""), ("ref logic r", "", ""),
    ("bus_if.mp b", "", IFACE), ("input logic a", '#(parameter string S = "x") ', ""),
    ("input logic a", "#(parameter type T = logic) ", ""),
], ids=["inout", "unpacked", "ref", "interface", "string-param", "type-param"])
def test_ports_the_replay_cannot_drive_are_refused_clearly(engines, port, params, before):
    """Refused before anything is built, whichever parser read the ports (pyslang refuses interface and ref
    ports; the forgiving regex reading would take them for inputs named after their type)."""
    replay, _, _ = engines
    rtl = (f"{before}module odd {params}(input logic clk, {port}, output logic q);\n"
           "  always_ff @(posedge clk) q <= ~q;\nendmodule\n")
    design = Design(files=(SourceFile("odd.sv", rtl),), top="odd", instance="dut")
    with pytest.raises(recorder.ReplayUnsupported):
        recorder.plan(design)
    res = replay.score(design, "module tb; logic clk = 0; wire q; odd dut (.*); initial #10 $finish; endmodule\n")
    assert res.status == INFRA_ERROR and "cannot be replayed" in res.errors[0], res.errors


# The same stimulus from SystemVerilog and from cocotb, every input change away from every clock edge (clk_a's
# edges at multiples of 5 ns, clk_b's at multiples of 7, the inputs at 12 + 35 k): the 70-bit port's upper
# word, the packed struct, both clocks, the generated clock and the asynchronous reset reach the DUT-only
# model through the cocotb track's recorder exactly as through the SV track's. Six steps leave a quarter of the
# points uncovered, so the comparison tells (flipping bit 69 of one step changes 23 points).
EDGE_SV_LCG = """module tb;
  import edge_pkg::*;
  logic clk_a = 0, clk_b = 1, rst_n = 0;
  logic [69:0] w = 0;
  cmd_t cmd = '0;
  wire [69:0] acc; wire [7:0] cnt_b, cnt_div;
  integer i;
  edge_dut dut (.wide(w), .*);
  always #5 clk_a = ~clk_a;
  always #7 clk_b = ~clk_b;
  initial begin
    #12 rst_n = 1;
    for (i = 0; i < 6; i++) begin
      w = w * 70'd6364136223846793005 + 70'd1442695040888963407;
      cmd = cmd_t'(w[15:0] ^ w[69:54]);
      #35;
    end
    rst_n = 0; #1 rst_n = 1; #50 $finish;
  end
endmodule
"""
EDGE_COCOTB_LCG = """import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Timer

MASK = (1 << 70) - 1


@cocotb.test()
async def lcg(dut):
    cocotb.start_soon(Clock(dut.clk_a, 10, unit="ns").start(start_high=False))
    cocotb.start_soon(Clock(dut.clk_b, 14, unit="ns").start(start_high=True))
    dut.rst_n.value = 0
    dut.wide.value = 0
    dut.cmd.value = 0
    await Timer(12, unit="ns")
    dut.rst_n.value = 1
    w = 0
    for _ in range(6):
        w = (w * 6364136223846793005 + 1442695040888963407) & MASK
        dut.wide.value = w
        dut.cmd.value = (w & 0xFFFF) ^ (w >> 54)
        await Timer(35, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    await Timer(50, unit="ns")
"""


def test_edge_cases_replay_the_same_from_cocotb(engines):
    from ecov.harness.sandbox.bwrap import bwrap_available
    from ecov.harness.tracks.cocotb.scorer import CocotbEngine

    if not bwrap_available():
        pytest.skip("the cocotb track needs bubblewrap")
    replay, _, _ = engines
    sv = replay.score(EDGE_DESIGN, EDGE_SV_LCG)
    co = CocotbEngine(replay.config).score(EDGE_DESIGN, EDGE_COCOTB_LCG)
    assert sv.status == co.status == OK, (sv.errors, co.errors, co.log_tail[-1500:])
    assert 0 < sv.overall < 100 and co.phases["replay"] > 0
    assert _uncovered(co) == _uncovered(sv) and co.coverage == sv.coverage and co.overall == sv.overall
