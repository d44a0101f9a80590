"""Hash every prompt the product can send, to show a refactor leaves them byte-identical.

For each shipped benchmark, task, protocol (llm4cov, ecov; bughunt, SystemVerilog only) and track (sv, cocotb)
it builds, through the public prompt functions: the round-0 chat (direct and agentic), the memoryless state with a fixed
testbench and feedback, the state after an unusable answer (feedback, no testbench), the history turns,
and the feedback text both renderers give for a fixed score result. It prints one sha256 per
(benchmark, protocol, track), a total over the llm4cov and ecov rows (the same before and after the bug hunt
was added) and one over the bughunt rows. Run it before and after a change and diff the output:

    python scripts/prompt_hashes.py > before.txt
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from ecov.harness import registry
from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.records import ScoreResult, UncoveredPoint
from ecov.harness.tracks.base import tb_io
from ecov.harness.tracks.sv.prompts import build_messages, history_turns

BENCHMARKS = ("ecov-embedded", "cvdp-ecov", "autoeval-ecov")
PROTOCOLS = ("llm4cov", "ecov", "bughunt")
TRACKS = ("sv", "cocotb")
# The renderers each protocol's rows hash: llm4cov's and ecov's rows hash the two that existed before the
# bug hunt, so that adding a renderer leaves their digests as they were.
FEEDBACK = {"llm4cov": ("eda_summary", "uncovered"), "ecov": ("eda_summary", "uncovered"), "bughunt": ("bughunt",)}
FIXED_TB = {"sv": "module tb;\n  initial begin\n    #10 $finish;\n  end\nendmodule\n",
            "cocotb": "import cocotb\n\n\n@cocotb.test()\nasync def test_main(dut):\n    pass\n"}
FIXED_FEEDBACK = "Status: compiled and ran to $finish.\nCoverage: line 50.00% (1/2)"


def fixed_result(task) -> ScoreResult:
    inst = task.dut_instance
    cov = {inst: {"line": {"covered": 1, "total": 2, "percent": 50.0},
                  "branch": {"covered": 0, "total": 2, "percent": 0.0},
                  "overall": {"covered": 1, "total": 4, "percent": 25.0}}}
    unc = [UncoveredPoint(inst, "line", task.rtl_files[0].name, 3, "block", "x <= 1;"),
           UncoveredPoint(inst, "toggle", task.rtl_files[0].name, 4, "q[1]:0->1", "reg [3:0] q;")]
    return ScoreResult(status="ok", instance=inst, coverage=cov, overall=25.0, uncovered=unc,
                       uncovered_total=2, log_tail="- V e r i l a t i o n   R e p o r t")


def fixed_bughunt_results(task) -> list[ScoreResult]:
    """A passing bug hunt, a false alarm and a compile error whose errors name the testbench and the RTL."""
    base = fixed_result(task)
    ok = replace(base, bughunt={"status": "ok", "killed": 3, "total": 8, "kill_rate": 37.5})
    alarm = replace(base, status="crashed", bughunt={"status": "false_alarm", "killed": 0, "total": 8,
                                                     "kill_rate": 0.0, "failure": "tb.sv:12"})
    errors = ["%Error: testbench.sv:3:5: syntax error\n    3 | x\n      | ^",
              f"%Error: {task.rtl_files[0].name}:1:1: Cannot find: x\n    1 | secret"]
    broken = ScoreResult(status="compile_error", instance=task.dut_instance, errors=errors,
                         bughunt={"status": "compile_error", "killed": 0, "total": 8, "kill_rate": 0.0})
    return [ok, alarm, broken]


def prompts_of(task, protocol: str, track: str) -> list:
    proto = get_protocol(protocol)
    io = tb_io(proto, track)
    tb = FIXED_TB[track]
    out: list = [
        io.messages(task, None, None),  # round 0, direct and agentic
        io.messages(task, tb, FIXED_FEEDBACK),  # memoryless state (x_t, o_t)
        io.messages(task, None, FIXED_FEEDBACK),  # ecov: no usable testbench yet
        io.followup(FIXED_FEEDBACK, None),  # history turn after a full answer
        io.followup(FIXED_FEEDBACK, tb),  # history turn after a patch / unusable answer
        history_turns(task, proto, tb, FIXED_FEEDBACK, None),
        history_turns(task, proto, tb, FIXED_FEEDBACK, tb),
        [fn(res, task.targets) for name, fn in sorted(registry.items("feedback").items())
         if name in FEEDBACK[protocol]
         for res in (fixed_bughunt_results(task) if protocol == "bughunt" else [fixed_result(task)])],
    ]
    if track == "sv" and not proto.bughunt:  # what trainers/synth.py rebuilds
        out.append(build_messages(task, tb, FIXED_FEEDBACK, protocol))
        out.append(build_messages(task, None, None, protocol))
    return out


def main() -> None:
    total, bughunt = hashlib.sha256(), hashlib.sha256()
    for bench in BENCHMARKS:
        tasks = load_benchmark(bench)
        for protocol in PROTOCOLS:
            for track in TRACKS:
                if get_protocol(protocol).bughunt and track != "sv":
                    continue  # bug hunt is SystemVerilog-only (the cocotb track refuses it)
                h = hashlib.sha256()
                for task in tasks:
                    blob = json.dumps([task.id, prompts_of(task, protocol, track)], sort_keys=True,
                                      ensure_ascii=False)
                    h.update(blob.encode())
                digest = h.hexdigest()
                (bughunt if get_protocol(protocol).bughunt else total).update(digest.encode())
                print(f"{bench}\t{protocol}\t{track}\t{len(tasks)} tasks\t{digest}")
    print(f"total\t{total.hexdigest()}")
    print(f"total bughunt\t{bughunt.hexdigest()}")


if __name__ == "__main__":
    main()
