"""The embedded suite (harness/suite): every task folder is well formed, its reference testbench passes
the engine's test rules, and representative references really meet their targets under Verilator while
plain random stimulus does not.

Only three Verilator builds run here (two references, one random testbench); the full calibration of
every task is ``ecov-data validate ecov-embedded``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ecov.harness.benchmark.builders.embedded import load_suite, suite_root
from ecov.harness.core.records import ALL_METRICS, OK
from ecov.harness.hdl.text import module_names
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.rules import check_testbench
from ecov.harness.tracks.sv.scorer import Engine

SUITE = Path(str(suite_root()))
TASK_DIRS = sorted(d for d in SUITE.iterdir() if (d / "task.json").is_file())
IDS = [d.name for d in TASK_DIRS]
TASK_KEYS = {"id", "dut_module", "dut_instance", "difficulty", "instructions", "targets"}


def _meta(d: Path) -> dict:
    return json.loads((d / "task.json").read_text())


def _rtl(d: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((d / "rtl").glob("*.sv"))}


def _instances(rtl_text: str, module: str) -> set[str]:
    """Instance names declared in one module's body (``mod #(...) name (`` / ``mod name (``)."""
    body = re.search(rf"\bmodule\s+{module}\b(.*?)\bendmodule\b", rtl_text, re.S)
    assert body, f"module {module} not found"
    return set(re.findall(r"^\s*\w+\s*(?:#\s*\(.*?\)\s*)?(u_\w+)\s*\(", body.group(1), re.S | re.M))


def test_suite_has_about_a_dozen_tasks_of_every_difficulty():
    assert len(TASK_DIRS) >= 10
    assert {_meta(d)["difficulty"] for d in TASK_DIRS} == {"easy", "medium", "hard"}
    assert len({_meta(d)["dut_instance"] for d in TASK_DIRS}) >= 3  # instance names vary, like CVDP


@pytest.mark.parametrize("d", TASK_DIRS, ids=IDS)
def test_task_folder_is_well_formed(d: Path):
    meta = _meta(d)
    assert set(meta) == TASK_KEYS, f"unexpected keys {set(meta) ^ TASK_KEYS}"
    assert meta["id"] == d.name
    module, inst = meta["dut_module"], meta["dut_instance"]
    assert re.fullmatch(r"[A-Za-z_]\w*", inst)

    rtl = _rtl(d)
    assert rtl, "no rtl/*.sv"
    all_rtl = "\n".join(rtl.values())
    for name, text in rtl.items():
        assert text.startswith("// SPDX-License-Identifier: Apache-2.0"), f"{name}: no SPDX header"
    assert module in module_names(all_rtl)

    # The instructions name the module, the instance and every target; the spec documents the module.
    instr = meta["instructions"]
    assert f"`{module}`" in instr and f"`{inst}`" in instr and "$finish" in instr
    spec = (d / "spec.md").read_text()
    assert spec.startswith(f"# {module}") and "| Port |" in spec

    targets = meta["targets"]
    assert 1 <= len(targets) <= 3
    subs = _instances(all_rtl, module)
    for t in targets:
        assert set(t) == {"instance", "metric", "percent"}
        assert t["metric"] in ALL_METRICS and t["metric"] != "user"
        assert 0 < t["percent"] <= 100
        path = t["instance"].split(".")
        assert path[0] == inst, f"target instance {t['instance']} is not under {inst}"
        assert f"`{t['instance']}`" in instr
        if len(path) > 1:
            assert len(path) == 2 and path[1] in subs, f"{t['instance']}: no such sub-instance in {module}"
            # Verilator merges identical instances of one module under a wildcard path; a target on
            # such an instance could never be read back, so it must be the only one of its module.
            owner = re.search(rf"^\s*(\w+)\s*(?:#\s*\(.*?\)\s*)?{path[1]}\s*\(", all_rtl, re.S | re.M)
            assert len(re.findall(rf"^\s*{owner.group(1)}\b", all_rtl, re.M)) == 1

    ref = (d / "ref_tb.sv").read_text()
    assert re.search(rf"\b{module}\b(\s*#\s*\(.*?\))?\s+{inst}\s*\(", ref, re.S), "ref_tb does not instantiate the DUT"
    assert "$finish" in ref
    assert check_testbench(ref, module_names(all_rtl), list(rtl), inst) == []


def test_readme_table_lists_every_task_with_its_targets():
    rows = {}
    for line in (SUITE / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in IDS:
            rows[cells[0]] = cells
    assert sorted(rows) == IDS
    for d in TASK_DIRS:
        meta = _meta(d)
        want = ", ".join(f"{t['instance']} {t['metric']} >= {t['percent']:g}" for t in meta["targets"])
        assert rows[d.name][1] == meta["difficulty"] and rows[d.name][2] == want, d.name


def test_loader_reads_every_folder():
    tasks = load_suite()
    assert [t.id for t in tasks] == IDS
    for t in tasks:
        assert t.benchmark == "ecov-embedded"
        assert t.reference_tbs and t.spec_files and t.rtl_files
        assert t.design.instance == t.dut_instance


# --- real Verilator runs -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    # A private cache: the figures below must come from a real build, not an earlier result.
    return Engine(EngineConfig(cache_dir=tmp_path_factory.mktemp("ecov-cache")))


@pytest.fixture(scope="module")
def tasks() -> dict:
    return {t.id: t for t in load_suite()}


@pytest.mark.parametrize("task_id", ["uart", "seq_detector"])
def test_reference_meets_its_targets(engine, tasks, task_id):
    """uart has targets on a sub-instance (dut.u_rx); seq_detector is a small single-module FSM."""
    task = tasks[task_id]
    res = engine.score(task.design, task.reference_tbs[0].content)
    assert res.status == OK, res.errors or res.log_tail
    assert not res.cached
    for t in task.targets:
        assert res.metric_percent(t.instance, t.metric) >= t.percent, (t, res.coverage.get(t.instance))
    assert res.meets(task.targets)


def _random_tb(module: str, inst: str, inputs: list[str], cycles: int) -> str:
    """Uniform random values on every input each cycle after a reset: the baseline the suite must beat."""
    decl = "\n".join(f"  logic [31:0] {n} = 0;" for n in inputs)
    conns = ", ".join(f".{n}({n})" for n in ["clk", "rst_n", *inputs])
    drive = "\n".join(f"      {n} = $urandom;" for n in inputs)
    return f"""module tb;
  logic clk = 0, rst_n = 0;
{decl}
  always #5 clk = ~clk;
  {module} {inst} ({conns});
  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1;
    repeat ({cycles}) begin
{drive}
      @(posedge clk);
    end
    $finish;
  end
endmodule
"""


def test_plain_random_stimulus_misses_the_targets(engine, tasks):
    """The suite separates thoughtful testbenches from random ones: 5000 random cycles on the sequence
    detector never see an 8-cycle gap in a partial match or the saturated counter's clear path."""
    task = tasks["seq_detector"]
    tb = _random_tb(task.dut_module, task.dut_instance, ["din_valid", "din", "overlap", "clr_count"], 5000)
    res = engine.score(task.design, tb)
    assert res.status == OK, res.errors or res.log_tail
    assert not res.meets(task.targets)
    assert res.overall < max(t.percent for t in task.targets if t.metric == "overall")
