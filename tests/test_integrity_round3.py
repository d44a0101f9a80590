"""Score integrity, round 3 (issue 20): each attack class in several spellings, and the honest constructs
that must score.

Classes: testbench text reaching the C++ compiler outside Verilator's escaping; writes to signals a DUT
output drives (back-driving the design's registers under --flatten); parameter overrides that change
the design under test; handles to interface instances inside the design; the private channel of the
harness main (never in an environment, nothing readable in /proc); cocotb capabilities (ctypes, guard
state, attribute access by other spellings); cache keys that ignore the sandbox. Rule attacks are
refused before anything is built (cheap); the rest run real Verilator builds in every sandbox this
machine has.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.core.records import OK, REJECTED, Design, SourceFile
from ecov.harness.sandbox.base import Limits
from ecov.harness.sandbox.bwrap import bwrap_available
from ecov.harness.sandbox.factory import make_sandbox
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim import integrity
from ecov.harness.sim.gencheck import check_line
from ecov.harness.sim.rules import check_design
from ecov.harness.tracks.sv.scorer import Engine

TASKS = {t.id: t for t in load_suite()}
COUNTER = """module counter(input clk, input rst, input en, output reg [3:0] q);
  always @(posedge clk) begin
    if (rst) q <= 0;
    else if (en) q <= q + 1;
  end
endmodule
"""
DESIGN = Design(files=(SourceFile("counter.sv", COUNTER),), top="counter", instance="uut")
HEAD = """module tb;
  reg clk = 0, rst = 1, en = 0; wire [3:0] q;
  counter uut(.clk(clk), .rst(rst), .en(en), .q(q));
  always #5 clk = ~clk;
"""
STIM = "  initial begin #12 rst = 0; en = 1; #40 $finish; end\n"
HONEST = HEAD + STIM + "endmodule\n"


def tb(extra: str, head: str = HEAD) -> str:
    return head + extra + "\n" + STIM + "endmodule\n"


VAR_HEAD = HEAD.replace("wire [3:0] q;", "logic [3:0] q;")
IFACE = """interface bus_if; logic boost; modport mp(input boost); endinterface
module counter(input clk, input rst, input en, output reg [3:0] q);
  bus_if b();
  always @(posedge clk) begin
    if (rst) q <= 0;
    else if (en || b.boost) q <= q + 1;
  end
endmodule
"""
IFACE_DESIGN = Design(files=(SourceFile("counter.sv", IFACE),), top="counter", instance="uut")

# (name, design, testbench, rule that must be reported)
ATTACKS = [
    # 2. back-driving the DUT through its output ports: every kind of write, and drivers by connection.
    ("out-blocking", DESIGN, tb("initial #20 q = 4'hF;", VAR_HEAD), "dut-output-write"),
    ("out-nba", DESIGN, tb("always @(posedge clk) q <= 4'hF;", VAR_HEAD), "dut-output-write"),
    ("out-assign", DESIGN, tb("assign q = 4'hF;"), "dut-output-write"),
    ("out-proc-assign", DESIGN, tb("initial begin assign q = 4'hF; #5 deassign q; end", VAR_HEAD),
     "dut-output-write"),
    ("out-incr", DESIGN, tb("initial #20 q++;", VAR_HEAD), "dut-output-write"),
    ("out-compound", DESIGN, tb("initial #20 q |= 4'h8;", VAR_HEAD), "dut-output-write"),
    ("out-bit", DESIGN, tb("initial #20 q[3] = 1;", VAR_HEAD), "dut-output-write"),
    ("out-concat", DESIGN, tb("reg a; initial #20 {a, q} = 0;", VAR_HEAD), "dut-output-write"),
    ("out-task-output", DESIGN, tb("task automatic t(output logic [3:0] o); o = 15; endtask\ninitial t(q);",
                                   VAR_HEAD), "dut-output-write"),
    ("out-task-ref", DESIGN, tb("task automatic t(ref logic [3:0] o); o = 15; endtask\ninitial t(q);",
                                VAR_HEAD), "dut-output-write"),
    ("out-sscanf", DESIGN, tb('initial $sscanf("15", "%d", q);', VAR_HEAD), "dut-output-write"),
    ("out-net-init", DESIGN, HONEST.replace("wire [3:0] q;", "wire [3:0] q = 4'hF;"), "dut-output-write"),
    ("out-gate", DESIGN, tb("buf b0(q[0], clk);"), "dut-output-write"),
    ("out-pullup", DESIGN, tb("pullup p0(q[1]);"), "dut-output-write"),
    ("out-clocking", DESIGN, tb("clocking cb @(posedge clk); output q; endclocking", VAR_HEAD),
     "dut-output-write"),
    ("out-second-driver", DESIGN, tb("counter other(.clk(clk), .rst(rst), .en(1'b1), .q(q));"),
     "dut-output-write"),
    ("out-driver-module", DESIGN, "module drv(output [3:0] o); assign o = 4'hF; endmodule\n"
     + tb("drv d(.o(q));"), "dut-output-write"),
    ("out-wildcard", DESIGN, HONEST.replace("counter uut(.clk(clk), .rst(rst), .en(en), .q(q));",
                                            "counter uut(.*);").replace("wire [3:0] q;", "logic [3:0] q;")
     .replace("endmodule", "initial #20 q = 4'hF;\nendmodule"), "dut-output-write"),
    ("out-implicit", DESIGN, HONEST.replace(".q(q)", ".q").replace("wire [3:0] q;", "logic [3:0] q;")
     .replace("endmodule", "initial #20 q = 4'hF;\nendmodule"), "dut-output-write"),
    ("out-through-wrapper", DESIGN, "module wrap(input clk, rst, en, output [3:0] q); counter c(.*); endmodule\n"
     + HONEST.replace("counter uut(", "wrap w(").replace("wire [3:0] q;", "logic [3:0] q;")
     .replace("endmodule", "initial #20 q = 4'hF;\nendmodule"), "dut-output-write"),
    ("out-hier-port", DESIGN, "module drv(output [3:0] o); assign o = 4'hF; endmodule\n" + tb("drv d(.o(uut.q));"),
     "hierarchical-port"),
    # 1. testbench text that Verilator copies into C++ unescaped.
    ("event-string-param", DESIGN, tb('localparam string S = "x\\"); int y = (1"; initial @(S) $display(1);'),
     "event-string"),
    ("event-string-untyped", DESIGN, tb('localparam P = "abc"; initial @(P) $display(1);'), "event-string"),
    ("event-string-literal", DESIGN, tb('initial @("x") $display(1);'), "event-string"),
    ("event-string-macro", DESIGN, tb('`define E "x"\ninitial @(`E) $display(1);'), "event-string"),
    ("event-string-wait", DESIGN, tb('string s = "a"; initial wait (s == "b") $display(1);'), "event-string"),
    ("event-string-iff", DESIGN, tb('string s; initial @(posedge clk iff s == "b") $display(1);'),
     "event-string"),
    ("escaped-quote", DESIGN, tb('wire \\a"b ; initial @(\\a"b ) $display(1);'), "escaped-name"),
    ("escaped-backslash", DESIGN, tb("wire \\a\\b ; initial @(\\a\\b ) $display(1);"), "escaped-name"),
    ("escaped-comment", DESIGN, tb("wire \\a*/b ; initial @(\\a*/b ) $display(1);"), "escaped-name"),
    ("escaped-comment-open", DESIGN, tb("wire \\a/*b ; initial @(\\a/*b ) $display(1);"), "escaped-name"),
    # 4. handles to an interface instance inside the design.
    ("iface-function-arg", IFACE_DESIGN, tb(
        "class H; virtual bus_if v; function new(virtual bus_if x); v = x; endfunction endclass\n"
        "H h; initial begin h = new(uut.b); h.v.boost = 1; end"), "interface-handle"),
    ("iface-member", IFACE_DESIGN, tb("class H; virtual bus_if v; endclass\nH h; initial begin h = new; "
                                      "h.v = uut.b; h.v.boost = 1; end"), "interface-handle"),
    ("iface-task-input", IFACE_DESIGN, tb("task automatic t(virtual bus_if x); x.boost = 1; endtask\n"
                                          "initial t(tb.uut.b);"), "interface-handle"),
    ("iface-modport", IFACE_DESIGN, tb("virtual bus_if.mp v; initial v = uut.b.mp;"), "interface-handle"),
    ("iface-root", IFACE_DESIGN, tb("virtual bus_if v; initial begin v = $root.tb.uut.b; v.boost = 1; end"),
     "interface-handle"),
]


@pytest.mark.parametrize("name, design, testbench, rule", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_attack_is_refused_with_rule_and_line(name, design, testbench, rule):
    found = check_design(design, testbench)
    assert rule in {v.rule for v in found}, (name, found)
    v = next(v for v in found if v.rule == rule)
    assert v.line > 1 and f"rule '{rule}' (testbench line {v.line})" in str(v)


def _updown(inst: str) -> str:
    ref = TASKS["updown_counter"].reference_tbs[0].content
    return ref.replace("updown_counter #(.WIDTH(8)) dut (.*);", inst)


@pytest.mark.parametrize("inst, changed", [
    ("updown_counter #(.WIDTH(3)) dut (.*);", "WIDTH=3"),
    ("updown_counter #(3) dut (.*);", "WIDTH=3"),
    ("updown_counter #(.WIDTH(2 * 2)) dut (.*);", "WIDTH=4"),
    ("localparam int W = 5;\n  updown_counter #(W) dut (.*);", "WIDTH=5"),
])
def test_parameter_override_that_changes_the_design_is_refused(inst, changed):
    found = check_design(TASKS["updown_counter"].design, _updown(inst))
    assert [v.rule for v in found] == ["parameter-override"], found
    assert changed in found[0].message and "(the task's design: 8)" in found[0].message


def test_parameter_override_of_a_mode_is_refused():
    ref = TASKS["rr_arbiter"].reference_tbs[0].content
    easy = ref.replace("rr_arbiter u_arb (.*);", "rr_arbiter #(.STARVE_LIMIT(1)) u_arb (.*);")
    assert [v.rule for v in check_design(TASKS["rr_arbiter"].design, easy)] == ["parameter-override"]
    same = ref.replace("rr_arbiter u_arb (.*);", "rr_arbiter #(.N(4), .STARVE_LIMIT(12)) u_arb (.*);")
    assert check_design(TASKS["rr_arbiter"].design, same) == []


HONEST_CONSTRUCTS = [
    # A monitor module whose input port reads a DUT output and an internal signal: reads are free.
    ("monitor-input-port", "module mon(input [3:0] a, input b); always @(a) if (b) $display(a); endmodule\n"
     + tb("mon m(.a(uut.q), .b(q[0]));")),
    ("read-output", tb("always @(posedge clk) if (q == 4'hF) $display(\"wrap\");")),
    ("event-on-signals", tb("event e; initial begin @(posedge clk iff q == 4'h3); -> e; end\ninitial @(e) "
                            "$display(\"e\");\nlocalparam int P = 3; initial wait (q == P) $display(\"p\");")),
    ("string-elsewhere", tb('string s = "a\\"b"; initial begin $display("%s", s); @(posedge clk); end')),
    ("escaped-plain", tb("reg \\my-reg ; initial \\my-reg = 1;")),
    ("bom", "\ufeff" + HONEST),
]


@pytest.mark.parametrize("name, testbench", HONEST_CONSTRUCTS, ids=[h[0] for h in HONEST_CONSTRUCTS])
def test_honest_construct_passes_the_rules(name, testbench):
    assert check_design(DESIGN, testbench.removeprefix("\ufeff")) == []


def test_overrides_equal_to_the_tasks_values_pass():
    """Every shipped reference that spells #() keeps its parameters at the design's values."""
    for tid in ("sync_fifo", "updown_counter", "pwm_dimmer"):
        assert check_design(TASKS[tid].design, TASKS[tid].reference_tbs[0].content) == [], tid
    two = TASKS["sync_fifo"].reference_tbs[0].content.replace(
        "#(.DW(8), .DEPTH(32), .AF_LEVEL(28), .AE_LEVEL(4))", "#(.DEPTH(32), .AF_LEVEL(28))")
    assert check_design(TASKS["sync_fifo"].design, two) == []


def test_parameterized_copy_names_are_the_dut():
    """Verilator names a copy with two overridden parameters ``sync_fifo__DB10_Ac``."""
    assert integrity.same_module("sync_fifo__DB10_Ac", "sync_fifo")
    assert integrity.same_module("single_cycle_arbiter__N8", "single_cycle_arbiter")
    assert not integrity.same_module("sync_fifox__D1", "sync_fifo")
    assert not integrity.same_module("sync", "sync_fifo")


# ------------------------------------------------------------------------------ generated C++ check

def test_generated_code_check_accepts_verilators_lines_and_refuses_injected_ones():
    ok = [
        '    co_await vlSelfRef.__VtrigSched_heb067dec__0.trigger(0U, nullptr, "@(posedge tb.clk)", ',
        '                                             "@( ((4\'h3 == tb.q) & (32\'sh3 < tb.n)))");',
        '        vlSelfRef.__VtrigSched_h780bd60e__0.ready("@([event] tb.e)");',
        '    VL_DBG_MSGS("         \'" + tag + "\' region trigger index 1 is active: @(posedge tb.clk)\\n");',
    ]
    for line in ok:
        assert check_line(line) is None, line
    bad = [
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( tb.a"b)");',
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( x"); std::system("id"); ("");',
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( x", (vlSymsp->__Vcoverage[0] = 1), "");',
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( x" /* c */ "");',
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( x" R"(y)" "");',
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( x" "y"); { }',
        '        vlSelfRef.__VtrigSched_h0__0.ready("@( x");',
    ]
    for line in bad[:-1]:
        assert check_line(line) is not None, line
    assert check_line(bad[-1]) is None  # the shape alone (one literal) is Verilator's


SANDBOXES = ["auto", "bwrap", "rlimit", "docker"]


def _sandbox_or_skip(kind: str):
    if kind == "bwrap" and not bwrap_available():
        pytest.skip("bubblewrap cannot create namespaces here")
    if kind == "docker":
        from ecov.harness.sandbox.docker import docker_available

        if not docker_available():
            pytest.skip("docker is not usable here")
    try:
        return make_sandbox(kind)
    except RuntimeError as e:
        pytest.skip(str(e))


INJECT = HEAD + 'wire \\a"b ;\ninitial @(\\a"b ) $display("x");\n' + STIM + "endmodule\n"
# What the simulation could see of the harness's private channel: the environments of every process in
# its sandbox, its own memory map and its standard input (rules bypassed: absolute paths are refused).
SNOOP = HEAD + """  integer fd, i; string line;
  initial begin
    $display("ECOV-STDIN %0d", $fgets(line, 32'h8000_0000));
    $display("ECOV-STDIN-TEXT [%s]", line);
    for (i = 1; i < 4; i++) begin
      fd = $fopen($sformatf("/proc/%0d/environ", i), "r");
      if (fd != 0) while ($fgets(line, fd)) $display("ECOV-ENV %0d %s", i, line);
    end
    fd = $fopen("/proc/self/environ", "r");
    $display("ECOV-SELF %0d", fd);
  end
""" + STIM + "endmodule\n"


@pytest.mark.parametrize("kind", SANDBOXES)
def test_injection_and_private_channel_in_every_sandbox(kind, tmp_path):
    sandbox = _sandbox_or_skip(kind)
    eng = Engine(EngineConfig(cache_dir=tmp_path / "cache", use_cache=False), sandbox=sandbox)
    honest = eng.score(DESIGN, HONEST)
    assert honest.status == OK and 0 < honest.overall < 100
    # The rules refuse the injection; with them bypassed, the generated-code check refuses it before
    # the C++ compiler sees it.
    assert eng.score(DESIGN, INJECT).status == REJECTED
    built = eng._build_and_run(DESIGN, INJECT, 1, eng._base(DESIGN, 1))
    assert built.status == REJECTED and "generated-code" in built.errors[0], built.errors
    # No environment in the sandbox holds the output folder or the nonce; stdin is empty by then.
    snoop = eng._build_and_run(DESIGN, SNOOP, 1, eng._base(DESIGN, 1))
    assert snoop.status == OK and snoop.overall == honest.overall, snoop.errors
    log = snoop.log_tail
    assert "ECOV-STDIN 0" in log and "ECOV-STDIN-TEXT []" in log, log
    assert "ECOV_OUT" not in log and "ECOV_NONCE" not in log and "/out-" not in log, log
    assert not re.search(r"\b[0-9a-f]{32}\b", log), log
    assert "ECOV-SELF 0" in log, log  # non-dumpable: its own /proc files are not its uid's
    if sandbox.name == "bwrap":
        assert "ECOV-ENV" not in log, log  # no /proc at all in the simulation's namespace


@pytest.mark.parametrize("kind", ["rlimit", "bwrap", "docker"])
def test_compile_steps_run_unprivileged(kind, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only meaningful when the harness runs as root")
    sandbox = _sandbox_or_skip(kind)
    res = sandbox.run(["id", "-u"], tmp_path, Limits(wall_seconds=60), untrusted=False)
    assert res.returncode == 0 and res.output.strip() == "65534", res.output


def test_score_cache_never_relabels_the_sandbox(tmp_path):
    rl = Engine(EngineConfig(cache_dir=tmp_path, sandbox="rlimit"))
    first = rl.score(DESIGN, HONEST)
    assert first.status == OK and first.isolation == "rlimit" and first.isolated is False
    assert rl.score(DESIGN, HONEST).cached
    if not bwrap_available():
        pytest.skip("bubblewrap cannot create namespaces here")
    bw = Engine(EngineConfig(cache_dir=tmp_path, sandbox="bwrap"))
    assert bw.cache_key(DESIGN, HONEST, 1) != rl.cache_key(DESIGN, HONEST, 1)
    second = bw.score(DESIGN, HONEST)
    assert not second.cached and second.isolation == "bwrap" and second.isolated is True
    assert second.overall == first.overall
    assert bw.backend.fingerprint() and shutil.which("g++")


def test_bom_scores_like_the_same_text(tmp_path):
    eng = Engine(EngineConfig(cache_dir=tmp_path))
    plain = eng.score(DESIGN, HONEST)
    bom = eng.score(DESIGN, "\ufeff" + HONEST)
    assert plain.status == bom.status == OK and plain.overall == bom.overall


def test_monitor_reading_through_an_input_port_scores(tmp_path):
    eng = Engine(EngineConfig(cache_dir=tmp_path))
    plain = eng.score(DESIGN, HONEST)
    mon = eng.score(DESIGN, HONEST_CONSTRUCTS[0][1])
    assert mon.status == OK and mon.overall == plain.overall, mon.errors


# ------------------------------------------------------------------------------------------ cocotb

COCOTB_HEAD = """import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge


@cocotb.test()
async def t(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for name in ("rst_n", "wr_en", "rd_en", "wr_data", "clr_err"):
        getattr(dut, name).value = 0
    dut._log.info("reset")
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    for i in range(40):
        dut.wr_en.value = 1
        getattr(dut, "wr_data").value = i
        await RisingEdge(dut.clk)
"""
COCOTB_POLICY_ATTACKS = [
    "    import operator\n    operator.attrgetter('_handle')(dut)",
    "    from operator import attrgetter\n    attrgetter('_handle')(dut)",
    "    from operator import methodcaller\n    methodcaller('__reduce__')(dut)",
    "    import functools\n    functools.partial(setattr, dut)('x', 1)",
    "    f = getattr\n    f(dut, '_handle')",
    "    [getattr][0](dut, '__class__')",
    "    dut = cocotb\n    getattr(dut, 'x' + 'y')",
    "    n = '_' + 'handle'\n    setattr(dut, n, 1)",
    "    getattr(dut.rst_n, '_' + 'handle')",
    "    getattr(dut, '__class__')",
]


@pytest.mark.parametrize("attack", COCOTB_POLICY_ATTACKS)
def test_cocotb_policy_refuses_other_spellings_of_attribute_access(attack):
    from ecov.harness.tracks.cocotb.policy import check_python_testbench

    check = check_python_testbench(COCOTB_HEAD + attack + "\n")
    assert check.violations and {v.rule for v in check.violations} <= {"computed-attribute", "forbidden-attribute",
                                                                         "dunder-access", "private-access"}


def test_cocotb_policy_allows_everyday_idioms():
    from ecov.harness.tracks.cocotb.policy import check_python_testbench

    check = check_python_testbench(COCOTB_HEAD)
    assert check.ok, check.violations


# Run with the AST policy bypassed (``_build_and_run``): the layers below it.
COCOTB_REBIND_GUARD = """
    import sys
    g = sys.modules["ecov_guard"]
    g._DENY_EXACT = frozenset()
    g._DENY_PREFIX = ("nothing.",)
    g._LISTABLE = ["/"]
    got = {}
    for name, f in {"environ1": lambda: open("/proc/1/environ", "rb").read(),
                    "list_root": lambda: __import__("os").listdir("/"),
                    "system": lambda: __import__("os").system("true")}.items():
        try:
            f()
            got[name] = "ran"
        except PermissionError:
            got[name] = "refused"
    print("ECOV-R3", sorted(got.items()))
"""
COCOTB_NO_GUARD = """
    import os
    got = {}
    for mod in ("ctypes", "_ctypes", "_testcapi"):
        try:
            __import__(mod)
            got[mod] = "imported"
        except ImportError:
            got[mod] = "missing"
    seen = []
    for path in ("/proc/1/environ", "/proc/2/environ", "/proc/3/environ", "/proc/self/environ",
                 "/proc/self/cmdline", "/proc/self/mem"):
        try:
            seen.append(open(path, "rb").read(4096).decode(errors="replace"))
            got[path] = "read"
        except OSError:
            got[path] = "unreadable"
    got["stdin"] = os.read(0, 100).decode(errors="replace")
    seen.append(str(dict(os.environ)))
    print("ECOV-R3", sorted(got.items()))
    print("ECOV-SEEN", "|".join(seen).replace("\\x00", " "))
"""


def _cocotb_engine(kind: str, tmp_path, guard: bool = True):
    from ecov.harness.tracks.cocotb.scorer import CocotbEngine

    sandbox = _sandbox_or_skip(kind)
    eng = CocotbEngine(EngineConfig(use_cache=False, run_seconds=60, cache_dir=tmp_path / "cache"), sandbox=sandbox)
    if not guard:
        eng.guard_file = tmp_path / "no_guard.py"
        eng.guard_file.write_text("def install():\n    pass\n")
    return eng


# cocotb runs in bwrap here; under docker its design build does not link on this branch's base either
# (the image's runtime folder lacks cocotb's verilated_vpi object: a gap of the docker cocotb path).
@pytest.mark.parametrize("kind", ["bwrap"])
def test_cocotb_capabilities_are_gone(kind, tmp_path):
    design = TASKS["sync_fifo"].design
    eng = _cocotb_engine(kind, tmp_path)
    honest = eng.score(design, COCOTB_HEAD)
    assert honest.status == OK and 0 < honest.overall < 100, (honest.errors, honest.log_tail[-1500:])
    # The guard's state cannot be rebound through sys.modules: the hook keeps its own frozen copy.
    rebound = eng._build_and_run(design, COCOTB_HEAD + COCOTB_REBIND_GUARD, 1, eng._base(design, 1))
    got = re.search(r"ECOV-R3 (.*)", rebound.log_tail).group(1)
    assert "'ran'" not in got, got
    assert (rebound.overall, rebound.coverage) == (honest.overall, honest.coverage)
    # With the guard removed as well: no ctypes, no readable /proc of any process (its own included),
    # nothing on stdin, nothing of the channel in any environment.
    bare = _cocotb_engine(kind, tmp_path, guard=False)
    open_run = bare._build_and_run(design, COCOTB_HEAD + COCOTB_NO_GUARD, 1, bare._base(design, 1))
    got = re.search(r"ECOV-R3 (.*)", open_run.log_tail).group(1)
    seen = re.search(r"ECOV-SEEN (.*)", open_run.log_tail).group(1)
    assert "'imported'" not in got and "('stdin', '')" in got, got
    assert "('/proc/1/environ', 'unreadable')" in got, got  # bwrap gives the simulation no /proc
    assert "('/proc/self/mem', 'unreadable')" in got and "('/proc/self/environ', 'unreadable')" in got, got
    assert "ECOV_OUT" not in seen and "ECOV_NONCE" not in seen and "/out-" not in seen, seen
    assert not re.search(r"\b[0-9a-f]{32}\b", seen), seen
    assert (open_run.status, open_run.overall, open_run.coverage) == (OK, honest.overall, honest.coverage)


def test_task_allows_the_parameters_its_references_use():
    """A shipped cvdp task whose instructions and reference set DATA_WIDTH=16 (default 64) allows that set
    besides the defaults, and nothing else."""
    from ecov.harness.benchmark.store import load_benchmark

    task = next(t for t in load_benchmark("cvdp-ecov") if t.id == "cvdp_copilot_nbit_swizzling_0009")
    design = task.design
    assert [dict(p)["DATA_WIDTH"] for p in design.params] == ["16"]
    assert "params" in design.to_dict() and TASKS["sync_fifo"].design.params == ()
    ref = task.reference_tbs[0].content
    assert check_design(design, ref) == []
    m = re.search(r"DATA_WIDTH\s*\(\s*16\s*\)|DATA_WIDTH\s*=\s*16", ref)
    assert m, "the reference spells DATA_WIDTH 16"
    other = ref[:m.start()] + m.group(0).replace("16", "24") + ref[m.end():]
    found = check_design(design, other)
    assert [v.rule for v in found] == ["parameter-override"] and "DATA_WIDTH=16" in found[0].message


def test_canonical_point_set_catches_what_the_rules_miss(tmp_path):
    """With the rules bypassed, a DUT built with other parameters than the task's is refused by the replay:
    the parameter values its recorder reports at the real instance are none the task allows."""
    eng = Engine(EngineConfig(cache_dir=tmp_path, use_cache=False))
    design = TASKS["updown_counter"].design
    shrunk = _updown("updown_counter #(.WIDTH(3)) dut (.*);")
    res = eng._build_and_run(design, shrunk, 1, eng._base(design, 1))
    assert res.status == REJECTED and "parameter-override" in res.errors[0] and "WIDTH=3" in res.errors[0], res.errors
    same = eng._build_and_run(design, _updown("updown_counter #(.WIDTH(8)) dut (.*);"), 1, eng._base(design, 1))
    assert same.status == OK and same.overall == 100.0, same.errors
