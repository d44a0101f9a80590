"""Builders read real upstream data from ../shared (a slice of it copied into tmp where the layout is
reshaped) and fail with a clear message on malformed sources. No simulation here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ecov.harness.benchmark.builders import autoeval, cvdp
from ecov.harness.benchmark.builders.common import SourceError, instance_from_prompt
from ecov.harness.cli.data import main
from ecov.harness.hdl.text import module_names

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
VEVAL = SHARED / "verilog-eval"
CVDP = SHARED / "cvdp-examples"
NONAGENTIC = CVDP / "cvdp_v1.1.0_example_nonagentic_code_generation_commercial_with_solutions.jsonl"
SLICE = ["Prob001_zero", "Prob004_vector2", "Prob030_popcount255"]

needs_shared = pytest.mark.skipif(not (VEVAL.is_dir() and CVDP.is_dir()), reason="../shared/data is not present")


def copy_slice(dst: Path, names: list[str]) -> Path:
    folder = dst / "dataset_spec-to-rtl"
    folder.mkdir(parents=True)
    for n in names:
        for kind in ("prompt.txt", "ref.sv", "test.sv"):
            shutil.copy(VEVAL / "dataset_spec-to-rtl" / f"{n}_{kind}", folder)
    return dst


def gf_datapoint() -> dict:
    return json.loads(NONAGENTIC.read_text().splitlines()[0])


def write_problem(root: Path, name: str, meta: dict | str | None, dut: bool = True, tb: bool = True) -> Path:
    """A per-problem folder made from the real CVDP gf_multiplier datapoint."""
    dp = gf_datapoint()
    p = root / name
    p.mkdir(parents=True)
    (p / "prompt.txt").write_text(dp["input"]["prompt"])
    if meta is not None:
        (p / "meta.json").write_text(meta if isinstance(meta, str) else json.dumps(meta))
    if dut:
        (p / "dut").mkdir()
        (p / "dut" / "gf_multiplier.sv").write_text(dp["harness"]["files"]["src/gf_multiplier.sv"])
    if tb:
        (p / "tb").mkdir()
        (p / "tb" / "gf_multiplier_tb.sv").write_text(dp["output"]["context"]["verif/gf_multiplier_tb.sv"])
    return p


# ---- autoeval-ecov ------------------------------------------------------------------------------------


@needs_shared
def test_autoeval_slice(tmp_path):
    res = autoeval.build(copy_slice(tmp_path, SLICE))
    assert [t.id for t in res.tasks] == SLICE and not res.skipped
    for t in res.tasks:
        upstream = VEVAL / "dataset_spec-to-rtl"
        assert t.benchmark == "autoeval-ecov" and t.dut_module == "TopModule" and t.dut_instance == "dut"
        assert module_names(t.rtl_files[0].content) == ["TopModule"]
        assert t.spec_files[0].content.strip() == (upstream / f"{t.id}_prompt.txt").read_text().strip()
        ref_tb = t.reference_tbs[0].content
        assert "TopModule dut (" in ref_tb and "top_module1" not in ref_tb
        assert "module RefModule" in ref_tb and "RefModule good1" in ref_tb
        assert t.source["license"].startswith("MIT") and t.targets[0].instance == "dut"
        # the calibration testbench is never part of what a model is shown
        assert all("RefModule" not in f.content for f in t.rtl_files + t.spec_files)


@needs_shared
def test_autoeval_ecov_reference_is_the_first_calibration_testbench(tmp_path):
    src = copy_slice(tmp_path / "src", SLICE)
    refs = tmp_path / "references"
    refs.mkdir()
    (refs / "Prob004_vector2.sv").write_text("module tb; TopModule dut (.*); initial $finish; endmodule\n")
    tasks = {t.id: t for t in autoeval.build(src, references=refs).tasks}
    t = tasks["Prob004_vector2"]
    # ECov's own testbench first (builtin/reference answers with it), VerilogEval's adapted test.sv after it
    assert [f.name for f in t.reference_tbs] == ["ecov_Prob004_vector2.sv", "verilog_eval_test.sv"]
    assert t.reference_tbs[0].content == (refs / "Prob004_vector2.sv").read_text()
    assert "RefModule good1" in t.reference_tbs[1].content and t.source["reference"] == "ecov"
    # only where the file exists
    for other in ("Prob001_zero", "Prob030_popcount255"):
        assert [f.name for f in tasks[other].reference_tbs] == ["verilog_eval_test.sv"]
        assert "reference" not in tasks[other].source
    assert [f.name for f in autoeval.build(src, references=None).tasks[1].reference_tbs] == ["verilog_eval_test.sv"]
    # the shipped folder: every file there names a VerilogEval problem, and its task gets it first
    shipped = sorted(p.stem for p in autoeval.REFERENCES.glob("*.sv"))
    if shipped:
        built = autoeval.build(VEVAL, only=shipped).tasks
        assert [[f.name for f in x.reference_tbs] for x in built] == \
            [[f"ecov_{x.id}.sv", "verilog_eval_test.sv"] for x in built]


@needs_shared
def test_autoeval_full_source_gives_156_tasks():
    res = autoeval.build(VEVAL)
    assert len(res.tasks) == 156 and res.skipped == []
    assert res.info["commit"] == (VEVAL / "UPSTREAM_COMMIT").read_text().strip()
    assert len({t.id for t in res.tasks}) == 156


@needs_shared
def test_autoeval_missing_file_is_a_clear_error(tmp_path):
    src = copy_slice(tmp_path, SLICE[:2])
    (src / "dataset_spec-to-rtl" / "Prob004_vector2_ref.sv").unlink()
    with pytest.raises(SourceError, match=r"Prob004_vector2: missing Prob004_vector2_ref\.sv"):
        autoeval.build(src)
    res = autoeval.build(src, skip_bad=True)
    assert [t.id for t in res.tasks] == ["Prob001_zero"]
    assert res.skipped[0].id == "Prob004_vector2" and "ref.sv" in res.skipped[0].reason


# ---- cvdp-ecov ----------------------------------------------------------------------------------------


@needs_shared
def test_cvdp_jsonl_keeps_cid012_and_lists_the_rest():
    res = cvdp.build(CVDP)
    assert [t.id for t in res.tasks] == ["cvdp_copilot_gf_multiplier_0039"]
    t = res.tasks[0]
    assert (t.dut_module, t.dut_instance, t.difficulty) == ("gf_multiplier", "uut", "easy")
    assert t.source["instance_from"] == "prompt" and t.source["upstream_target"] == "90"
    assert [(x.instance, x.metric, x.percent) for x in t.targets] == [("uut", "overall", 90.0)]
    assert [f.name for f in t.rtl_files] == ["gf_multiplier.sv"]
    # ECov's reference (benchmarks/cvdp-ecov/references, written to obey the contract) first, then CVDP's own
    assert [f.name for f in t.reference_tbs] == ["ecov_cvdp_copilot_gf_multiplier_0039.sv", "gf_multiplier_tb.sv"]
    assert cvdp.build(CVDP, references=None).tasks[0].reference_tbs[-1].name == "gf_multiplier_tb.sv"
    assert t.instructions.startswith("Develop a testbench")
    assert t.source["commit"] == (CVDP / "UPSTREAM_COMMIT").read_text().strip()
    [skip] = res.skipped
    assert skip.id == "cvdp_agentic_8x3_priority_encoder_0003" and "cid014" in skip.reason


@needs_shared
def test_cvdp_problem_folders_with_field_name_variants(tmp_path):
    write_problem(tmp_path, "p_a", {"id": "gf_a", "target": 90, "top": "gf_multiplier", "instance": "uut"})
    write_problem(tmp_path, "p_b", {"name": "gf_b", "TARGET": "85%", "module": "gf_multiplier",
                                    "metric": "toggle", "difficulty": "medium"}, tb=False)
    write_problem(tmp_path, "p_c", {"targets": [{"instance": "uut", "metric": "overall", "percent": 80},
                                                {"metric": "branch", "percent": 70}]})
    res = cvdp.build(tmp_path)
    by_id = {t.id: t for t in res.tasks}
    assert sorted(by_id) == ["gf_a", "gf_b", "p_c"] and not res.skipped
    ref = cvdp.from_datapoint(gf_datapoint())
    for t in by_id.values():
        assert t.rtl_files == ref.rtl_files and t.dut_module == "gf_multiplier" and t.dut_instance == "uut"
    assert by_id["gf_a"].reference_tbs == ref.reference_tbs
    assert by_id["gf_b"].reference_tbs == [] and by_id["gf_b"].difficulty == "medium"
    assert [(x.metric, x.percent) for x in by_id["gf_b"].targets] == [("toggle", 85.0)]
    assert [(x.instance, x.metric, x.percent) for x in by_id["p_c"].targets] == [
        ("uut", "overall", 80.0), ("uut", "branch", 70.0)]


@needs_shared
@pytest.mark.parametrize("meta,dut,message", [
    ({"top": "gf_multiplier"}, True, r"no target"),
    ('{"target": 90,', True, r"meta\.json: bad JSON"),
    ({"target": "ninety"}, True, r"target 'ninety' is not a number"),
    ({"target": 90, "metric": "fsm"}, True, r"coverage metric 'fsm' has no ECov equivalent"),
])
def test_cvdp_malformed_folder_is_a_clear_error(tmp_path, meta, dut, message):
    write_problem(tmp_path, "broken", meta, dut=dut)
    with pytest.raises(SourceError, match=message) as err:
        cvdp.build(tmp_path)
    assert "broken" in str(err.value)
    res = cvdp.build(tmp_path, skip_bad=True)
    assert res.tasks == [] and res.skipped[0].id == "broken" and res.skipped[0].reason.startswith("malformed")


@needs_shared
def test_cvdp_folder_without_rtl_is_left_out_with_the_reason(tmp_path):
    """The four upstream problems whose DUT did not survive: listed, never fatal."""
    write_problem(tmp_path, "no_rtl", {"target": 90}, dut=False)
    res = cvdp.build(tmp_path)
    assert res.tasks == [] and res.skipped[0].id == "no_rtl"
    assert "no DUT RTL" in res.skipped[0].reason


@needs_shared
def test_cvdp_bad_jsonl_and_missing_target(tmp_path):
    dp = gf_datapoint()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(dp) + "\n{not json\n")
    with pytest.raises(SourceError, match=r"bad\.jsonl:2: bad JSON"):
        cvdp.build(bad)
    dp["harness"]["files"]["src/.env"] = "HASH = 1\n"
    (tmp_path / "bad.jsonl").write_text(json.dumps(dp) + "\n")
    with pytest.raises(SourceError, match=r"cvdp_copilot_gf_multiplier_0039: src/\.env has no TARGET"):
        cvdp.build(bad)
    dp = gf_datapoint()
    del dp["harness"]["files"]["src/gf_multiplier.sv"]
    (tmp_path / "bad.jsonl").write_text(json.dumps(dp) + "\n")
    with pytest.raises(SourceError, match=r"no DUT RTL"):
        cvdp.build(bad)


def test_instance_from_prompt_phrasings():
    assert instance_from_prompt("The `gf_multiplier` module is instantiated as `uut`, with ...") == "uut"
    assert instance_from_prompt("Instantiate the DUT with the instance name `dut_0`.") == "dut_0"
    assert instance_from_prompt("Use the instance name **u_fifo** for the FIFO.") == "u_fifo"
    assert instance_from_prompt("The module should be instantiated with the name `i_top`.") == "i_top"
    assert instance_from_prompt("Write stimulus for the adder.") == ""


# ---- the CLI ------------------------------------------------------------------------------------------


@needs_shared
def test_cli_build_reports_counts_and_left_out(tmp_path):
    out = tmp_path / "cvdp"
    r = CliRunner().invoke(main, ["build", "cvdp-ecov", "--source", str(CVDP), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "cvdp-ecov: 1 tasks" in r.output and "cvdp_agentic_8x3_priority_encoder_0003: category cid014" in r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["count"] == 1 and manifest["skipped"][0]["id"] == "cvdp_agentic_8x3_priority_encoder_0003"
    assert manifest["calibration"] is None and manifest["dataset_hash"].startswith("sha256:")


@needs_shared
def test_cli_build_errors(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["build", "cvdp-ecov", "--source", str(tmp_path / "nope"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "does not exist" in r.output
    r = runner.invoke(main, ["build", "nonsense", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2
    write_problem(tmp_path / "src", "broken", {"top": "gf_multiplier"})
    r = runner.invoke(main, ["build", "cvdp-ecov", "--source", str(tmp_path / "src"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and "broken" in r.output and "no target" in r.output
    assert not (tmp_path / "o").exists()
    r = runner.invoke(main, ["build", "cvdp-ecov", "--source", str(tmp_path / "src"), "--out", str(tmp_path / "o"),
                             "--skip-bad"])
    assert r.exit_code == 1 and "no cvdp-ecov tasks" in r.output


@needs_shared
def test_cvdp_agentic_layout(tmp_path):
    """The agentic schema (context/patch/harness); the example is cid014, so relabel it to read it."""
    agentic = CVDP / "cvdp_v1.1.0_example_agentic_code_generation_commercial_with_solutions.jsonl"
    dp = json.loads(agentic.read_text().splitlines()[0])
    dp["categories"] = ["cid012", "easy"]
    t = cvdp.from_datapoint(dp)
    assert (t.dut_module, t.dut_instance, t.source["instance_from"]) == ("priority_encoder_8x3", "dut", "src/.env INST")
    assert [f.name for f in t.rtl_files] == ["priority_encoder.sv"]
    assert [f.name for f in t.reference_tbs] == ["priority_encoder_tb.sv"]
    assert [(x.instance, x.metric, x.percent) for x in t.targets] == [("dut", "overall", 100.0)]
