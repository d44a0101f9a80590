"""A sandbox is one class plus its registration: a toy one registered from outside the package scores a
real testbench through the factory (by name, and under ``auto`` through ECOV_SANDBOX), with the same
figures as the built-in rlimit sandbox; names cannot be taken over."""

from __future__ import annotations

import pytest

from ecov.harness import registry
from ecov.harness.core.records import OK, Design, SourceFile
from ecov.harness.sandbox.base import Limits, Sandbox, clean_env, open_for_nobody, run_limited
from ecov.harness.sandbox.factory import make_sandbox, sandbox_names
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine

DUT = """
module dut(input logic clk, input logic rst, input logic [3:0] a, output logic [3:0] q);
  always_ff @(posedge clk) if (rst) q <= 4'd0; else if (a[0]) q <= a; else q <= q + 4'd1;
endmodule
"""
TB = """
module tb;
  logic clk = 0, rst = 1; logic [3:0] a = 0; wire [3:0] q;
  dut uut(.clk(clk), .rst(rst), .a(a), .q(q));
  always #5 clk = ~clk;
  initial begin
    @(negedge clk) rst = 0;
    repeat (4) begin @(negedge clk) a = a + 4'd1; end
    $finish;
  end
endmodule
"""


class JournalSandbox(Sandbox):
    """rlimits plus a journal of every command it was asked to run (what an outside backend looks like)."""

    name = "journal-test"
    isolated = False
    calls: list[tuple[str, bool]] = []
    argvs: list[tuple[str, ...]] = []

    def run(self, argv, workdir, limits: Limits, *, untrusted, ro_paths=(), rw_paths=(), env=None, stdin=None):
        # The program itself, past a `prlimit ... --` that raises a limit for it (Verilator's stack).
        program = argv[argv.index("--") + 1] if argv[0] == "prlimit" and "--" in argv else argv[0]
        type(self).calls.append((program.rsplit("/", 1)[-1], untrusted))
        type(self).argvs.append(tuple(argv))
        if untrusted:
            open_for_nobody(workdir)
        return run_limited(argv, workdir, limits, clean_env(env), drop_to_nobody=untrusted, stdin=stdin)


@pytest.fixture
def journal():
    registry.register("sandbox", JournalSandbox.name, JournalSandbox)
    JournalSandbox.calls = []
    JournalSandbox.argvs = []
    yield JournalSandbox
    registry.unregister("sandbox", JournalSandbox.name)


def test_outside_sandbox_scores_like_rlimit(journal, tmp_path, monkeypatch):
    assert journal.name in sandbox_names()
    design = Design((SourceFile("dut.sv", DUT),), "dut", "uut")
    mine = Engine(EngineConfig(sandbox=journal.name, cache_dir=tmp_path / "a", use_cache=False, run_seconds=20))
    res = mine.score(design, TB)
    assert res.status == OK and res.isolation == journal.name and res.isolated is False
    steps = [name for name, _ in journal.calls]
    # the simulations ran through it, untrusted: the testbench's run, then the trusted replay of its trace
    # (and, where this machine had not built the design's replay model yet, that model's `info` run first)
    sims = [a[1] if a[1] in ("info", "replay") else "tb" for a in journal.argvs if a[0] == "./sim"]
    assert steps[-1] == "sim" and [name for name, untrusted in journal.calls if untrusted] == ["sim"] * len(sims)
    assert [s for s in sims if s != "info"] == ["tb", "replay"] and sims.count("info") <= 1
    assert any(s.startswith("verilator") for s in steps)  # and so did the build (trusted)
    assert all(not untrusted for name, untrusted in journal.calls if name != "sim")
    ref = Engine(EngineConfig(sandbox="rlimit", cache_dir=tmp_path / "b", use_cache=False, run_seconds=20))
    base = ref.score(design, TB)
    assert res.coverage == base.coverage and res.overall == base.overall > 0

    monkeypatch.setenv("ECOV_SANDBOX", journal.name)  # auto follows the explicit choice, by registered name
    assert type(make_sandbox("auto")) is JournalSandbox


def test_names_cannot_be_taken_over_and_unknown_is_an_error():
    class Impostor(JournalSandbox):
        name = "bwrap"

    with pytest.raises(registry.RegistryError, match="registered already"):
        registry.register("sandbox", "bwrap", Impostor)
    with pytest.raises(ValueError, match="unknown sandbox 'nope': choose auto, bwrap"):
        make_sandbox("nope")
    with pytest.raises(TypeError):  # the interface is abstract: a backend must say how it runs a command
        type("NoRun", (Sandbox,), {"name": "norun"})()
