"""The Docker sandbox, for real: a running engine, the project's image, the same figures as bubblewrap."""

from __future__ import annotations

import subprocess

import pytest

from ecov.harness.core.records import Design, SourceFile
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.sv.scorer import Engine

pytestmark = pytest.mark.docker

DUT = """
module acc(input logic clk, input logic rst, input logic [1:0] d, output logic [3:0] sum);
  always_ff @(posedge clk) if (rst) sum <= 0; else if (d != 0) sum <= sum + d;
endmodule
"""
TB = """
module tb;
  logic clk = 0, rst = 1; logic [1:0] d = 0; wire [3:0] sum;
  acc dut(.clk(clk), .rst(rst), .d(d), .sum(sum));
  always #5 clk = ~clk;
  initial begin
    @(negedge clk) rst = 0;
    repeat (6) begin @(negedge clk) d = $urandom_range(0, 3); end
    $finish;
  end
endmodule
"""


def _docker_ready() -> bool:
    try:
        if subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode != 0:
            return False
        return subprocess.run(["docker", "image", "inspect", "ecov-base:bookworm"], capture_output=True,
                              timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="module")
def docker_engine(tmp_path_factory):
    if not _docker_ready():
        pytest.skip("no Docker engine with the ecov-base:bookworm image (run scripts/docker-base.sh)")
    return Engine(EngineConfig(sandbox="docker", cache_dir=tmp_path_factory.mktemp("dcache"), run_seconds=30))


def test_docker_matches_bwrap(docker_engine, tmp_path):
    design = Design((SourceFile("acc.sv", DUT),), "acc", "dut")
    in_docker = docker_engine.score(design, TB, seed=3)
    assert in_docker.isolation == "docker"
    assert in_docker.status == "ok", in_docker.errors + [in_docker.log_tail]
    local = Engine(EngineConfig(cache_dir=tmp_path, use_cache=False)).score(design, TB, seed=3)
    assert local.status == "ok"
    assert in_docker.coverage == local.coverage
    assert in_docker.uncovered == local.uncovered


def test_docker_limits(docker_engine):
    design = Design((SourceFile("acc.sv", DUT),), "acc", "dut")
    spam = TB.replace("$finish;", 'forever begin #1 $display("spam spam spam"); end')
    eng = Engine(EngineConfig(sandbox="docker", use_cache=False, run_seconds=30, output_bytes=10_000))
    res = eng.score(design, spam)
    assert res.status == "crashed" and "printed more than 10000 bytes" in res.errors[0]
    slow = Engine(EngineConfig(sandbox="docker", use_cache=False, run_seconds=3))
    res = slow.score(design, TB.replace("$finish;", "forever #1 d = ~d;"))
    assert res.status == "timeout"
