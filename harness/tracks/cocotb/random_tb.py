"""``builtin/random`` answering in Python for the cocotb track: the track's floor.

The plan both tracks share (ecov.harness.tracks.random_plan: ports and roles, reseeded
segments kept across agentic rounds so coverage never drops, more resets when reset logic is uncovered,
constants from uncovered code driven into the inputs named there), rendered as a cocotb test. The plan
travels in the testbench as a ``# ecov-random-plan:`` comment. Pure: the text depends only on (task,
sample, round, seed, last result).
"""

from __future__ import annotations

import json
from dataclasses import replace

from ecov.harness.tracks.cocotb import TB_FILE
from ecov.harness.tracks.random_plan import (
    CHANGES,
    DENSITIES,
    HALF_PERIODS,
    PLAN_TAG,
    PROFILES,
    Plan,
    StimulusRequest,
    make_plan,
    ports_and_roles,
)

PY_PLAN_TAG = "# ecov-random-plan: "
BASE_CYCLES = 2000  # Python stimulus costs more per cycle than SystemVerilog's: start shorter
MAX_CYCLES = 32_000


def _sv_tagged(testbench: str | None) -> str | None:
    """Our earlier Python testbench with its plan line in the SV baseline's form (make_plan reads that)."""
    if not testbench:
        return testbench
    return "\n".join(PLAN_TAG + ln[len(PY_PLAN_TAG):] if ln.startswith(PY_PLAN_TAG) else ln
                     for ln in testbench.splitlines())


def generate_cocotb(req: StimulusRequest, base_cycles: int = BASE_CYCLES) -> str:
    task = req.task
    _, roles = ports_and_roles(task)
    plan = make_plan(task, roles, replace(req, testbench=_sv_tagged(req.testbench)), base_cycles)
    while plan.cycles > MAX_CYCLES and len(plan.segments) > 1:
        plan.segments.pop(0)
    if plan.cycles > MAX_CYCLES:
        plan.segments[-1].cycles = MAX_CYCLES
    return f"{TB_FILE}\n```python\n{render(roles, plan)}```\n"


def render(roles, plan: Plan) -> str:
    data = [p for p in roles.data if not p.is_array]
    lines = [PY_PLAN_TAG + plan.to_json(),
             "# builtin/random: constrained-random stimulus on every input port (the cocotb track's baseline).",
             "import random", "", "import cocotb", "from cocotb.clock import Clock",
             "from cocotb.triggers import FallingEdge, Timer", "",
             f"SEGMENTS = {json.dumps([s.__dict__ for s in plan.segments], sort_keys=True)}",
             f"PROFILES = {list(map(list, PROFILES))}", f"DENSITIES = {list(DENSITIES)}",
             f"CHANGES = {list(CHANGES)}", "",
             "",
             ]
    # corner_values, inlined (the testbench cannot import the harness)
    lines += ["def corner_table(width):",
                  "    mask = (1 << width) - 1",
                  "    msb = 1 << (width - 1)",
                  "    alt = int('01' * ((width + 1) // 2), 2) & mask",
                  "    raw = [0, 1, 2, mask, mask - 1, msb, msb - 1, msb + 1, alt, alt ^ mask]",
                  "    out = []",
                  "    for v in raw:",
                  "        if (v & mask) not in out:",
                  "            out.append(v & mask)",
                  "    return out", "", ""]
    lines += [
        "def draw(rng, width, mode, density, hot, step):",
        "    mask = (1 << width) - 1",
        "    if hot and rng.randrange(100) < hot[0]:",
        "        return rng.choice(hot[1]) & mask",
        "    if mode == 0:",
        "        return 0",
        "    if mode == 1:",
        "        return mask",
        "    if mode == 2:",
        "        return (1 << (step % width)) & mask",
        "    if mode == 3:",
        "        return ~(1 << (step % width)) & mask",
        "    if mode == 4:",
        "        return rng.getrandbits(width)",
        "    if mode == 5:",
        "        return rng.choice(corner_table(width))",
        "    if mode == 6:",
        "        return step & mask",
        "    v = 0",
        "    for b in range(width):",
        "        if rng.randrange(100) < density:",
        "            v |= 1 << b",
        "    return v",
        "", "",
    ]
    widths = {p.name: p.width for p in data}
    lines.append(f"WIDTHS = {json.dumps(widths)}")
    lines += ["", "", "@cocotb.test()", "async def random_stimulus(dut):"]
    ins = [f"dut.{p.name}" for p in data]
    lines.append(f"    inputs = [{', '.join(f'({h}, {p.width}, {p.name!r})' for h, p in zip(ins, data, strict=True))}]")
    for i, c in enumerate(roles.clocks):
        lines.append(f"    cocotb.start_soon(Clock(dut.{c}, {2 * HALF_PERIODS[i % len(HALF_PERIODS)]}, unit='ns').start())")
    tick = f"FallingEdge(dut.{roles.clocks[0]})" if roles.clocks else "Timer(10, unit='ns')"
    resets = list(roles.resets.items())

    def set_reset(on: bool, indent: str) -> list[str]:
        return [f"{indent}dut.{r}.value = {int(on) ^ int(low)}" for r, low in resets]

    lines += ["    for handle, width, name in inputs:", "        handle.value = 0"]
    lines += set_reset(True, "    ")
    lines += ["    for _ in range(3):", f"        await {tick}"]
    lines += set_reset(False, "    ")
    lines += [
        "    step = 0",
        "    for seg in SEGMENTS:",
        "        rng = random.Random(seg['seed'])",
    ]
    lines += set_reset(True, "        ")
    lines += [f"        await {tick}", f"        await {tick}"]
    lines += set_reset(False, "        ")
    lines += [
        "        left = 0",
        "        cycles = seg['cycles']",
        "        while cycles > 0:",
        "            if left == 0:",
        "                left = rng.choice([16, 32, 64, 128, 256, 512, 1000])",
        "                weights = rng.choice(PROFILES)",
        "                plain = rng.randrange(3) == 0",
        "                modes = [4 if plain else rng.choices(range(8), weights)[0] for _ in inputs]",
        "                dens = [rng.choice(DENSITIES) for _ in inputs]",
        "                chg = [100 if plain else rng.choice(CHANGES) for _ in inputs]",
        "                resets_ok = rng.randrange(3) == 0",
        "            for k, (handle, width, name) in enumerate(inputs):",
        "                if rng.randrange(100) < chg[k] or step == 0:",
        "                    hot = seg['hot'].get(name)",
        "                    handle.value = draw(rng, width, modes[k], dens[k], (seg['hot_pct'], hot) if hot else None, step)",
    ]
    if resets:
        lines += ["            if resets_ok and rng.randrange(seg['reset_one_in']) == 0:"]
        lines += set_reset(True, "                ")
        lines += [f"                await {tick}"]
        lines += set_reset(False, "                ")
    lines += [f"            await {tick}", "            step += 1", "            left -= 1", "            cycles -= 1"]
    return "\n".join(lines) + "\n"
