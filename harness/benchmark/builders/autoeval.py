"""autoeval-ecov: VerilogEval's spec-to-rtl problems turned into coverage tasks.

Per problem ``ProbNNN_name_{prompt.txt,ref.sv,test.sv}``:

* the DUT is the reference design with ``module RefModule`` renamed to the spec's ``TopModule``;
* the spec is the prompt (shown to the model as ``spec.txt``);
* VerilogEval's own ``test.sv`` becomes the calibration testbench: its ``TopModule top_module1``
  instance is renamed to the task's instance name and ``RefModule``'s source is appended so the
  golden model keeps its original name. It is never shown to a model.
* where ``benchmarks/autoeval-ecov/references/<problem>.sv`` exists, that testbench (ECov's own, written
  to obey the task's interface contract where VerilogEval's test breaks a stated input rule) is the
  FIRST calibration testbench (``ecov_<problem>.sv``), VerilogEval's follows.

VerilogEval gives no coverage target; the build writes a provisional ``overall`` 100% target that
``ecov-data validate --write-targets`` replaces by the calibrated rule (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from ecov.harness.benchmark.builders.common import (
    BuildResult,
    Skipped,
    SourceError,
    attach_references,
    read_text,
    rename_instance,
    rename_module,
    upstream_commit,
)
from ecov.harness.benchmark.spec import KIND, SHARED_DATA, BenchmarkSpec
from ecov.harness.core.records import SourceFile, Target
from ecov.harness.registry import register
from ecov.harness.tasks import Task

BENCHMARK = "autoeval-ecov"
DUT_MODULE = "TopModule"
DUT_INSTANCE = "dut"
UPSTREAM_INSTANCE = "top_module1"
LICENSE = "MIT (VerilogEval, NVIDIA Research Projects)"
UPSTREAM = "NVlabs/verilog-eval dataset_spec-to-rtl"

INSTRUCTIONS = (
    "`TopModule` implements the specification in spec.txt (a VerilogEval problem). Drive its inputs so "
    "that simulation exercises as much of the design as possible (lines, branches, expressions and "
    "signal toggles), and end the simulation with `$finish`."
)

# ECov's own reference testbenches (original work, never shown to a model), one per task id, for the few
# tasks whose interface contract VerilogEval's test.sv breaks.
REFERENCES = Path(__file__).resolve().parents[3] / "benchmarks" / BENCHMARK / "references"

_PROB_RE = re.compile(r"^(Prob\d+_\w+?)_prompt\.txt$")


def find_problems(source: Path) -> list[str]:
    """Problem names (``Prob001_zero``) under ``source`` or its ``dataset_spec-to-rtl`` folder."""
    folder = spec_to_rtl_dir(source)
    return sorted(m.group(1) for p in folder.iterdir() if (m := _PROB_RE.match(p.name)))


def spec_to_rtl_dir(source: Path) -> Path:
    if not source.exists():
        raise SourceError(f"VerilogEval source {source} does not exist")
    for d in (source, source / "dataset_spec-to-rtl"):
        if d.is_dir() and any(_PROB_RE.match(p.name) for p in d.iterdir()):
            return d
    raise SourceError(f"no ProbNNN_*_prompt.txt files in {source} or {source}/dataset_spec-to-rtl")


def adapt_testbench(test_sv: str, ref_sv: str, instance: str = DUT_INSTANCE) -> str:
    """VerilogEval's test.sv driving ``TopModule`` as ``instance``, with ``RefModule`` appended."""
    tb = rename_instance(test_sv, DUT_MODULE, UPSTREAM_INSTANCE, instance)
    return tb.rstrip() + "\n\n// ---- VerilogEval reference model (golden), kept as RefModule ----\n" + ref_sv


def build_problem(folder: Path, name: str, commit: str = "") -> Task:
    files = {kind: folder / f"{name}_{kind}" for kind in ("prompt.txt", "ref.sv", "test.sv")}
    missing = [p.name for p in files.values() if not p.is_file()]
    if missing:
        raise SourceError(f"{name}: missing {', '.join(missing)} in {folder}")
    prompt = read_text(files["prompt.txt"])
    ref = read_text(files["ref.sv"])
    test = read_text(files["test.sv"])
    if not prompt.strip():
        raise SourceError(f"{name}: empty prompt.txt")
    try:
        dut = rename_module(ref, "RefModule", DUT_MODULE)
        tb = adapt_testbench(test, ref)
    except SourceError as e:
        raise SourceError(f"{name}: {e}") from None
    return Task(
        id=name,
        benchmark=BENCHMARK,
        rtl_files=[SourceFile(f"{DUT_MODULE}.sv", dut)],
        spec_files=[SourceFile("spec.txt", prompt.strip() + "\n")],
        dut_module=DUT_MODULE,
        dut_instance=DUT_INSTANCE,
        instructions=INSTRUCTIONS,
        targets=[Target(DUT_INSTANCE, "overall", 100.0)],
        difficulty="",
        source={
            "upstream": UPSTREAM,
            "upstream_id": name,
            "commit": commit,
            "license": LICENSE,
            "target_rule": "autoeval-ecov",
            "calibration": "pending",
        },
        reference_tbs=[SourceFile("verilog_eval_test.sv", tb)],
    )


def build(source: Path, only: list[str] | None = None, skip_bad: bool = False,
          references: Path | None = REFERENCES) -> BuildResult:
    """Build every problem under ``source``; ``only`` restricts to problem names (a slice); ``references``
    is the folder of ECov's own reference testbenches (None: VerilogEval's only)."""
    source = Path(source)
    folder = spec_to_rtl_dir(source)
    names = find_problems(source)
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise SourceError(f"unknown VerilogEval problem(s): {', '.join(unknown)}")
        names = [n for n in names if n in set(only)]
    commit = upstream_commit(folder)
    res = BuildResult(BENCHMARK, source=str(source), info={"upstream": UPSTREAM, "commit": commit})
    for name in names:
        try:
            res.tasks.append(attach_references(build_problem(folder, name, commit), references))
        except SourceError as e:
            if not skip_bad:
                raise
            res.skipped.append(Skipped(name, str(e)))
    res.info["problems_found"] = len(names)
    return res


SPEC = register(KIND, BENCHMARK, BenchmarkSpec(
    name=BENCHMARK, license=LICENSE, target_rule="floor(ceiling)", build=build,
    default_source=SHARED_DATA / "verilog-eval", order=1, shipped=True, card="VerilogEval designs as coverage tasks"))
