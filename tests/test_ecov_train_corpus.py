"""The training corpus builder (`ecov-data build ecov-train`) and the fast ROUGE-L contamination filter.

The filter must give the released script's verdicts (``scripts/data_contamination_detect.py``: ROUGE-L F1
on whitespace tokens >= 0.5 on any file pair) while skipping pairs by exact upper bounds; so it is checked
against rouge-score on random token strings, and a contaminated design is disguised the ways a corpus
would (reformatted, comments added, renamed ports) and must still be caught.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from rouge_score import rouge_scorer

from ecov.harness.benchmark.builders.ecov_train import TrainOptions, build, record_task, top_modules
from ecov.harness.benchmark.overlap import OverlapIndex, design_files, lcs_length, rouge_l, scan
from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.cli.data import main as data_main
from ecov.harness.core.records import SourceFile
from ecov.harness.tasks import Task


class _Ws:
    def tokenize(self, text: str) -> list[str]:
        return text.split()


def test_rouge_l_equals_rouge_score_on_random_strings():
    sc = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_Ws())
    rng = random.Random(0)
    for _ in range(2000):
        voc = [chr(97 + i) for i in range(rng.randint(1, 12))]
        a = " ".join(rng.choices(voc, k=rng.randint(0, 90)))
        b = " ".join(rng.choices(voc, k=rng.randint(0, 150)))
        assert rouge_l(a.split(), b.split()) == pytest.approx(sc.score(a, b)["rougeL"].fmeasure, abs=1e-12)
    assert lcs_length("a b c d".split(), "x a c y d".split()) == 3


def _task(tid: str, rtl: str, spec: str = "") -> Task:
    return Task(tid, "t", [SourceFile("d.sv", rtl)], [SourceFile("s.txt", spec)] if spec else [], "m", "dut",
                "", [])


def test_bounds_never_skip_a_pair_that_reaches_the_threshold():
    """Brute force (exact ROUGE-L on every pair) and the index agree on every design."""
    rng = random.Random(1)
    voc = [f"t{i}" for i in range(8)]
    evals = [_task(f"e{i}", " ".join(rng.choices(voc, k=rng.randint(5, 60)))) for i in range(12)]
    index = OverlapIndex(evals, 0.5, "rtl")
    checked = 0
    for j in range(300):
        train = " ".join(rng.choices(voc[: rng.randint(2, 8)], k=rng.randint(3, 80)))
        brute = any(rouge_l(e.rtl_files[0].content.split(), train.split()) >= 0.5 for e in evals)
        hit = index.match(_task(f"x{j}", train))
        assert (hit is not None) == brute
        checked += brute
    assert 0 < checked < 300  # both verdicts occurred
    assert index.stats["length_bound"] + index.stats["bag_bound"] > 0  # and the bounds did skip pairs


def test_disguised_copies_of_an_evaluation_design_are_caught():
    emb = load_benchmark("ecov-embedded")
    alu = next(t for t in emb if t.id == "alu_flags")
    rtl = alu.rtl_files[0].content
    index = OverlapIndex(emb, 0.5)
    disguises = {
        "verbatim": rtl,
        "reindented": "\n".join("    " + line.strip() for line in rtl.splitlines()),
        "commented": "\n".join(line + "  // note" if i % 3 == 0 else line for i, line in enumerate(rtl.splitlines())),
        "half_renamed": rtl.replace("result", "res_q").replace(" a,", " op_a,"),
    }
    for how, text in disguises.items():
        hit = index.match_files([("dut.sv", text)])
        assert hit is not None and hit.eval_id == "alu_flags", how
    # A different design is not a hit, and the parallel scan gives the same verdicts as one process.
    other = next(t for t in emb if t.id != "alu_flags")
    designs = [(k, [("dut.sv", v)]) for k, v in disguises.items()] + [("unrelated", [("x.sv", "module q; endmodule")])]
    one = dict(scan(OverlapIndex([alu], 0.5), designs, jobs=1))
    two = dict(scan(OverlapIndex([alu], 0.5), designs, jobs=2, chunk=2))
    assert {k: v is None for k, v in one.items()} == {k: v is None for k, v in two.items()}
    assert one["unrelated"] is None and all(one[k] for k in disguises)
    assert design_files(other, "rtl") and OverlapIndex([alu], 0.5).match(other) is None


def _rec(pid, rtl, spec="Design spec."):
    return {"problem_id": pid, "question": [{"role": "system", "content": "sys"}, {"role": "user", "content": spec}],
            "ground_truth": [{"role": "assistant", "content": rtl}]}


SMALL = "module small(input logic a, output logic y);\n  assign y = ~a;\nendmodule\n"
LONG = "module big(input logic clk, input logic [7:0] d, output logic [7:0] q);\n" + "".join(
    f"  logic [7:0] r{i};\n  always_ff @(posedge clk) r{i} <= d ^ 8'd{i};\n" for i in range(40)) + \
    "  assign q = r0;\nendmodule\n"
TWO_TOPS = "module a1(input x); endmodule\nmodule a2(input y); endmodule\n"
WITH_SUB = "module leaf(input x); endmodule\nmodule top(input x);\n  leaf u_leaf (.x(x));\nendmodule\n"


def test_top_modules_and_record_task():
    assert top_modules(WITH_SUB) == ["top"]
    assert top_modules(TWO_TOPS) == ["a1", "a2"]
    t = record_task(_rec(7, WITH_SUB))
    assert (t.id, t.dut_module, t.dut_instance, [f.name for f in t.rtl_files], [f.name for f in t.spec_files]) == \
        ("codev_7", "top", "dut", ["dut.sv"], ["design_requirements.txt"])


def test_build_filters_single_top_length_and_contamination(tmp_path):
    alu = next(t for t in load_benchmark("ecov-embedded") if t.id == "alu_flags")
    recs = [_rec(1, SMALL), _rec(2, LONG), _rec(3, TWO_TOPS), _rec(4, alu.rtl_files[0].content), _rec(5, "")]
    src = tmp_path / "codev.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in recs))
    res = build(src, skip_bad=True, options=TrainOptions(tokenizer="whitespace", split_tokens=100,
                                                          against=("ecov-embedded",)))
    assert {t.id: t.difficulty for t in res.tasks} == {"codev_1": "short", "codev_2": "long"}
    why = {s.id: s.reason for s in res.skipped}
    assert "2 top modules" in why["codev_3"]
    assert why["codev_4"].startswith("contaminated: ROUGE-L") and "alu_flags" in why["codev_4"]
    assert "no RTL" in why["codev_5"]
    assert res.info["contamination"]["dropped"] == 1 and res.info["long"] == 1

    out = tmp_path / "built"
    r = CliRunner().invoke(data_main, ["build", "ecov-train", "--source", str(src), "--out", str(out),
                                       "--tokenizer", "whitespace", "--split-tokens", "100", "--against", "ecov-embedded",
                                       "--keep", "long",
                                       "--skip-bad", "--format", "jsonl"])
    assert r.exit_code == 0, r.output
    tasks = load_benchmark(str(out), "train")
    assert [t.id for t in tasks] == ["codev_2"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["benchmark"] == "ecov-train" and manifest["info"]["split"] == "train"


def test_build_refuses_a_missing_source(tmp_path):
    r = CliRunner().invoke(data_main, ["build", "ecov-train", "--source", str(tmp_path / "nope.jsonl"),
                                       "--out", str(tmp_path / "o"), "--tokenizer", "whitespace"])
    assert r.exit_code != 0 and "cannot build ecov-train" in r.output
