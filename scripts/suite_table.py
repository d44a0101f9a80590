"""Rewrite the task table of harness/suite/README.md from real engine runs.

For every embedded task: the figure its reference testbench reaches on each target, and what a plain
random testbench reaches (reset, then `$urandom` on every input each cycle for 2000 cycles, seed 1).
Run from the repository root: `python scripts/suite_table.py` (one build per task and testbench).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.hdl.ports import parse_ports
from ecov.harness.tracks.sv.scorer import Engine

README = Path("harness/suite/README.md")
CYCLES = 2000


def plain_random_tb(module: str, inst: str, inputs: list[str], clocks: list[str], resets: list[str]) -> str:
    decl = "\n".join(f"  logic [63:0] {n} = 0;" for n in inputs)
    clk = "\n".join(f"  logic {c} = 0;\n  always #5 {c} = ~{c};" for c in clocks)
    rst = "\n".join(f"  logic {r} = {0 if r.endswith('_n') else 1};" for r in resets)
    conns = ", ".join(f".{n}({n})" for n in [*clocks, *resets, *inputs])
    drive = "\n".join(f"      {n} = {{$urandom, $urandom}};" for n in inputs)
    release = "\n".join(f"    {r} = {1 if r.endswith('_n') else 0};" for r in resets)
    wait = f"@(posedge {clocks[0]});" if clocks else "#10;"
    return f"""module tb;
{clk}
{rst}
{decl}
  {module} {inst} ({conns});
  initial begin
    repeat (2) {wait}
{release}
    repeat ({CYCLES}) begin
{drive}
      {wait}
    end
    $finish;
  end
endmodule
"""


def _figures(result, targets) -> str:
    return ", ".join(f"{result.metric_percent(t.instance, t.metric):g}" for t in targets)


def main() -> int:
    engine = Engine()
    rows = {}
    for task in load_suite():
        ports = parse_ports(task.design.files, task.dut_module)
        ins = [p.name for p in ports.ports if p.direction == "input"]
        clocks = [n for n in ins if re.fullmatch(r"(clk|clock)\w*", n)]
        resets = [n for n in ins if re.fullmatch(r"(rst|reset)\w*", n)]
        data = [n for n in ins if n not in clocks and n not in resets]
        ref = engine.score(task.design, task.reference_tbs[0].content)
        rnd = engine.score(task.design, plain_random_tb(task.dut_module, task.dut_instance, data, clocks, resets))
        rows[task.id] = (_figures(ref, task.targets), _figures(rnd, task.targets) if rnd.ran else rnd.status,
                         "yes" if rnd.meets(task.targets) else "no")
        print(task.id, rows[task.id], file=sys.stderr)
    lines = README.read_text().split("\n")
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in rows:
            cells[3:6] = rows[cells[0]]
            lines[i] = "| " + " | ".join(cells) + " |"
    README.write_text("\n".join(lines))
    print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
