"""Bug hunt (issue 31) with real Verilator runs: an honest self-checking testbench kills its task's mutants;
hostile ones score 0 or are refused. Lean: one small combinational task (prio_encoder), few mutants."""

from __future__ import annotations

import threading

import pytest

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.core.records import (
    FALSE_ALARM,
    INFRA_ERROR,
    KILLED,
    OK,
    REJECTED,
    Design,
    Mutant,
    SourceFile,
)
from ecov.harness.hdl.mutate import candidates
from ecov.harness.sandbox.base import ProcResult
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.bughunt import BughuntEngine

HEADER = """module tb;
  logic [15:0] req = 0, mask = 0, grant;
  logic msb_first = 0, valid, multi;
  logic [3:0] idx;
  logic [4:0] count;
  prio_enc uut (.*);
"""


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    task = next(t for t in load_suite() if t.id == "prio_encoder")
    assert task.mutants is not None and len(task.mutants.mutants) >= 10
    engine = BughuntEngine(EngineConfig(cache_dir=tmp_path_factory.mktemp("bh-cache")))
    return task, engine, task.mutants.mutants[:8]


def test_honest_self_checking_reference_kills_most(setup):
    task, engine, muts = setup
    r = engine.score_bughunt(task.design, muts, task.reference_tbs[0].content, 1)
    assert r.status == OK and r.total == len(muts)
    assert r.golden is not None and r.golden.overall == 100.0  # coverage of the golden run, as ever
    assert r.killed >= 0.8 * r.total, [(o.id, o.reason) for o in r.outcomes]
    for o in r.outcomes:
        if o.reason == KILLED:
            assert o.failed_ns is not None and o.diverged_ns is not None and o.failed_ns >= o.diverged_ns
    again = engine.score_bughunt(task.design, muts, task.reference_tbs[0].content, 1)
    assert again.cached and again.to_dict(timing=False) == r.to_dict(timing=False)


def test_a_testbench_that_always_fails_is_a_false_alarm(setup):
    task, engine, muts = setup
    tb = HEADER + "  initial begin\n    #5 req = 16'h1;\n    #5 $error(\"always\");\n    $finish;\n  end\nendmodule\n"
    r = engine.score_bughunt(task.design, muts, tb, 1)
    assert r.status == FALSE_ALARM and r.kill_rate == 0.0 and r.killed == 0 and not r.outcomes
    assert r.failure == "testbench.sv:9"  # where the check failed, for feedback; never its printed text
    assert "always" not in " ".join(r.errors)


def test_no_checks_and_no_view_of_the_build_or_other_runs(setup):
    """Random stimulus that never checks kills nothing; the build, the design's files and anything an earlier
    run wrote are out of reach (each run has its own empty folder), so no run fails."""
    task, engine, muts = setup
    tb = HEADER + """  integer fd;
  initial begin
    fd = $fopen("sim", "rb");
    if (fd != 0) $error("found the build");
    fd = $fopen("testbench.sv", "r");
    if (fd != 0) $error("found the testbench");
    fd = $fopen("rtl/prio_enc.sv", "r");
    if (fd != 0) $error("found the design");
    fd = $fopen("ran_before.txt", "r");
    if (fd != 0) $error("found what another run wrote");
    fd = $fopen("ran_before.txt", "w");
    $fdisplay(fd, "here");
    $fclose(fd);
    repeat (300) begin
      req = 16'($urandom); mask = 16'($urandom) & 16'($urandom); msb_first = 1'($urandom);
      #1;
    end
    $finish;
  end
endmodule
"""
    r = engine.score_bughunt(task.design, muts, tb, 1)
    assert r.status == OK and r.killed == 0 and r.kill_rate == 0.0
    assert all(o.failed_ns is None for o in r.outcomes)
    assert any(o.diverged_ns is not None for o in r.outcomes)  # the stimulus did excite mutants


def test_plusargs_and_defines_tell_the_testbench_nothing(setup):
    """A testbench that looks for the mutant selector where a run could carry it (the replay's plusarg
    +ecov_bh_sel, any +ecov plusarg, a define the build might set) and fails late, in a final block, when
    it finds one: the testbench's runs carry none of them, so nothing fails and nothing is killed (a late
    failure would have counted as a kill, being after every divergence)."""
    task, engine, muts = setup
    tb = HEADER + """  int k = 0, hit = 0;
  string s;
  initial begin
    if ($test$plusargs("ecov")) hit = 1;
    if ($value$plusargs("ecov_bh_sel=%d", k)) hit = 2;
    if ($value$plusargs("ecov_bh_sel=%s", s)) hit = 3;
`ifdef ECOV_BUGHUNT
    hit = 4;
`endif
`ifdef ECOV_MUTANT
    hit = 5;
`endif
    repeat (300) begin
      req = 16'($urandom); mask = 16'($urandom) & 16'($urandom); msb_first = 1'($urandom);
      #1;
    end
    $finish;
  end
  final if (hit != 0) $error("told %0d", hit);
endmodule
"""
    r = engine.score_bughunt(task.design, muts, tb, 1)
    assert r.status == OK and r.killed == 0, (r.status, r.errors, [(o.id, o.reason) for o in r.outcomes])
    assert all(o.failed_ns is None for o in r.outcomes)
    assert any(o.diverged_ns is not None for o in r.outcomes)


def test_naming_the_selector_or_embedding_the_design_is_refused(setup):
    task, engine, muts = setup
    tb = HEADER + "  initial begin\n    #1 if (uut.ecov_bh_sel != 0) $error(\"mutant\");\n    $finish;\n  end\nendmodule\n"
    r = engine.score_bughunt(task.design, muts, tb, 1)
    assert r.status == REJECTED and "undeclared-name" in r.errors[0] and "ecov_bh_sel" in r.errors[0]
    rtl = task.rtl_files[0].content.replace("module prio_enc", "module golden_enc")
    copy = rtl + HEADER + """  logic [15:0] g_grant; logic g_valid, g_multi; logic [3:0] g_idx; logic [4:0] g_count;
  golden_enc ref (.req, .mask, .msb_first, .valid(g_valid), .idx(g_idx), .grant(g_grant), .multi(g_multi),
                  .count(g_count));
  initial begin
    repeat (100) begin req = 16'($urandom); #1 if (idx != g_idx) $error("mismatch"); end
    $finish;
  end
endmodule
"""
    r = engine.score_bughunt(task.design, muts, copy, 1)
    assert r.status == REJECTED and "embeds-design" in r.errors[0] and r.golden is None


def test_the_generators_compile_filter_finds_a_broken_mutant(setup):
    from ecov.harness.benchmark.mutants import compile_filter

    task, engine, muts = setup
    assert engine.lint(task.design, ()) == ""
    m = muts[0]
    broken = Mutant("bad", m.operator, m.file, m.line, m.start, m.end, m.original, "no_such_signal", "")
    good, bad = compile_filter(engine, task, [*muts[:3], broken])
    assert [x.id for x in bad] == ["bad"] and len(good) == 3


SIGNED_RTL = """module sx (input logic signed [3:0] a, input logic [3:0] b, output logic signed [9:0] y,
           output logic [9:0] z);
  assign y = a;
  assign z = b;
endmodule
"""
SIGNED_TB = """module tb;
  logic signed [3:0] a;
  logic [3:0] b;
  logic signed [9:0] y;
  logic [9:0] z;
  sx uut (.*);
  initial begin
    for (int i = 0; i < 16; i++) begin
      a = 4'(i); b = 4'(i);
      #1;
      if (y != 10'(signed'(a))) $fatal(1, "y");
      if (z != 10'(b)) $fatal(1, "z");
    end
    $finish;
  end
endmodule
"""


def test_a_signed_expression_keeps_its_sign_behind_the_selector(tmp_path):
    """cvdp IIR_filter_0016: `'1` for a signed expression made the schema's `?:` unsigned, so the golden
    design zero-extended a negative value and a correct checker was a false alarm. The stuck mutants of the
    signed `a` and the unsigned `b` are all killed, and the golden run passes."""
    files = (SourceFile("sx.sv", SIGNED_RTL),)
    muts = tuple(m for m in candidates(files) if m.operator == "stuck")
    assert {m.original for m in muts} == {"a", "b"} and len(muts) == 4
    engine = BughuntEngine(EngineConfig(cache_dir=tmp_path))
    r = engine.score_bughunt(Design(files, "sx", "uut"), muts, SIGNED_TB, 1)
    assert r.status == OK, r.errors
    assert r.killed == 4, [(o.id, o.reason) for o in r.outcomes]


class _Unstartable:
    """A sandbox whose mutant runs fail to start (bwrap's EAGAIN on a loaded machine), ``fails`` times each
    after the golden run."""

    def __init__(self, inner, fails: int):
        self.inner, self.fails, self.sims, self.lock = inner, fails, {}, threading.Lock()

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def run(self, argv, workdir, limits, **kw):
        if kw.get("untrusted") and argv[0].endswith("/sim") and kw.get("stdin"):
            key = kw["stdin"].split()[-3] if len(kw["stdin"].split()) >= 3 else b""
            with self.lock:
                n = self.sims[key] = self.sims.get(key, 0) + 1
                first = len(self.sims) == 1
            if not first and n <= self.fails:
                return ProcResult(1, "bwrap: Can't fork: Resource temporarily unavailable\n")
        return self.inner.run(argv, workdir, limits, **kw)


@pytest.mark.parametrize("fails, expect", [(1, OK), (10, INFRA_ERROR)])
def test_a_mutant_run_the_sandbox_never_started_is_retried_then_a_fault(setup, tmp_path, fails, expect):
    """Never "survived" (the kill rate would drop for the machine's load, and the result would be cached):
    a start failure is tried again, and one that persists makes the score an infra error, never stored."""
    task, _, muts = setup
    engine = BughuntEngine(EngineConfig(cache_dir=tmp_path))
    engine.sandbox = _Unstartable(engine.sandbox, fails)
    r = engine.score_bughunt(task.design, muts[:3], task.reference_tbs[0].content, 1)
    assert r.status == expect, r.errors
    if expect == OK:
        assert all(o.reason != "mutant_crashed" for o in r.outcomes)
    else:
        assert "failed to start" in r.errors[0] and not r.outcomes
        engine.sandbox = engine.sandbox.inner
        again = engine.score_bughunt(task.design, muts[:3], task.reference_tbs[0].content, 1)
        assert again.status == OK and not again.cached
