"""Contamination-filter throughput: designs per CPU-second, and the projected time for 87k designs.

Training designs: VerilogEval's spec-to-rtl problems (prompt as the spec, ref.sv as the RTL) written as
CodeV-R1-style records, i.e. the shapes ``ecov-data build ecov-train`` reads. Evaluation set: cvdp-ecov +
ecov-embedded (autoeval-ecov is built from the same VerilogEval problems, so against it every design is a
hit and stops at the first pair, which would flatter the figure). Both filters run in the same process on
the same designs:

* baseline: ``ecov.trainers.contamination.ContaminationIndex`` (rouge-score LCS on every pair that passes
  the length bound), on the first ``--baseline-n`` designs (it is slow);
* fast: ``ecov.harness.benchmark.overlap`` (length bound, bag-of-tokens bound, bit-parallel exact LCS),
  one process, on all designs; then ``--jobs`` processes.

Their verdicts are compared on the baseline's designs (they must agree). Usage:

    python benchmarks/perf/contamination_speed.py --source ../shared/data/verilog-eval --jobs 2 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from pathlib import Path

from ecov.harness.benchmark.builders.ecov_train import record_task
from ecov.harness.benchmark.overlap import OverlapIndex, design_files, scan
from ecov.harness.benchmark.store import load_benchmark
from ecov.trainers.contamination import ContaminationIndex

CORPUS = 87_000


def verilog_eval_records(source: Path) -> list[dict]:
    folder = source / "dataset_spec-to-rtl" if (source / "dataset_spec-to-rtl").is_dir() else source
    out = []
    for prompt in sorted(folder.glob("Prob*_prompt.txt")):
        name = prompt.name[: -len("_prompt.txt")]
        ref = folder / f"{name}_ref.sv"
        if ref.is_file():
            rtl = re.sub(r"\bRefModule\b", "TopModule", ref.read_text())
            out.append({"problem_id": name, "question": [{"role": "system", "content": ""},
                                                         {"role": "user", "content": prompt.read_text()}],
                        "ground_truth": [{"role": "assistant", "content": rtl}]})
    return out


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, required=True, help="VerilogEval checkout (dataset_spec-to-rtl).")
    ap.add_argument("--against", nargs="+", default=["cvdp-ecov", "ecov-embedded"])
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--baseline-n", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()

    tasks = [record_task(r) for r in verilog_eval_records(a.source)]
    evals = [t for n in a.against for t in load_benchmark(n, "test")]
    designs = [(t.id, design_files(t)) for t in tasks]
    report: dict = {"designs": len(tasks), "eval_tasks": len(evals), "against": a.against,
                    "eval_files": sum(len(design_files(t)) for t in evals), "threshold": a.threshold}

    base = ContaminationIndex(evals, a.threshold, "rtl+spec")
    sub = tasks[: a.baseline_n]
    c0, w0 = cpu(), time.perf_counter()
    base_hits = {t.id: base._rouge([(n, c, len(c.split())) for n, c in design_files(t)]) for t in sub}
    bc, bw = cpu() - c0, time.perf_counter() - w0

    fast = OverlapIndex(evals, a.threshold)
    c0, w0 = cpu(), time.perf_counter()
    fast_hits = dict(scan(fast, designs, jobs=1))
    fc, fw = cpu() - c0, time.perf_counter() - w0

    c0, w0 = cpu(), time.perf_counter()
    par_hits = dict(scan(OverlapIndex(evals, a.threshold), designs, jobs=a.jobs, chunk=8))
    pc, pw = cpu() - c0, time.perf_counter() - w0

    disagree = [k for k in base_hits if (base_hits[k] is None) != (fast_hits[k] is None)]
    disagree += [k for k in fast_hits if (fast_hits[k] is None) != (par_hits[k] is None)]
    report.update({
        "baseline": {"designs": len(sub), "cpu_s": round(bc, 3), "wall_s": round(bw, 3),
                     "designs_per_cpu_s": round(len(sub) / bc, 2),
                     "hits": sum(h is not None for h in base_hits.values())},
        "fast_1proc": {"designs": len(tasks), "cpu_s": round(fc, 3), "wall_s": round(fw, 3),
                       "designs_per_cpu_s": round(len(tasks) / fc, 2),
                       "hits": sum(h is not None for h in fast_hits.values()), "pairs": dict(fast.stats)},
        f"fast_{a.jobs}proc": {"wall_s": round(pw, 3), "cpu_s_incl_children": round(pc, 3),
                               "designs_per_wall_s": round(len(tasks) / pw, 2)},
        "speedup_per_cpu_s": round((len(tasks) / fc) / (len(sub) / bc), 1),
        "verdicts_disagree": disagree,
    })
    rate = len(tasks) / fc
    report["projection_87k"] = {
        "cpu_hours_fast": round(CORPUS / rate / 3600, 3),
        "cpu_hours_baseline": round(CORPUS / (len(sub) / bc) / 3600, 1),
        "wall_hours_fast_on_16_cores": round(CORPUS / rate / 16 / 3600, 3),
        "scaled_to": f"{len(evals)} eval tasks; time grows about linearly with the evaluation files",
    }
    print(json.dumps(report, indent=2))
    if a.json:
        a.json.write_text(json.dumps(report, indent=2) + "\n")
    if disagree:
        raise SystemExit(f"verdicts differ on {disagree}")


if __name__ == "__main__":
    main()
