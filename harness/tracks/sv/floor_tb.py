"""The floor testbenches: what a task's target is worth when the testbench tests nothing (issue 32).

A target that a testbench with no stimulus meets measures nothing. Two floors, both generated from the
DUT top's ports like builtin/random (ecov.harness.tracks.random_plan.ports_and_roles):

- ``empty``: the DUT instantiated with every input held at 0, clocks included, for 100 ns, then ``$finish``;
- ``idle``: the clocks running and each reset asserted for 5 cycles then released, every other input held
  at 0, for 1000 cycles of the first clock (100 ns steps when the design has no clock).

Calibration scores both (ecov.harness.benchmark.calibrate) and ``ecov-data random-baseline`` records them per
task (random_baseline.json): a task whose target a floor meets is listed, never silently kept as a test.
"""

from __future__ import annotations

from ecov.harness.hdl.ports import INPUT
from ecov.harness.tasks import Task
from ecov.harness.tracks.random_plan import HALF_PERIODS, ports_and_roles
from ecov.harness.tracks.sv.random_tb import _cast, decl, lit

FLOORS = ("empty", "idle")
IDLE_CYCLES = 1000


def floor_testbench(task: Task, kind: str) -> str:
    """The ``empty`` or ``idle`` testbench of ``task`` (raises random_plan.PlanError when its ports cannot
    be read)."""
    if kind not in FLOORS:
        raise ValueError(f"unknown floor {kind!r}: one of {', '.join(FLOORS)}")
    mp, roles = ports_and_roles(task)
    clocks = roles.clocks if kind == "idle" else []
    resets = roles.resets if kind == "idle" else {}
    L = [f"// {kind} floor testbench for {task.dut_module} (task {task.id}): no stimulus", "`timescale 1ns/1ps",
         "module tb;"]
    L += [decl(p, "logic" if p.direction == INPUT else "wire") for p in mp.ports]
    L.append(f"  {task.dut_module} {task.dut_instance} (")
    L.append(",\n".join(f"    .{p.name}({p.name})" for p in mp.ports))
    L.append("  );")
    for i, c in enumerate(clocks):
        L.append(f"  always #{HALF_PERIODS[i % len(HALF_PERIODS)]} {c} = ~{c};")
    L.append("  initial begin")
    for p in mp.inputs:
        value = lit(p.width, 0)
        if p.name in resets:  # asserted first: active-high resets at 1, active-low at 0
            value = lit(p.width, 0 if resets[p.name] else 1)
        if p.is_array:
            idx = [f"ecov_i{k}" for k in range(len(p.unpacked))]
            L.append(f"    foreach ({p.name}[{', '.join(idx)}]) {p.name}{''.join(f'[{i}]' for i in idx)} = "
                     f"{_cast(p, value)};")
        else:
            L.append(f"    {p.name} = {_cast(p, value)};")
    if clocks:
        tick = f"@(negedge {clocks[0]})"
        L.append(f"    repeat (5) {tick};")
        L += [f"    {r} = 1'b{1 if low else 0};" for r, low in resets.items()]
        L.append(f"    repeat ({IDLE_CYCLES}) {tick};")
    elif kind == "idle":
        L += [f"    #100 {r} = 1'b{1 if low else 0};" for r, low in resets.items()]
        L.append(f"    #{100 * IDLE_CYCLES};")
    else:
        L.append("    #100;")
    L += ["    $finish;", "  end", "endmodule", ""]
    return "\n".join(L)


__all__ = ["FLOORS", "IDLE_CYCLES", "floor_testbench"]
