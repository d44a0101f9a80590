"""The coverage engine with the real Verilator: known figures, determinism, rules, hostile testbenches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ecov.harness.core.records import Design, ScoreResult, SourceFile, Target
from ecov.harness.loop.feedback import render_eda_feedback, render_feedback
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine

DUT = """
module dut(input logic clk, input logic rst, input logic sel, input logic [3:0] a, output logic [3:0] q,
           output logic hit);
  always_ff @(posedge clk) begin
    if (rst) q <= 4'd0;
    else if (sel) q <= a;
    else q <= q;
  end
  assign hit = (a == 4'hf) && sel;
endmodule
"""

# sel is held at 1: the `else q <= q` branch is never taken and sel never toggles.
TB = """
module tb;
  logic clk = 0, rst = 1, sel = 1;
  logic [3:0] a = 0;
  wire [3:0] q; wire hit;
  dut uut(.clk(clk), .rst(rst), .sel(sel), .a(a), .q(q), .hit(hit));
  always #5 clk = ~clk;
  initial begin
    @(negedge clk) rst = 0;
    repeat (3) begin @(negedge clk) a = a + 4'd1; end
    $display("q=%0d", q);
    $finish;
  end
endmodule
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    return Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("cache"), run_seconds=20))


@pytest.fixture(scope="module")
def design() -> Design:
    return Design((SourceFile("dut.sv", DUT),), "dut", "uut")


@pytest.fixture(scope="module")
def first(engine, design):
    return engine.score(design, TB, seed=1)


def _uncovered(result, metric):
    return [(u.line, u.detail) for u in result.uncovered if u.metric == metric]


def test_known_coverage(first):
    assert first.status == "ok", first.errors
    assert first.isolation in ("bwrap", "rlimit")
    figs = first.coverage["uut"]
    # line points: always block, if, else-if, else: the else (q <= q) is never taken
    assert figs["line"]["covered"] == figs["line"]["total"] - 1
    assert (7, "else") in _uncovered(first, "line")
    # sel is held high: it never falls (its rise at time 0 counts)
    toggles = [d for _, d in _uncovered(first, "toggle")]
    assert "sel:1->0" in toggles
    # a only counts to 3: a[3:2] never rise
    assert "a[3]:0->1" in toggles and "a[0]:0->1" not in toggles
    # the hit condition (a == 4'hf) is never true
    assert any("==1" in d for _, d in _uncovered(first, "expr"))
    assert 0 < first.overall < 100
    assert first.overall == figs["overall"]["percent"]
    # only the DUT counts: nothing from the testbench module
    assert set(first.coverage) == {"uut"}
    assert all(u.instance == "uut" and u.file == "dut.sv" for u in first.uncovered)
    lines = {u.line: u.text for u in first.uncovered}
    assert lines[7] == "else q <= q;"


def test_targets_and_feedback(first):
    assert first.meets([Target("uut", "branch", 0.0)])
    assert not first.meets([Target("uut", "line", 100.0)])
    text = render_feedback(first, [Target("uut", "overall", 90)])
    assert "NOT met" in text and "dut.sv:7 | else q <= q;" in text
    assert len(render_feedback(first, max_chars=800)) <= 800


def test_deterministic_and_cached(engine, design, first, tmp_path):
    fresh = Engine(EngineConfig(cache_dir=tmp_path, use_cache=False, run_seconds=20))
    again = fresh.score(design, TB, seed=1)
    assert again.to_dict(timing=False) == first.to_dict(timing=False)
    hit = engine.score(design, TB, seed=1)
    assert hit.cached and hit.to_dict(timing=False) == first.to_dict(timing=False)


def test_sub_instances_and_missing_dut(engine):
    top = SourceFile("top.sv", """
module leaf(input logic x, output logic y); assign y = x ? 1'b0 : 1'b1; endmodule
module top(input logic a, input logic b, output logic y1, output logic y2);
  leaf u_l1(.x(a), .y(y1));
  leaf u_l2(.x(b), .y(y2));
endmodule
""")
    design = Design((top,), "top", "dut")
    tb = """module tb; logic a=0,b=0; wire y1,y2; top dut(.*);
      initial begin #1 a=1; #1 a=0; #1 $finish; end endmodule"""
    res = engine.score(design, tb)
    assert res.status == "ok", res.errors
    assert set(res.coverage) == {"dut", "dut.u_l1", "dut.u_l2"}
    assert res.coverage["dut.u_l1"]["toggle"]["percent"] == 100.0
    assert res.coverage["dut.u_l2"]["toggle"]["covered"] < res.coverage["dut.u_l2"]["toggle"]["total"]
    # cumulative: the parent counts its children's points
    assert res.coverage["dut"]["toggle"]["total"] > res.coverage["dut.u_l1"]["toggle"]["total"]
    wrong = engine.score(Design((top,), "top", "uut"), tb)
    assert wrong.coverage == {} and "does not instantiate the DUT as 'uut'" in wrong.errors[0]


def test_compile_error_is_reported_relative(engine, design):
    res = engine.score(design, TB.replace("$finish;", "$finish")  # missing semicolon
                       .replace("endmodule", "endmodule\n"))
    assert res.status == "compile_error"
    assert res.errors and "testbench.sv" in res.errors[0]
    assert "/tmp" not in "\n".join(res.errors)


@pytest.mark.parametrize(
    "snippet, rule",
    [
        ("module dut(); endmodule", "redefines-design-module"),
        ('`include "dut.sv"', "includes-design-file"),
        ("bind dut checker_m chk();", "bind"),
        ("initial force uut.q = 0;", "force-release"),
        ("initial begin uut.q = 4'd1; end", "hierarchical-write"),
        ('initial $system("rm -rf /");', "system-call"),
        ('import "DPI-C" function int system(string cmd);', "dpi"),
        ('initial begin int fd; fd = $fopen("/tmp/x.txt", "w"); end', "file-access"),
        ('initial $readmemh("../../etc/passwd", mem);', "file-access"),
    ],
)
def test_rules_reject(engine, design, snippet, rule):
    tb = TB.replace("always #5", snippet + "\n  always #5")
    res = engine.score(design, tb)
    assert res.status == "rejected"
    assert res.overall == 0.0 and not res.coverage
    assert any(f"'{rule}'" in e for e in res.errors), res.errors


def test_rules_allow_reads_and_comparisons(engine, design):
    from ecov.harness.sim.rules import check_testbench

    ok = TB.replace("$display", '// $system("x") in a comment\n    if (uut.q == 4\'d3) $display("force")')
    assert check_testbench(ok, ["dut"], ["dut.sv"], "uut") == []


def test_timeout(tmp_path, design):
    eng = Engine(EngineConfig(cache_dir=tmp_path, run_seconds=3))
    tb = TB.replace("$finish;", "forever #1 a = ~a;")
    res = eng.score(design, tb)
    assert res.status == "timeout"
    assert "did not finish" in res.errors[0]


def test_endless_output_is_capped(tmp_path, design):
    eng = Engine(EngineConfig(cache_dir=tmp_path, run_seconds=30, output_bytes=20_000))
    tb = TB.replace("$finish;", 'forever begin #1 $display("spam spam spam spam"); end')
    res = eng.score(design, tb)
    assert res.status == "crashed"
    assert "printed more than 20000 bytes" in res.errors[0]
    assert len(res.log_tail) <= 3000


def test_thread_explosion_is_contained(tmp_path, design):
    """SystemVerilog fork in a loop: memory and CPU limits stop it; the harness survives."""
    eng = Engine(EngineConfig(cache_dir=tmp_path, run_seconds=15, memory_mb=512))
    tb = TB.replace("$finish;", "forever begin fork begin #100; end join_none #0; end")
    res = eng.score(design, tb)
    assert res.status in ("crashed", "timeout")
    assert not res.coverage


@pytest.fixture
def job_dir():
    """A folder the unprivileged simulation user can reach (pytest's tmp_path is private to root)."""
    import shutil
    import tempfile

    from ecov.harness.core.paths import jobs_dir

    path = Path(tempfile.mkdtemp(dir=jobs_dir()))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_sandbox_hides_host_and_network(job_dir):
    from ecov.harness.sandbox.base import Limits
    from ecov.harness.sandbox.factory import make_sandbox

    box = make_sandbox("auto")
    if box.name != "bwrap":
        pytest.skip("bubblewrap not usable here")
    secret = Path.home() / ".ecov-test-secret"
    secret.write_text("top secret")
    try:
        script = (
            f"cat {secret} /etc/passwd 2>&1; ls /work /home 2>&1; echo hi > own.txt; cat own.txt; "
            "(exec 3<>/dev/tcp/127.0.0.1/22) 2>&1 || echo NO-NETWORK"
        )
        res = box.run(["/bin/bash", "-c", script], job_dir, Limits(wall_seconds=20), untrusted=True)
        assert "top secret" not in res.output and "root:x:0" not in res.output
        assert "No such file" in res.output
        assert "hi" in res.output and "NO-NETWORK" in res.output
    finally:
        secret.unlink()


def test_process_limit_stops_forking(job_dir):
    from ecov.harness.sandbox.base import Limits
    from ecov.harness.sandbox.factory import make_sandbox

    box = make_sandbox("auto")
    script = (
        "import os, time\n"
        "n = 0\n"
        "try:\n"
        "    for i in range(200):\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(5); os._exit(0)\n"
        "        n += 1\n"
        "    print('FORKED-ALL', n)\n"
        "except OSError as e:\n"
        "    print('FORK-FAILED', e.errno, n)\n"
    )
    res = box.run(["/usr/bin/python3", "-c", script], job_dir, Limits(wall_seconds=20, processes=20),
                  untrusted=True)
    assert "FORK-FAILED 11" in res.output, res.output  # EAGAIN from RLIMIT_NPROC
    assert int(res.output.split()[-1]) < 20
    # the whole process group went down with it
    left = subprocess.run(["pgrep", "-u", "65534", "-f", "os.fork"], capture_output=True, text=True).stdout.split()
    assert left == []


def test_ecov_score_cli_on_verilog_eval(tmp_path):
    shared = Path(__file__).resolve().parents[2] / "shared" / "data" / "verilog-eval" / "dataset_spec-to-rtl"
    ref = shared / "Prob050_kmap1_ref.sv"
    if not ref.exists():
        pytest.skip("../shared/data/verilog-eval not present")
    rtl = tmp_path / "kmap1.sv"
    rtl.write_text(ref.read_text().replace("module RefModule", "module TopModule"))
    tb = tmp_path / "tb.sv"
    tb.write_text("""module tb; logic a,b,c; wire out; TopModule dut(.a(a),.b(b),.c(c),.out(out));
      initial begin for (int i = 0; i < 8; i++) begin {a,b,c} = i[2:0]; #1; end {a,b,c} = 0; #1 $finish; end endmodule""")
    from ecov.harness.core.paths import default_cache_dir

    env = {**os.environ, "ECOV_CACHE_DIR": str(tmp_path / "cache"),
           "ECOV_RUNTIME_DIR": str(default_cache_dir() / "runtime")}
    cmd = [sys.executable, "-m", "ecov.harness.cli.score", "--rtl", str(rtl), "--top", "TopModule",
           "--instance", "dut", "--tb", str(tb), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["status"] == "ok" and data["overall"] == 100.0
    assert data["coverage"]["dut"]["toggle"]["percent"] == 100.0
    bad = subprocess.run(cmd[:-1] + ["--seed", "x"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "seed" in bad.stderr


def test_feedback_lists_instances_in_hierarchy_order_whatever_the_table_order():
    """A cached score and a fresh one may hold the coverage table in different orders (the build that
    counted it decides); feedback is the next prompt, so it is rendered in one order."""
    cov = {"overall": {"percent": 50.0, "covered": 1, "total": 2}}
    breadth = {"uut": cov, "uut.a1": cov, "uut.a2": cov, "uut.a1.fa": cov, "uut.a2.fa": cov}
    depth = {k: breadth[k] for k in ("uut", "uut.a1", "uut.a1.fa", "uut.a2", "uut.a2.fa")}
    texts = [render_eda_feedback(ScoreResult(status="ok", instance="uut", coverage=c, overall=50.0))
             for c in (breadth, depth)]
    assert texts[0] == texts[1]
    assert texts[0].index("uut.a1.fa:") < texts[0].index("uut.a2:")
