"""Executors are track-blind: the Ray task body scores with the driver's scorer class (either track), the
driver's lookup answers prechecks for both, and only a cached scorer can go to Ray."""

from __future__ import annotations

import pytest

from ecov.harness.core.records import REJECTED, Design, SourceFile
from ecov.harness.sandbox.bwrap import bwrap_available
from ecov.harness.scoring.cached import CachedScorer
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.scoring.executor import ExecutorError, make_executor, score_job, worker_info
from ecov.harness.tracks.cocotb.scorer import CocotbEngine
from ecov.harness.tracks.sv.scorer import Engine

DESIGN = Design((SourceFile("dut.sv", "module dut(input logic clk, output logic q);\n"
                                      "  always_ff @(posedge clk) q <= ~q;\nendmodule\n"),), "dut", "uut")
PY_ESCAPE = ("import cocotb\nimport os\n\n@cocotb.test()\nasync def t(dut):\n    os.system('id')\n")


def test_only_a_cached_scorer_goes_to_ray():
    with pytest.raises(ExecutorError, match="needs a cached scorer"):
        make_executor("ray", object())


@pytest.mark.skipif(not bwrap_available(), reason="the cocotb track needs bubblewrap")
def test_the_ray_task_body_scores_in_the_drivers_track(tmp_path):
    cfg = EngineConfig(sandbox="bwrap", cache_dir=tmp_path)
    driver = CocotbEngine(cfg)
    assert isinstance(driver, CachedScorer)
    info = worker_info(CocotbEngine, cfg)
    assert info["identity"] == driver.identity() != Engine(cfg).identity()
    # A testbench the cocotb policy refuses: answered by the driver's lookup, and the same by a worker.
    known = driver.lookup(DESIGN, PY_ESCAPE, 1)
    assert known is not None and known.status == REJECTED
    out = score_job(CocotbEngine, cfg, DESIGN.to_dict(), PY_ESCAPE, 1)
    assert out["identity"] == driver.identity()
    assert out["result"]["status"] == REJECTED and out["result"]["errors"] == known.errors
    # The same text sent with the SV scorer class is read as SystemVerilog: another verdict entirely.
    sv = score_job(Engine, cfg, DESIGN.to_dict(), PY_ESCAPE, 1)
    assert sv["identity"] == Engine(cfg).identity() and sv["result"]["errors"] != known.errors
