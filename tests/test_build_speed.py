"""Build speed without changed figures: phase timings, object reuse, unit planning, CPU slots.

Real Verilator builds (four, small); the unit planner and CPU slots are tested on plain files.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.core.records import Design, SourceFile
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.buildcache import MIN_UNIT_LINES, CpuSlots, ObjectCache, plan_units, unit_count
from ecov.harness.sim.verilator import CLANG, BuildOptions
from ecov.harness.tracks.sv.scorer import Engine

DUT = """
module dut(input logic clk, input logic rst, input logic [3:0] a, output logic [3:0] q, output logic odd);
  always_ff @(posedge clk) if (rst) q <= 0; else if (a[0]) q <= q + a; else q <= q - 1;
  assign odd = ^q ? (a != 0) : 1'b0;
endmodule
"""

# A helper module and a function of the testbench's own: neither may change the DUT's figures.
TB = """
module drv(input logic clk, output logic [3:0] v);
  initial v = 0;
  always @(negedge clk) v <= v + 4'd3;
endmodule
module tb;
  logic clk = 0, rst = 1;
  wire [3:0] a, q; wire odd;
  function automatic int twice(int x); return 2 * x; endfunction
  drv u_drv(.clk(clk), .v(a));
  dut uut(.*);
  always #5 clk = ~clk;
  initial begin
    repeat (2) @(negedge clk);
    rst = 0;
    repeat (twice(4)) @(negedge clk);
    $display("q=%0d", q);
    $finish;
  end
endmodule
"""

UNITY = BuildOptions(output_split=0, object_cache=False, tb_coverage=True, jobs=1)
FIGURES = ("status", "coverage", "overall", "uncovered", "uncovered_total", "errors")


@pytest.fixture(scope="module")
def design() -> Design:
    return Design((SourceFile("dut.sv", DUT),), "dut", "uut")


@pytest.fixture(scope="module")
def objects(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("objects")
    old = os.environ.get("ECOV_OBJECTS_DIR")
    os.environ["ECOV_OBJECTS_DIR"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("ECOV_OBJECTS_DIR", None)
    else:
        os.environ["ECOV_OBJECTS_DIR"] = old


def _engine(tmp: Path, build: BuildOptions) -> Engine:
    return Engine(EngineConfig(cache_dir=tmp, use_cache=False, run_seconds=20, build=build))


def test_same_figures_as_the_unity_build_and_reuse(design, objects, tmp_path):
    old = _engine(tmp_path, UNITY).score(design, TB)
    new_engine = _engine(tmp_path, BuildOptions(jobs=2))
    new = new_engine.score(design, TB)
    assert old.status == "ok", old.errors
    assert {k: old.to_dict()[k] for k in FIGURES} == {k: new.to_dict()[k] for k in FIGURES}
    assert 0 < old.overall < 100  # a discriminating design: some points are missed
    # phase timings: in the result, not in the deterministic figures
    # run 1's build and run, the replay, and the DUT-only build when this score made it (replay builds are
    # shared machine-wide, so an earlier score may have made it)
    assert {"verilate", "compile", "link", "run", "replay"} <= set(new.phases) <= {
        "verilate", "compile", "link", "run", "replay", "replay_build"}
    assert all(v >= 0 for v in new.phases.values())
    assert "phases" not in new.to_dict(timing=False) and "phases" in new.to_dict()
    assert list(objects.glob("models/*.json")), "the compiled model was not stored"
    # the same testbench under another seed: the score cache misses, the objects are reused
    again = new_engine.score(design, TB, seed=2)
    assert {k: again.to_dict()[k] for k in FIGURES} == {k: new.to_dict()[k] for k in FIGURES}
    assert again.phases["compile"] < new.phases["compile"]


def test_split_parallel_build_then_whole_model_reuse(design, objects, tmp_path, monkeypatch):
    """Two units compiled at once (as on an idle machine), then the same model again: only linked."""
    import tempfile

    from ecov.harness.core.paths import jobs_dir
    from ecov.harness.sandbox.base import Limits
    from ecov.harness.sim import buildcache, verilator
    from ecov.harness.tracks.sv.scorer import TB_FILE, _write_job

    monkeypatch.setattr(buildcache, "MIN_UNIT_LINES", 50)  # split even this small model
    monkeypatch.setattr(buildcache.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    slots = tmp_path / "slots"  # private tokens: other builds on this machine must not hold them
    monkeypatch.setattr(verilator, "CpuSlots", lambda folder, want: CpuSlots(slots, want, cores=2))
    eng = _engine(tmp_path, BuildOptions(jobs=2))
    results, jobs = [], []
    for _ in range(2):
        job = Path(tempfile.mkdtemp(prefix="job-", dir=jobs_dir()))  # the simulation runs as nobody
        jobs.append(job)
        sources = _write_job(job, design, TB.replace("q=%0d", "q is %0d"))
        results.append(eng.backend.build(job, sources, "tb", Limits(wall_seconds=120, cpu_seconds=120),
                                         tb_file=TB_FILE))
    first, second = results
    assert first.ok and second.ok, first.log + second.log
    assert first.jobs == 2 and first.units == 2 and first.reused_units == 0
    assert second.reused_units == second.units == 2 and second.phases["compile"] < first.phases["compile"]
    try:
        assert (jobs[1] / "sim").exists()
        assert (jobs[1] / "ecov_tb.vlt").exists()  # the testbench is not instrumented
        ran = eng.backend.run(jobs[1], 1, Limits(wall_seconds=20))
        assert ran.returncode == 0 and "q is" in ran.output and (jobs[1] / "coverage.dat").exists()
    finally:
        for job in jobs:
            shutil.rmtree(job, ignore_errors=True)


def _fake_obj(folder: Path, sizes: dict[str, int], header: str = "h") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Vtop.h").write_text(header)
    for name, n in sizes.items():
        (folder / name).write_text("".join(f"// {name} {i}\n" for i in range(n)))
    return folder


def test_plan_units_split_and_keys(tmp_path):
    sizes = {"Vtop.cpp": 90, "Vtop___024root__0.cpp": 4000, "Vtop___024root__1.cpp": 3000,
             "Vtop___024root__2.cpp": 3000, "Vtop___024root__10.cpp": 2000, "Vtop__main.cpp": 40}
    obj = _fake_obj(tmp_path / "a", sizes)
    one = plan_units(obj, "p", jobs=1)
    assert len(one) == 1 and set(one[0].files) == set(sizes)
    two = plan_units(obj, "p", jobs=2)
    assert len(two) == 2 and sorted(f for u in two for f in u.files) == sorted(sizes)
    # natural order: __2 before __10, and each file in exactly one unit
    order = [f for u in two for f in u.files]
    assert order.index("Vtop___024root__2.cpp") < order.index("Vtop___024root__10.cpp")
    # small models are not split: a unit below MIN_UNIT_LINES costs more than it saves
    assert unit_count(MIN_UNIT_LINES - 1, 8) == 1 and unit_count(10 * MIN_UNIT_LINES, 4) == 4
    # keys: stable, and sensitive to the prefix (flags), any header, and the unit's own files only
    assert [u.key for u in plan_units(obj, "p", jobs=2)] == [u.key for u in two]
    assert plan_units(obj, "q", jobs=1)[0].key != one[0].key
    (obj / "Vtop___024root__10.cpp").write_text("// changed\n" * 2000)
    changed = plan_units(obj, "p", jobs=2)
    assert changed[0].key == two[0].key and changed[1].key != two[1].key
    (obj / "Vtop.h").write_text("other")
    assert all(a.key != b.key for a, b in zip(plan_units(obj, "p", jobs=2), changed, strict=True))


def test_object_cache_roundtrip_and_prune(tmp_path):
    cache = ObjectCache(tmp_path / "objects")
    src = tmp_path / "x.o"
    src.write_bytes(b"\x7fELF object")
    assert not cache.fetch("ab" * 32, tmp_path / "y.o")
    cache.store("ab" * 32, src)
    assert cache.fetch("ab" * 32, tmp_path / "y.o") and (tmp_path / "y.o").read_bytes() == src.read_bytes()
    cache.store_model("m" * 64, [("ecov_unit0", "ab" * 32)])
    obj = tmp_path / "obj"
    obj.mkdir()
    assert cache.fetch_model("m" * 64, obj) == ["ecov_unit0.o"] and (obj / "ecov_unit0.o").exists()
    cache.store("cd" * 32, src)
    os.utime(cache.path("ab" * 32), (1, 1))  # the least recently used
    cache.prune(keep=1)
    assert [p.name for p in (tmp_path / "objects").glob("*/*.o")] == [f"{'cd' * 32}.o"]
    assert cache.fetch_model("m" * 64, obj) is None  # a model with a pruned unit is rebuilt


def test_cpu_slots_are_shared(tmp_path):
    with CpuSlots(tmp_path, want=2, cores=2) as a:
        assert 1 <= a.jobs <= 2
        with CpuSlots(tmp_path, want=2, cores=2) as b:
            # never more tokens held than cores, and a build always gets its own core
            assert len(a.held) + len(b.held) <= 2 and b.jobs >= 1
            if len(a.held) == 2:
                assert b.held == [] and b.jobs == 1
    with CpuSlots(tmp_path, want=1, cores=2) as c:
        assert c.jobs == 1 and len(c.held) == 1  # released tokens are free again


def test_runtime_holds_the_prebuilt_mains_and_the_pch(tmp_path):
    """The harness mains' prebuilt halves are built with the runtime (so a Docker image built from this
    tree holds them too); with clang, the PCH's code object and the runtime archive it links against."""
    from ecov.harness.sim.mainlib import LIB_SOURCES
    from ecov.harness.sim.verilator import PCH_LITE, RUNTIME_ARCHIVE, Runtime

    rt = Runtime(tmp_path)
    folder = rt.ensure()
    for name in LIB_SOURCES:
        assert rt.lib_object(name).stat().st_size > 0, name
    assert (folder / RUNTIME_ARCHIVE).stat().st_size > 0
    assert rt.pch_file(PCH_LITE).exists()
    if rt.clang:
        assert rt.pch_link(PCH_LITE) == [str(folder / f"{PCH_LITE}.pch.o"), str(folder / RUNTIME_ARCHIVE)]
    else:
        assert rt.pch_link(PCH_LITE) == []


@pytest.mark.skipif(not (shutil.which(CLANG) and shutil.which("g++")), reason=f"needs both {CLANG} and g++")
def test_clang_and_gxx_give_the_same_figures(design, tmp_path, monkeypatch):
    """The compiler is a matter of speed only: the same figures (coverage through the trusted replay, the
    legal ones under a contract, the uncovered list) from a g++ build and a clang build, each with its
    own runtime, PCH, prebuilt mains, objects and replay models."""
    task = next(t for t in load_benchmark("ecov-embedded") if t.id == "rr_arbiter")
    results = {}
    for compiler in ("g++", CLANG):
        monkeypatch.setenv("ECOV_CXX", shutil.which(compiler))
        monkeypatch.setenv("ECOV_OBJECTS_DIR", str(tmp_path / compiler / "objects"))
        engine = _engine(tmp_path / compiler, BuildOptions())
        assert engine.backend.runtime.clang == (compiler == CLANG)
        results[compiler] = [engine.score(design, TB), engine.score(task.design, task.reference_tbs[0].content)]
    for a, b in zip(results["g++"], results[CLANG], strict=True):
        assert a.status == "ok", a.errors
        da, db = a.to_dict(timing=False), b.to_dict(timing=False)
        da.pop("key", None), db.pop("key", None)
        assert da == db
    assert results["g++"][1].legal is not None  # the contract's figures were compared too
