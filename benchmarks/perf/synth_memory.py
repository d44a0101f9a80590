"""Peak memory and time of stage-0 synth on a large run folder: streaming reader vs the whole-folder load.

Builds a synthetic ecov-eval run folder (``--rounds`` rounds: ``--tasks`` designs, 4-round agentic
samples under the ecov protocol, each line carrying what a real one does: the chat sent, the answer,
the testbench, the feedback and a score with coverage, uncovered points and a log tail), then runs, each
in a fresh process, the two ways of turning it into stage-0 rows and writing rows.raw.jsonl:

* ``old``: what synth did before it streamed: a pass over ``RunFolder.rounds()`` for the unknown-task
  warning, then ``finished_rounds`` (every RoundRecord of the folder in memory), then the rows
  (``old_trajectory_rows`` below, the former ``ecov.trainers.synth.trajectory_rows``);
* ``new``: ``ecov.trainers.runview.read_run`` (one pass, each line reduced as read) and
  ``ecov.trainers.synth.trajectory_rows``.

Both must write the same rows file (checked by digest). Reports each mode's peak RSS (``ru_maxrss``),
the part of it above the process's RSS before the synth, and wall seconds, and new/old ratios. Usage:

    python benchmarks/perf/synth_memory.py --rounds 200000 --json out.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.records import ScoreResult, SourceFile, Target, UncoveredPoint
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder, SampleRecord
from ecov.harness.core.state import StateTracker, round_key
from ecov.harness.evaluation.runner import finished_rounds
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import tb_io
from ecov.trainers.inject import strip_rules
from ecov.trainers.runview import coverage_of, read_run
from ecov.trainers.synth import Row, SynthStats, load_tasks, trajectory_rows, write_rows, write_tasks

ROUNDS_PER_SAMPLE = 4


# -- the synthetic folder ------------------------------------------------------------------------------

def make_task(i: int, rng: random.Random) -> Task:
    body = "".join(f"      4'd{j}: q <= q + 4'd{rng.randrange(16)};  // step {j} of design {i}\n" for j in range(16))
    rtl = (f"module dut{i} (input logic clk, input logic rst_n, input logic [3:0] sel, output logic [3:0] q);\n"
           f"  always_ff @(posedge clk or negedge rst_n) begin\n    if (!rst_n) q <= '0;\n    else case (sel)\n"
           f"{body}      default: q <= q;\n    endcase\n  end\nendmodule\n")
    spec = f"# dut{i}\n" + f"A counter that steps by a table selected by `sel` (design {i}).\n" * 8
    return Task(id=f"synthetic/dut{i}", benchmark="synthetic", rtl_files=[SourceFile(f"dut{i}.sv", rtl)],
                spec_files=[SourceFile("spec.md", spec)], dut_module=f"dut{i}", dut_instance="uut",
                instructions="Verify the design.", targets=[Target("uut", "line", 100.0)])


def make_result(rng: random.Random) -> dict:
    figs = {m: {"covered": (c := rng.randrange(10, 60)), "total": 60, "percent": round(100 * c / 60, 2)}
            for m in ("line", "branch", "toggle", "expr")}
    unc = [UncoveredPoint("uut", "line", "dut.sv", 5 + k, "if", f"      4'd{k}: q <= q + 4'd1;") for k in range(12)]
    res = ScoreResult("ok", "uut", {"uut": figs, "uut.sub": figs}, round(sum(f["percent"] for f in figs.values()) / 4, 2),
                      unc, len(unc), [], ["%Warning-WIDTH: truncated"], "- V e r i l a t i o n   R e p o r t\n" * 8)
    return res.to_dict()


def testbench(i: int, r: int, s: int) -> str:
    lines = "".join(f"    sel = 4'd{(k + r) % 16}; @(posedge clk);\n" for k in range(24))
    return (f"module tb;\n  logic clk = 0, rst_n = 0; logic [3:0] sel, q;\n  dut{i} uut (.*);\n"
            f"  always #5 clk = ~clk;\n  initial begin\n    #12 rst_n = 1;  // sample {s} round {r}\n{lines}"
            "    $finish;\n  end\nendmodule\n")


def build_folder(root: Path, rounds: int, n_tasks: int, seed: int = 0) -> tuple[Path, Path]:
    """The run folder and its task file; rounds of concurrent samples interleave as ecov-eval writes them."""
    rng = random.Random(seed)
    tasks = [make_task(i, rng) for i in range(n_tasks)]
    tasks_path = root / "tasks.jsonl"
    write_tasks(tasks_path, tasks)
    samples = rounds // ROUNDS_PER_SAMPLE
    per_task = -(-samples // n_tasks)
    folder = RunFolder(root / "run")
    folder.write_config(RunConfig(model="synthetic", mode="agentic", agent="memoryless", benchmark="synthetic",
                                  dataset_hash="synthetic", n_samples=per_task, max_rounds=ROUNDS_PER_SAMPLE,
                                  protocol="ecov"))
    io = tb_io(get_protocol("ecov"), "sv")
    with open(folder.rounds_path, "w") as rf, open(folder.samples_path, "w") as sf:
        for first in range(0, samples, 8):  # 8 samples in flight: their rounds interleave
            group = range(first, min(first + 8, samples))
            prev = {n: (None, None) for n in group}
            for r in range(ROUNDS_PER_SAMPLE):
                for n in group:
                    task = tasks[n % n_tasks]
                    tb = testbench(n % n_tasks, r, n)
                    fb = f"Coverage after round {r}: overall 40%. Uncovered lines 5-17 of dut.sv.\n" * 4
                    msgs = io.messages(task, *prev[n])
                    rec = RoundRecord(task.id, n // n_tasks, r, "h", f"Here is the testbench.\n\ntb.sv\n```systemverilog\n{tb}```\n",
                                      tb, "", fb, make_result(rng), False, messages=msgs)
                    rf.write(json.dumps(rec.to_dict(), sort_keys=True) + "\n")
                    prev[n] = (tb, fb)
            for n in group:
                sf.write(json.dumps(SampleRecord(tasks[n % n_tasks].id, n // n_tasks, ROUNDS_PER_SAMPLE, False, None,
                                                 True, 40.0, 40.0, [40.0] * ROUNDS_PER_SAMPLE).to_dict()) + "\n")
    return folder.root, tasks_path


# -- the former reader, kept for the comparison --------------------------------------------------------

def old_trajectory_rows(run: RunFolder, tasks: dict[str, Task]) -> tuple[list[Row], SynthStats]:
    """ecov.trainers.synth.trajectory_rows before it streamed: every RoundRecord of the folder in memory."""
    config = run.read_config()
    proto = get_protocol(config.protocol)
    io = tb_io(proto, config.tb_lang)
    stats, rows = SynthStats(), []
    for (task_id, sample), rounds in dict(sorted(finished_rounds(run).items())).items():
        stats.rounds += len(rounds)
        task = tasks[task_id]
        current, cur = [], ""
        for r in rounds:
            cur = r.testbench or cur
            current.append(cur)
        prev_tb, prev_fb, prev_cov, prev_round = None, None, 0.0, -1
        states: StateTracker = StateTracker(proto)
        for i, r in enumerate(rounds):
            if proto.memory == "best" and states.best is not None:
                prev_tb, prev_fb, prev_round, prev_cov = states.best
            prompt = io.messages(task, prev_tb, prev_fb)
            if r.messages:
                stats.prompt_checked += 1
                if strip_rules([{"role": m["role"], "content": m["content"]} for m in r.messages])[0] != prompt:
                    stats.prompt_mismatch += 1
            res = r.score()
            cov = coverage_of(res, task.targets)
            if r.testbench:
                states.add(round_key(r), (r.testbench, r.feedback, r.round, cov))
            state = {"key": f"{task_id}#s{sample}r{prev_round}@{run.root.name}", "sample": sample,
                     "round": prev_round, "coverage": round(prev_cov, 2)}
            meta = {"parse_error": r.parse_error, "status": res.status, "coverage": round(cov, 2),
                    "gain": round(cov - prev_cov, 2), "passed": bool(r.passed), "round": r.round,
                    "errors": res.errors[:3], "state_testbench": prev_tb or ""}
            rows.append(Row(task_id, 0, prompt, r.response, state, str(run.root), meta))
            prev_tb, prev_fb, prev_round = current[i] or None, r.feedback, r.round
            if r.testbench:
                prev_cov = cov
    stats.rows = len(rows)
    return rows, stats


# -- one measurement (a child process) -----------------------------------------------------------------

def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def measure(mode: str, folder: Path, tasks_path: Path, out: Path) -> dict:
    tasks = load_tasks(path=str(tasks_path))
    run = RunFolder(folder)
    before = rss_mb()
    t0 = time.perf_counter()
    if mode == "old":
        unknown = {r.task_id for r in run.rounds()} - set(tasks)
        rows, stats = old_trajectory_rows(run, tasks)
    else:
        view = read_run(run, tasks)
        unknown = view.task_ids - set(tasks)
        rows, stats = trajectory_rows(view, tasks)
        del view
    write_rows(out, rows)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"mode": mode, "seconds": round(seconds, 2), "peak_rss_mb": round(peak), "rss_before_mb": round(before),
            "peak_above_start_mb": round(peak - before), "rows": stats.rows, "rounds": stats.rounds,
            "prompt_mismatch": stats.prompt_mismatch, "unknown_tasks": len(unknown),
            "rows_sha256": hashlib.sha256(out.read_bytes()).hexdigest()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--tasks", type=int, default=2_000)
    ap.add_argument("--workdir", type=Path, default=None, help="where the folder is built (default: a temp dir)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--measure", choices=("old", "new"), help=argparse.SUPPRESS)
    ap.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--tasks-file", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.measure:  # the child
        print(json.dumps(measure(a.measure, a.folder, a.tasks_file, a.out)))
        return
    with tempfile.TemporaryDirectory(dir=a.workdir) as d:
        root = Path(d)
        t0 = time.perf_counter()
        folder, tasks_path = build_folder(root, a.rounds, a.tasks)
        size = (folder / "rounds.jsonl").stat().st_size
        print(f"built {a.rounds} rounds ({size / 2**20:.0f} MiB rounds.jsonl) in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
        res = {}
        for mode in ("new", "old"):
            cmd = [sys.executable, __file__, "--measure", mode, "--folder", str(folder), "--tasks-file",
                   str(tasks_path), "--out", str(root / f"rows.{mode}.jsonl")]
            res[mode] = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            print(json.dumps(res[mode]), file=sys.stderr)
            (root / f"rows.{mode}.jsonl").unlink()
    assert res["new"]["rows_sha256"] == res["old"]["rows_sha256"], "the two readers wrote different rows"
    summary = {"rounds": a.rounds, "tasks": a.tasks, "rounds_jsonl_mib": round(size / 2**20), **res,
               "peak_rss_ratio_new_over_old": round(res["new"]["peak_rss_mb"] / res["old"]["peak_rss_mb"], 3),
               "peak_above_start_ratio": round(res["new"]["peak_above_start_mb"]
                                               / max(1, res["old"]["peak_above_start_mb"]), 3),
               "time_ratio_new_over_old": round(res["new"]["seconds"] / res["old"]["seconds"], 3)}
    print(json.dumps(summary, indent=2))
    if a.json:
        a.json.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
