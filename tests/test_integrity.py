"""Score integrity: a hostile testbench must not be able to raise its own score.

Each class of attack is tried in several spellings. Rule attacks are refused before anything compiles
(no build: cheap); the few that need a simulation (a forged coverage.dat, wrappers, leaving without
$finish, sandboxes) use real Verilator builds on a 4-bit counter and compare with the honest stimulus.
"""

from __future__ import annotations

import pytest

from ecov.harness.core.records import COMPILE_ERROR, CRASHED, NO_FINISH, OK, REJECTED, Design, SourceFile
from ecov.harness.sandbox.bwrap import BwrapSandbox, bwrap_available
from ecov.harness.sandbox.factory import make_sandbox
from ecov.harness.sandbox.rlimit import RlimitSandbox as Sandbox
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim import integrity
from ecov.harness.sim.coverage import CoveragePoint
from ecov.harness.sim.rules import check_design
from ecov.harness.tracks.sv.scorer import Engine

COUNTER = """module counter(input clk, input rst, input en, output reg [3:0] q);
  reg [3:0] hidden;
  always @(posedge clk) begin
    if (rst) begin q <= 0; hidden <= 0; end
    else if (en) begin q <= q + 1; hidden <= hidden ^ q; end
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


def tb(extra: str, stim: str = STIM) -> str:
    return HEAD + extra + "\n" + stim + "endmodule\n"


# (name, testbench, rules that must be among the ones reported)
RULE_ATTACKS = [
    # Verilator's inline C++ and tool control, plain and hidden behind macros / pasting / spacing.
    ("c-escape", tb('initial $c("exit(0);");'), {"verilator-c-escape"}),
    ("c-pasted", tb('`define CAT(a,b) a``b\ninitial `CAT($,c)("exit(0);");'), {"verilator-c-escape"}),
    ("c-width", tb('int x; initial x = $c32("std::system(\\"id\\")");'), {"verilator-c-escape"}),
    ("cpure", tb('initial $display($cpure("1"));'), {"verilator-c-escape"}),
    ("system", tb('initial $system("touch /tmp/pwned");'), {"system-call"}),
    ("system-pasted", tb('`define CAT(a,b) a``b\ninitial `CAT($sys,tem)("id");'), {"system-call"}),
    ("system-ifdef", tb('`ifdef VERILATOR\ninitial $system("id");\n`endif'), {"system-call"}),
    ("coverage-control", tb("initial $coverage_control(1, 23, 0, tb);"), {"coverage-control"}),
    ("unknown-systf", tb('string s; initial s = $getenv("HOME");'), {"system-task"}),
    ("metacomment", tb("/*verilator coverage_off*/"), {"verilator-metacomment"}),
    ("metacomment-line", tb("// verilator public_flat_rw"), {"verilator-metacomment"}),
    ("metacomment-pasted", tb("`define S /\n`S*verilator coverage_off*/"), {"verilator-metacomment"}),
    ("metacomment-predefined", tb("initial begin `coverage_block_off end"), {"verilator-metacomment"}),
    ("verilator-config", tb('`verilator_config\ncoverage_off -file "*"\n`verilog'), {"tool-control"}),
    ("systemc", tb("`systemc_header\n#include <cstdlib>\n`verilog"), {"tool-control"}),
    ("pragma", tb("`pragma protect begin"), {"tool-control"}),
    ("attribute", tb("(* verilator_public *) reg [3:0] r;"), {"attribute"}),
    ("line-directive", tb('`line 1 "rtl/counter.sv" 0'), {"includes-design-file"}),
    ("line-directive-host", tb('`line 1 "/etc/x.sv" 0'), {"include"}),
    # Writes into the design hierarchy, in every path form and statement kind.
    ("hier-blocking", tb("initial uut.hidden = 4'hf;"), {"hierarchical-write"}),
    ("hier-nba", tb("always @(posedge clk) uut.hidden <= ~uut.hidden;"), {"hierarchical-write"}),
    ("hier-tb-path", tb("initial tb.uut.hidden = 1;"), {"hierarchical-write"}),
    ("hier-root", tb("initial $root.tb.uut.hidden = 1;"), {"hierarchical-write"}),
    ("hier-root-macro", tb("`define R $root\ninitial `R.tb.uut.hidden = 1;"), {"hierarchical-write"}),
    ("hier-escaped", tb("initial \\uut .hidden = 1;"), {"hierarchical-write"}),
    ("hier-spaced", tb("initial uut\n  .  hidden\n = 1;"), {"hierarchical-write"}),
    ("hier-assign", tb("assign uut.hidden = 4'h3;"), {"hierarchical-write"}),
    ("hier-proc-assign", tb("initial assign uut.hidden = 1;"), {"hierarchical-write"}),
    ("hier-incr", tb("initial uut.hidden++;"), {"hierarchical-write"}),
    ("hier-compound", tb("initial uut.hidden ^= 4'h5;"), {"hierarchical-write"}),
    ("hier-concat", tb("reg [3:0] a; initial {a, uut.hidden} = 0;"), {"hierarchical-write"}),
    ("hier-bit", tb("initial uut.hidden[2] = 1;"), {"hierarchical-write"}),
    ("hier-readmem", tb('initial $readmemh("x.hex", uut.hidden);'), {"hierarchical-write"}),
    ("hier-sscanf", tb('initial $sscanf("3", "%d", uut.hidden);'), {"hierarchical-write"}),
    ("hier-ref-task", tb("task automatic t(ref logic [3:0] r); r = 1; endtask\ninitial t(uut.hidden);"),
     {"hierarchical-write"}),
    ("hier-fscanf", tb('int fd; initial fd = $fscanf(fd, "%d", uut.hidden);'), {"hierarchical-write"}),
    ("hier-in-function", tb("function void f(); uut.hidden = 1; endfunction"), {"hierarchical-write"}),
    ("hier-fork", tb("initial fork uut.hidden = 1; join"), {"hierarchical-write"}),
    ("hier-always-ff", tb("always_ff @(posedge clk) uut.hidden <= 0;"), {"hierarchical-write"}),
    ("hier-instance-array", HONEST.replace("counter uut(", "counter uarr[2](") .replace(
        "endmodule", "initial uarr[0].hidden = 1;\nendmodule"), {"hierarchical-write"}),
    ("hier-in-interface", HONEST + "interface tbi; assign tb.uut.hidden = 0; endinterface\n",
     {"hierarchical-write"}),
    ("hier-program", HONEST + "program p; initial tb.uut.hidden = 0; endprogram\n", {"hierarchical-write"}),
    ("hier-output-port", tb("helper h(.o(uut.hidden));"), {"hierarchical-port"}),
    ("hier-upward", HONEST + "module helper; initial uut.hidden = 1; endmodule\n", {"hierarchical-write"}),
    ("hier-class", tb("class C; task t; tb.uut.hidden = 1; endtask endclass"), {"hierarchical-write"}),
    ("hier-generate", tb("if (1) begin : g counter u2(.clk(clk), .rst(rst), .en(en), .q()); end\n"
                         "initial g.u2.hidden = 1;"), {"hierarchical-write"}),
    ("hier-task-call", tb("initial uut.some_task;"), {"hierarchical-write"}),
    ("hier-event", tb("initial -> uut.ev;"), {"hierarchical-write"}),
    ("hier-randomize", tb("initial std::randomize(uut.hidden);"), {"hierarchical-write"}),
    ("hier-clocking", tb("clocking cb @(posedge clk); output o = uut.hidden; endclocking"),
     {"hierarchical-write"}),
    ("hier-virtual-if", tb("interface bif; logic a; endinterface\nvirtual bif v; initial v = uut.bus;"),
     {"hierarchical-write"}),
    ("escaped-dot-instance", tb("counter \\uut.extra (.clk(clk), .rst(rst), .en(en), .q());"), {"escaped-name"}),
    ("defparam", tb("defparam uut.W = 1;"), {"defparam"}),
    ("force", tb("initial force uut.q = 4'hf;"), {"force-release"}),
    ("force-macro", tb("`define F for``ce\ninitial `F uut.q = 4'hf;"), {"force-release"}),
    ("bind", tb("bind counter helper h();"), {"bind"}),
    ("alias", tb("wire [3:0] w; alias w = uut.hidden;"), {"alias"}),
    ("dpi", tb('import "DPI-C" function int getpid();'), {"dpi"}),
    ("dpi-export", tb('export "DPI-C" function f;\nfunction void f; endfunction'), {"dpi"}),
    # Same-named definitions, other compilation units, files.
    ("redefine-module", HONEST + "module counter(input clk, rst, en, output [3:0] q); endmodule\n",
     {"redefines-design-module"}),
    ("redefine-package", HONEST + "package counter; endpackage\n", {"redefines-design-module"}),
    ("config", HONEST + "config cfg; design tb; endconfig\n", {"config"}),
    ("include-design", tb('`include "counter.sv"'), {"includes-design-file"}),
    ("include-host", tb('`include "/etc/hostname"'), {"include"}),
    ("fopen-abs", tb('int fd; initial fd = $fopen("/tmp/x", "w");'), {"file-access"}),
    ("fopen-dotdot", tb('int fd; initial fd = $fopen("../out/coverage.dat", "w");'), {"file-access"}),
    ("fopen-variable", tb('string s = "/tmp/x"; int fd; initial fd = $fopen(s, "w");'), {"file-access"}),
    ("fopen-macro", tb('`define P "/etc/passwd"\nint fd; initial fd = $fopen(`P, "r");'), {"file-access"}),
]


@pytest.mark.parametrize("name,testbench,rules", RULE_ATTACKS, ids=[a[0] for a in RULE_ATTACKS])
def test_rule_attacks_are_refused_with_rule_and_line(name, testbench, rules):
    found = check_design(DESIGN, testbench)
    hard = [v for v in found if not v.deferred]
    assert rules <= {v.rule for v in hard}, [str(v) for v in found]
    assert all(v.line > 0 for v in hard)


def test_honest_testbench_passes_the_rules_including_reads_and_lint_pragmas():
    testbench = tb("/*verilator lint_off WIDTH*/\n"
                   "typedef struct packed { logic [7:0] errors; } stats_t; stats_t stats1;\n"
                   "always @(posedge clk) begin stats1.errors++; if (uut.hidden == 4'hf) $display(\"%d\", "
                   "$root.tb.uut.q); end\n"
                   'int fd; initial begin fd = $fopen("trace.txt", "w"); $fdisplay(fd, "%d", uut.hidden); end')
    assert check_design(DESIGN, testbench) == []


def test_hierarchical_reads_may_go_to_input_formals_only():
    tasks = ("task automatic show(input logic [3:0] v, output logic [3:0] w); w = v; endtask\n"
             "function automatic int twice(int v); return 2 * v; endfunction\n"
             "logic [3:0] w, mem[4]; int q[$]; string s;\n")
    reads = tb(tasks + "initial begin show(uut.hidden, w); w = twice(uut.q); q.push_back(uut.hidden); "
                       '$sformat(s, "%d", uut.hidden); $writememh("m.hex", mem); end')
    assert check_design(DESIGN, reads) == []
    for call in ("show(w, uut.hidden);", "show(.w(uut.hidden), .v(w));", "undeclared(uut.hidden);",
                 "std::randomize(uut.hidden);"):
        found = check_design(DESIGN, tb(tasks + f"initial {call}"))
        assert [v.rule for v in found] == ["hierarchical-write"], (call, found)


def test_design_interface_instance_is_the_testbenchs_own():
    design = Design(files=(SourceFile("bus.sv", "interface bus_if; logic [3:0] d; endinterface\n"
                                      "module sink(bus_if b, output logic [3:0] q); assign q = b.d; endmodule\n"),),
                    top="sink", instance="uut")
    ok = "module tb; bus_if b(); wire [3:0] q; sink uut(.b(b), .q(q)); initial b.d = 4'h3; endmodule\n"
    assert check_design(design, ok) == []
    bad = ok.replace("initial b.d = 4'h3;", "initial uut.b.d = 4'h3;")
    assert [v.rule for v in check_design(design, bad)] == ["hierarchical-write"]


def test_oversized_testbench_is_refused_without_preprocessing():
    assert [v.rule for v in check_design(DESIGN, HONEST + "//" + "x" * 1_000_000)] == ["too-large"]


def test_engine_rejects_before_compiling(tmp_path):
    engine = Engine(EngineConfig(cache_dir=tmp_path, use_cache=False))
    res = engine.score(DESIGN, tb('`define CAT(a,b) a``b\ninitial `CAT($sys,tem)("id");'))
    assert res.status == REJECTED and res.overall == 0.0 and res.coverage == {}
    assert res.errors[0].startswith("rule 'system-call' (testbench line 6)")


# --------------------------------------------------------------------------------------------------
# Pure integrity checks (no simulation).


def _pt(key: str, count: int = 0, hier: str = "tb.uut", module: str = "counter", file: str = "rtl/counter.sv"):
    return CoveragePoint(file, 1, 0, "line", key, hier, "", count, module, key)


def test_point_set_must_equal_the_builds():
    built = [_pt("a"), _pt("b")]
    assert integrity.check_point_set(built, [_pt("a", 3), _pt("b")]) is None
    added = integrity.check_point_set(built, [_pt("a", 1), _pt("b", 1), _pt("forged", 9)])
    missing = integrity.check_point_set(built, [_pt("a", 1)])
    assert added.rule == missing.rule == "coverage-integrity"
    assert "1 added" in added.message and "1 missing" in missing.message


def test_dut_identity_checks_module_and_files():
    mods, files = {"counter"}, {"counter.sv"}
    assert integrity.check_dut([_pt("a", 1)], "uut", "counter", mods, files) is None
    wrapper = [_pt("w", hier="tb.uut", module="wrap", file="testbench.sv"), _pt("a", hier="tb.uut.dut")]
    assert integrity.check_dut(wrapper, "uut", "counter", mods, files).rule == "dut-identity"
    no_own = [_pt("a", hier="tb.uut.dut")]
    assert integrity.check_dut(no_own, "uut", "counter", mods, files).rule == "dut-identity"
    tb_file = [_pt("a"), _pt("b", file="testbench.sv")]
    assert "not part of the design" in integrity.check_dut(tb_file, "uut", "counter", mods, files).message


def test_a_parameter_override_is_still_the_dut():
    """Verilator names the copy a ``#(...)`` override makes ``<module>__<params>``: still the DUT, as long
    as its points come from the design's files; a look-alike name from the testbench file is not."""
    mods, files = {"counter"}, {"counter.sv"}
    assert integrity.check_dut([_pt("a", 1, module="counter__W5")], "uut", "counter", mods, files) is None
    look_alike = [_pt("a", 1, module="counter__W5", file="testbench.sv")]
    assert integrity.check_dut(look_alike, "uut", "counter", mods, files).rule == "dut-identity"
    assert integrity.check_dut([_pt("a", 1, module="counterx__W5")], "uut", "counter", mods, files).rule \
        == "dut-identity"


def test_parameter_override_away_from_the_tasks_design_is_refused(engine):
    """An override away from the task's design (updown_counter WIDTH 6: fewer toggle points, a higher
    percentage for the same stimulus) is refused before anything is built (rule parameter-override)."""
    from ecov.harness.benchmark.builders.embedded import load_suite

    task = next(t for t in load_suite() if t.id == "updown_counter")
    tb = """module tb;
  logic clk = 0, rst_n = 0, en = 1, up = 1, load = 0, sat = 0, at_max, at_min, wrapped, diag;
  logic [5:0] load_val = 0, count;
  updown_counter #(.WIDTH(6)) dut (.*);
  always #5 clk = ~clk;
  initial begin #12 rst_n = 1; repeat (70) @(posedge clk); $finish; end
endmodule
"""
    res = engine.score(task.design, tb)
    assert res.status == REJECTED, res.errors
    assert "parameter-override" in res.errors[0] and "WIDTH=6" in res.errors[0] and "line 4" in res.errors[0]
    same = tb.replace("#(.WIDTH(6))", "#(.WIDTH(8))").replace("[5:0]", "[7:0]")
    res = engine.score(task.design, same)
    assert res.status == OK, res.errors
    assert res.overall > 0


def test_end_marker_needs_this_runs_nonce(tmp_path):
    out, nonce = integrity.new_run_dir(tmp_path)
    assert nonce not in out.name  # knowing the folder does not give the nonce
    assert not integrity.read_run(out, nonce).ended
    (out / integrity.END_FILE).write_text(f"ecov-end {'0' * 32} finish=1\n")
    assert integrity.read_run(out, nonce).error.rule == "exit-path"
    (out / integrity.END_FILE).write_text(f"ecov-end {nonce} finish=1\n")
    for name in (integrity.POINTS_FILE, integrity.COVERAGE_FILE):
        (out / name).write_text("# SystemC::Coverage-3\n")
    got = integrity.read_run(out, nonce)
    assert got.ended and got.finished and got.error is None


# --------------------------------------------------------------------------------------------------
# Simulated attacks (real builds): a handful.


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), use_cache=False, run_seconds=20))


@pytest.fixture(scope="module")
def honest(engine):
    res = engine.score(DESIGN, HONEST)
    assert res.status == OK and 0 < res.overall < 100
    return res


FORGE_DAT = tb("", stim="""  initial begin : forge
    int fd;
    #12 rst = 0; en = 1; #40;
    fd = $fopen("coverage.dat", "w");
    $fwrite(fd, "# SystemC::Coverage-3\\nC '\\001t\\002line\\001h\\002tb.uut\\001page\\002v_line/counter' 999\\n");
    $fclose(fd);
    $finish;
  end
""")


def test_forged_coverage_file_scores_exactly_the_honest_part(engine, honest):
    res = engine.score(DESIGN, FORGE_DAT)
    assert res.status == OK
    assert res.overall == honest.overall and res.coverage == honest.coverage


def test_wrapper_under_the_instance_name_is_rejected(engine):
    wrapper = HONEST.replace("counter uut(", "wrap uut(") + (
        "module wrap(input clk, input rst, input en, output [3:0] q);\n"
        "  reg [7:0] mine; always @(posedge clk) mine <= mine + 1;\n  counter dut(.*);\nendmodule\n")
    res = engine.score(DESIGN, wrapper)
    assert res.status == REJECTED and res.overall == 0.0
    # The testbench file is not instrumented (coverage_off), so the wrapper shows as a module without
    # points of its own where the DUT's points should start.
    assert "integrity 'dut-identity'" in res.errors[0] and "'counter'" in res.errors[0]


def test_wrapper_without_points_of_its_own_is_rejected(engine):
    wrap = ("module wrap; reg clk = 0, rst = 1, en = 0; wire [3:0] q; counter dut(.*);\n"
            "  always #5 clk = ~clk; initial begin #12 rst = 0; en = 1; #40 $finish; end\nendmodule\n"
            "module tb; wrap uut(); endmodule\n")
    res = engine.score(DESIGN, wrap)
    assert res.status == REJECTED and "dut-identity" in res.errors[0]


def test_printing_finish_does_not_make_a_run_finish(engine, honest):
    res = engine.score(DESIGN, tb("", stim='  initial begin #12 rst = 0; en = 1; #40 $display("$finish"); '
                                      "$finish(0); end\n").replace("always #5 clk = ~clk;",
                                                                   "initial repeat (12) #5 clk = ~clk;"))
    assert res.status == OK  # a real $finish
    quiet = engine.score(DESIGN, HONEST.replace("#40 $finish;", '#40 $display("$finish");').replace(
        "always #5 clk = ~clk;", "initial repeat (12) #5 clk = ~clk;"))
    assert quiet.status == NO_FINISH and quiet.errors == ["simulation ended without $finish (it ran out of events)"]


def test_fatal_is_not_counted(engine):
    res = engine.score(DESIGN, HONEST.replace("#40 $finish;", '#40 $fatal(1, "bye");'))
    assert res.status == CRASHED and res.coverage == {} and res.overall == 0.0


def test_syntax_error_still_gets_verilators_messages(engine):
    res = engine.score(DESIGN, HONEST.replace("reg clk", "reg clk clk"))
    assert res.status == COMPILE_ERROR and res.errors


@pytest.mark.parametrize("kind", ["rlimit", "bwrap", "docker"])
def test_forge_in_every_sandbox(kind, tmp_path, honest):
    if kind == "bwrap" and not bwrap_available():
        pytest.skip("bubblewrap cannot create namespaces here")
    if kind == "docker":
        from ecov.harness.sandbox.docker import IMAGE, docker_available

        if not docker_available():
            pytest.skip("no Docker engine reachable")
        import docker

        try:
            docker.from_env().images.get(IMAGE)
        except Exception:
            pytest.skip(f"Docker image {IMAGE} not built (scripts/docker-base.sh + Dockerfile)")
    engine = Engine(EngineConfig(sandbox=kind, cache_dir=tmp_path, use_cache=False, run_seconds=30))
    res = engine.score(DESIGN, FORGE_DAT)
    assert res.isolation == kind and res.isolated == (kind != "rlimit")
    assert res.status == OK and res.coverage == honest.coverage
    rejected = engine.score(DESIGN, tb('initial $c("system(\\"id\\");");'))
    assert rejected.status == REJECTED and rejected.isolated == (kind != "rlimit")


def test_auto_never_silently_degrades(monkeypatch):
    import ecov.harness.sandbox.bwrap as sb

    monkeypatch.setattr(sb, "bwrap_available", lambda: False)
    monkeypatch.setattr(sb.shutil, "which", lambda name: "/usr/bin/" + name if name == "bwrap" else None)
    with pytest.raises(RuntimeError, match="bubblewrap is installed but cannot"):
        make_sandbox("auto")
    monkeypatch.setattr(sb.shutil, "which", lambda name: None)
    weak = make_sandbox("auto")
    assert type(weak) is Sandbox and not weak.isolated
    assert BwrapSandbox.isolated


def test_verify_marks_a_forged_submission_failed(tmp_path, monkeypatch):
    """A submission whose rounds claim a score that the rules refuse fails, naming task/sample/round/rule."""
    from test_leaderboard import write_run

    from ecov.harness.benchmark.store import load_benchmark
    from ecov.harness.core.records import ScoreResult
    from ecov.harness.core.run_folder import RunFolder
    from ecov.leaderboard.verify import FAILED, engine_score_fn, verify_run

    task = next(t for t in load_benchmark("ecov-embedded") if t.id == "updown_counter")
    forged_tb = task.reference_tbs[0].content.replace("endmodule", "initial $root.tb.dut.count = 8'hff;\nendmodule",
                                                       1)

    def claims_full_marks(design, testbench, seed):
        return ScoreResult(status=OK, instance=task.dut_instance, overall=100.0,
                           coverage={task.dut_instance: {"overall": {"covered": 9, "total": 9, "percent": 100.0}}})

    run = write_run(tmp_path / "run", task, {0: [forged_tb]}, claims_full_marks, model="forger", max_rounds=1)
    ver = verify_run(RunFolder(run), {task.id: task}, engine_score_fn())
    assert ver.verdict == FAILED and len(ver.failures) == 1
    text = str(ver.failures[0])
    assert text.startswith("updown_counter / sample 0 / round 1: rule: submitted 'ok'")
    assert "hierarchical-write" in text and "FAILED" in ver.report()
