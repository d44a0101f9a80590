"""The executor seam without a cluster: the local pool is Engine.score, Engine.lookup/remember share the
cache with it, and the CLIs refuse contradictory options with a clear message."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ecov.harness.core.records import Design, SourceFile
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.scoring.executor import ExecutorError, LocalExecutor, isolation_warning, make_executor
from ecov.harness.tracks.sv.scorer import Engine

DUT = """
module inv(input logic a, output logic y);
  assign y = ~a;
endmodule
"""
TB = """
module tb;
  logic a; wire y;
  inv dut(.a(a), .y(y));
  initial begin a = 0; #1 a = 1; #1 a = 0; #1 $finish; end
endmodule
"""


def test_local_executor_scores_and_shares_the_engine_cache(tmp_path):
    engine = Engine(EngineConfig(cache_dir=tmp_path))
    design = Design((SourceFile("inv.sv", DUT),), "inv", "dut")
    ex = make_executor("local", engine, workers=2)
    assert isinstance(ex, LocalExecutor) and ex.parallelism == 2
    assert engine.lookup(design, TB, 1) is None  # not scored yet: a build is needed
    first = ex(design, TB, 1)  # one real build
    assert first.status == "ok" and first.overall == 100.0 and not first.cached
    hit = engine.lookup(design, TB, 1)
    assert hit is not None and hit.cached and hit.coverage == first.coverage
    bad = TB.replace("initial begin", "initial begin $system(\"id\");")
    results = ex.map([(design, TB, 1), (design, bad, 1), (design, TB, 1)])
    assert [r.status for r in results] == ["ok", "rejected", "ok"]  # in order, no new build
    assert results[0].cached and results[2].cached

    # A result computed elsewhere (a Ray worker) lands in the same cache under the same key.
    other = Engine(EngineConfig(cache_dir=tmp_path / "other"))
    other.remember(design, TB, 1, first)
    assert other.lookup(design, TB, 1).coverage == first.coverage


def test_executor_errors_are_clear():
    with pytest.raises(ExecutorError, match="--ray-address needs --executor ray"):
        make_executor("local", Engine(EngineConfig()), address="127.0.0.1:1")
    with pytest.raises(ExecutorError, match="unknown executor"):
        make_executor("slurm", Engine(EngineConfig()))
    assert isolation_warning("bwrap") is None
    assert "NOT isolated" in isolation_warning("rlimit")


def test_cli_refuses_ray_address_without_ray(tmp_path):
    from ecov.harness.cli.eval import eval_cmd

    r = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--task-id", "prio_encoder", "--ray-address",
                                      "127.0.0.1:1", "--out", str(tmp_path / "run"), "--no-progress"])
    assert r.exit_code == 2 and "--ray-address needs --executor ray" in r.output
    assert not (tmp_path / "run").exists()
