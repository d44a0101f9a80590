"""``builtin/random``: the constrained-random baseline every LLM must beat.

It reads no chat: it parses the DUT top's ports, finds clocks and resets, and writes a testbench that
resets the design properly and then drives every data input with a phase-varying bias mix (zeros,
ones, walking ones/zeros, uniform random, corner values, holds, and "hot" constants), with occasional
mid-run resets. Phases (16 to ~1000 cycles) redraw the mix, each input's change rate (every cycle ...
held for the whole phase) and its bit density (3% ... 97% of bits high), so that FIFOs fill and drain,
requests stay pending long enough for watchdogs, and counters run long in one direction.

In an agentic round (``req.result`` given) it reads the last score. The stimulus is a list of reseeded
segments, written into the testbench as a plan comment: a new round replays the earlier segments
(coverage cannot drop) and appends one twice as long, with a fresh seed, far more resets when reset
logic is uncovered, and the constants found in uncovered lines and conditions (``4'hf``, ``== 200``)
driven into the inputs named there. After a timeout it starts over with a quarter of the length.

The answer is formatted as the llm4cov protocol asks (both protocols' parsers accept it): a
``filename: tb_<dut>.sv`` line, then a fenced ``systemverilog`` block. The text is a pure function of
(task, sample, round, seed, last result). Under the llm4cov protocol the agent hands it a result with no
uncovered points (that protocol's feedback shows none), so rounds only append longer, reseeded segments.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field

from ecov.harness.models.base import Completion, ModelError, ModelRequest
from ecov.harness.models.ports import INPUT, ModulePorts, Port, PortParseError, Roles, classify, parse_ports
from ecov.harness.records import OK, TIMEOUT, ScoreResult
from ecov.harness.tasks import Task

NAME = "builtin/random"
BASE_CYCLES = 4000
MAX_CYCLES = 128_000
MIN_CYCLES = 500
RESET_ONE_IN = 200  # mid-run reset chance per cycle in the third of phases that allow resets
RESET_ONE_IN_HOT = 40  # when reset logic is uncovered
MAX_HOT = 24  # hot constants kept per input
HALF_PERIODS = (5, 7, 11, 13, 17, 19, 23)  # ns; distinct primes keep several clocks out of phase

# Mode weights per phase profile: zero, ones, walk1, walk0, uniform, corner, sweep (+1 per change),
# bits (per-bit density).
PROFILES = (
    (5, 5, 5, 5, 50, 10, 5, 15),  # mostly uniform
    (10, 10, 10, 10, 10, 35, 5, 10),  # corner-heavy
    (5, 10, 5, 5, 15, 10, 5, 45),  # per-bit density: vectors of requests/enables mostly high or low
    (30, 5, 5, 5, 25, 10, 5, 15),  # sparse: mostly zeros
    (5, 5, 5, 5, 20, 10, 40, 10),  # sweeps: addresses and counters walk through every value
)
DENSITIES = (3, 10, 25, 50, 50, 50, 75, 90, 97)  # percent of bits high, drawn per phase and input
CHANGES = (100, 100, 100, 30, 5, 0)  # percent chance an input takes a new value in a cycle (0: held all phase)
# 1-bit inputs spend some phases as a periodic wave (button presses, strobes, serial bits): high and
# low run lengths drawn from this list.
RUN_LENGTHS = (1, 2, 3, 5, 8, 12, 20, 32, 50, 80)
WAVE_ONE_IN = 4  # chance (1 in N) that a 1-bit input is a wave in a biased phase
PLAIN_ONE_IN = 3  # chance (1 in N) that a phase is plain uniform random (what a naive baseline does)
PLAN_TAG = "// ecov-random-plan: "


@dataclass
class Segment:
    """One reseeded stretch of stimulus: reset, then ``cycles`` cycles of phases."""

    seed: int
    cycles: int
    reset_one_in: int = RESET_ONE_IN
    hot: dict[str, list[int]] = field(default_factory=dict)
    hot_pct: int = 0


@dataclass
class Plan:
    """The segments to run, in order. An agentic round keeps the earlier rounds' segments (so coverage
    never drops) and appends a longer one steered by the last result."""

    segments: list[Segment]
    round: int = 0
    sample: int = 0

    @property
    def cycles(self) -> int:
        return sum(s.cycles for s in self.segments)

    def to_json(self) -> str:
        return json.dumps({"round": self.round, "sample": self.sample,
                           "segments": [asdict(s) for s in self.segments]}, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_testbench(cls, text: str | None) -> Plan | None:
        """The plan embedded in one of our earlier testbenches, None for any other text."""
        for line in (text or "").splitlines():
            if line.startswith(PLAN_TAG):
                try:
                    d = json.loads(line[len(PLAN_TAG):])
                    return cls([Segment(**s) for s in d["segments"]], d.get("round", 0), d.get("sample", 0))
                except (ValueError, TypeError, KeyError):
                    return None
        return None


class RandomModel:
    name = NAME

    def __init__(self, cycles: int = BASE_CYCLES):
        if cycles < 1:
            raise ModelError(f"builtin/random: cycles must be positive, got {cycles}")
        self.cycles = cycles

    def complete(self, req: ModelRequest) -> Completion:
        if getattr(req, "tb_lang", "sv") == "cocotb":
            from ecov.harness.tracks.cocotb.random_tb import generate_cocotb

            return Completion(text=generate_cocotb(req), model=NAME)
        return Completion(text=generate(req, base_cycles=self.cycles), model=NAME)


def ports_and_roles(task: Task) -> tuple[ModulePorts, Roles]:
    """The DUT's ports and what each is for (clock, reset, data), as every random generator needs them."""
    try:
        ports = parse_ports(task.rtl_files, task.dut_module)
    except PortParseError as e:
        raise ModelError(f"builtin/random: cannot read the ports of {task.dut_module}: {e}") from e
    return ports, classify(ports, "\n".join(f.content for f in task.rtl_files))


def generate(req: ModelRequest, base_cycles: int = BASE_CYCLES) -> str:
    task = req.task
    ports, roles = ports_and_roles(task)
    plan = make_plan(task, roles, req, base_cycles)
    tb = render(task, ports, roles, plan)
    return f"filename: tb_{task.dut_module}.sv\n```systemverilog\n{tb}```\n"


# --------------------------------------------------------------------------------------------
# Planning (uses the last result in agentic rounds)


def derive_seed(task_id: str, sample: int, round_: int, seed: int) -> int:
    h = hashlib.sha256(f"{task_id}|{sample}|{round_}|{seed}".encode()).hexdigest()
    return int(h[:8], 16) & 0x7FFFFFFF or 1


def make_plan(task: Task, roles: Roles, req: ModelRequest, base_cycles: int = BASE_CYCLES) -> Plan:
    seed = derive_seed(task.id, req.sample, req.round, req.seed)
    res = req.result
    if res is None:
        return Plan([Segment(seed, base_cycles)], req.round, req.sample)
    earlier = Plan.from_testbench(req.testbench)
    kept = list(earlier.segments) if earlier else []
    cycles = base_cycles * 2 ** min(req.round, 16)
    if res.status == TIMEOUT:  # the last run was too long: start over, shorter
        kept = []
        cycles = max(MIN_CYCLES, (earlier.cycles if earlier else base_cycles) // 4)
    room = MAX_CYCLES - sum(s.cycles for s in kept)
    if room < MIN_CYCLES:  # the budget is spent: keep the earliest segments that fit
        while kept and MAX_CYCLES - sum(s.cycles for s in kept) < base_cycles:
            kept.pop()
        room = MAX_CYCLES - sum(s.cycles for s in kept)
    seg = Segment(seed, max(MIN_CYCLES, min(cycles, room)))
    if roles.resets and reset_uncovered(res, roles):
        seg.reset_one_in = RESET_ONE_IN_HOT
    seg.hot = hot_values(res, roles.data)
    if seg.hot:
        seg.hot_pct = 30 if res.status == OK else 15
    return Plan([*kept, seg], req.round, req.sample)


_RESET_WORDS = re.compile(r"\b\w*(rst|reset)\w*\b", re.I)


def reset_uncovered(res: ScoreResult, roles: Roles) -> bool:
    names = set(roles.resets)
    for u in res.uncovered:
        blob = f"{u.text} {u.detail}"
        if names & set(re.findall(r"[A-Za-z_]\w*", blob)) or _RESET_WORDS.search(u.text):
            return True
    return False


_SIZED = re.compile(r"(\d+)?\s*'\s*[sS]?([hHdDbBoO])\s*([0-9a-fA-F_xXzZ?]+)")
_REL_DEC = re.compile(r"(?:==|!=|<=|>=|<|>)\s*(\d+)\b|\b(\d+)\s*(?:==|!=|<=|>=|<|>)|^\s*(\d+)\s*(?:,|:)")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def constants_in(text: str) -> list[int]:
    """Integer constants a condition compares against: sized literals and decimals next to relations."""
    values: list[int] = []
    for m in _SIZED.finditer(text):
        base = {"h": 16, "d": 10, "b": 2, "o": 8}[m.group(2).lower()]
        digits = re.sub(r"[xXzZ?]", "0", m.group(3).replace("_", ""))
        try:
            v = int(digits, base)
        except ValueError:
            continue
        if m.group(1):
            v &= (1 << int(m.group(1))) - 1
        values.append(v)
    stripped = _SIZED.sub(" ", text)
    for m in _REL_DEC.finditer(stripped):
        values.append(int(next(g for g in m.groups() if g is not None)))
    return values


def hot_values(res: ScoreResult, data: list[Port]) -> dict[str, list[int]]:
    """Constants from uncovered line/branch/expr points, for the inputs they mention (else all)."""
    wide = {p.name: p for p in data if p.width > 1 and not p.is_array}
    per: dict[str, Counter] = {n: Counter() for n in wide}
    pool: Counter = Counter()
    for u in res.uncovered:
        if u.metric == "toggle":
            continue
        blob = f"{u.text} {u.detail}" if u.metric in ("expr", "user") else u.text
        consts = constants_in(blob)
        if not consts:
            continue
        near = {v + d for v in consts for d in (0, 1, -1) if v + d >= 0}
        named = [n for n in _IDENT.findall(blob) if n in wide]
        for v in near:
            weight = 3 if v in consts else 1
            if named:
                for n in named:
                    per[n][v] += weight
            else:
                pool[v] += weight
    out: dict[str, list[int]] = {}
    for n, p in wide.items():
        merged = per[n] + Counter({v: c for v, c in pool.items()})
        mask = (1 << p.width) - 1
        # 0, 1 and all-ones are corner values already: keep the slots for the interesting constants.
        fits = [(c, v) for v, c in merged.items() if v <= mask and v not in (0, 1, mask)]
        fits.sort(key=lambda cv: (-cv[0], cv[1]))
        if fits:
            out[n] = sorted(v for _, v in fits[:MAX_HOT])
    return out


# --------------------------------------------------------------------------------------------
# Rendering


def corner_values(width: int) -> list[int]:
    mask = (1 << width) - 1
    msb = 1 << (width - 1)
    raw = [0, 1, 2, mask, mask - 1, msb, msb - 1, msb + 1,
           int("01" * ((width + 1) // 2), 2) & mask, int("10" * ((width + 1) // 2), 2) & mask]
    seen: list[int] = []
    for v in raw:
        v &= mask
        if v not in seen:
            seen.append(v)
    return seen


def lit(width: int, value: int) -> str:
    return f"{width}'h{value & ((1 << width) - 1):x}"


def decl(p: Port, kind: str) -> str:
    if p.type_name and kind == "logic":
        base = p.type_name
    else:
        sign = " signed" if p.signed else ""
        rng = f" [{p.width - 1}:0]" if p.width > 1 else ""
        base = f"{kind}{sign}{rng}"
    dims = "".join(f" [{lo}:{hi}]" for lo, hi in p.unpacked)
    return f"  {base} {p.name}{dims};"


def rand_expr(width: int) -> str:
    words = (width + 31) // 32
    inner = "$urandom()" if words == 1 else "{" + ", ".join(["$urandom()"] * words) + "}"
    return f"{width}'({inner})"


def _cast(p: Port, expr: str) -> str:
    return f"{p.type_name}'({expr})" if p.type_name else expr


def _is_bit(p: Port) -> bool:
    return p.width == 1 and not p.is_array and not p.type_name


def _case(selector: str, arms: list[tuple[str, str]], indent: str) -> list[str]:
    """A case statement whose last arm is the default (so every path assigns)."""
    out = [f"{indent}case ({selector})"]
    for i, (label, stmt) in enumerate(arms):
        out.append(f"{indent}  {'default' if i == len(arms) - 1 else label}: {stmt}")
    out.append(f"{indent}endcase")
    return out


def _hot_arms(p: Port, plan: Plan, indent: str) -> list[str]:
    """Mode 7: a constant from the uncovered points of the segment being run."""
    arms = []
    for i, seg in enumerate(plan.segments):
        values = seg.hot.get(p.name) or []
        if values:
            inner = _case(f"$urandom_range({len(values) - 1})",
                          [(str(k), f"{p.name} = {_cast(p, lit(p.width, v))};") for k, v in enumerate(values)],
                          indent + "    ")
            arms.append((str(i), "begin\n" + "\n".join(inner) + f"\n{indent}  end"))
    arms.append(("", f"{p.name} = {_cast(p, rand_expr(p.width))};"))
    return _case("ecov_seg", arms, indent)


def _vector_driver(p: Port, plan: Plan) -> list[str]:
    w, n = p.width, p.name
    hot = any(seg.hot.get(n) for seg in plan.segments)
    shift = f"({lit(w, 1)} << (ecov_cycle % {w}))"
    bits = (f"for (int ecov_k = 0; ecov_k < {w}; ecov_k++) {n}[ecov_k] = ($urandom_range(99) < ecov_dens_{n});"
            if not p.type_name else f"{n} = {_cast(p, rand_expr(w))};")
    sweep = f"{n} + {lit(w, 1)}" if not p.type_name else f"{w}'({n}) + {lit(w, 1)}"
    corners = [(str(k), f"{n} = {_cast(p, lit(w, v))};") for k, v in enumerate(corner_values(w))]
    lines = [f"    // {n}: {w} bits", f"    if (ecov_fresh || $urandom_range(99) < ecov_chg_{n}) begin"]
    if hot:
        lines.append("      if (ecov_hot_pct != 0 && $urandom_range(99) < ecov_hot_pct) ecov_m = 7;")
        lines.append("      else ecov_m = ecov_pick_mode();")
    else:
        lines.append("      ecov_m = ecov_pick_mode();")
    lines.append("      case (ecov_m)")
    lines.append(f"        0: {n} = {_cast(p, lit(w, 0))};")
    lines.append(f"        1: {n} = {_cast(p, lit(w, -1))};")
    lines.append(f"        2: {n} = {_cast(p, shift)};")
    lines.append(f"        3: {n} = {_cast(p, '~' + shift)};")
    lines.append(f"        4: {n} = {_cast(p, rand_expr(w))};")
    lines.append("        5: begin")
    lines.extend(_case(f"$urandom_range({len(corners) - 1})", corners, "          "))
    lines.append("        end")
    if hot:
        lines.append("        7: begin")
        lines.extend(_hot_arms(p, plan, "          "))
        lines.append("        end")
    lines.append(f"        6: {n} = {_cast(p, sweep)};")
    lines.append(f"        default: {bits}")
    lines.append("      endcase")
    lines.append("    end")
    return lines


def _array_driver(p: Port) -> list[str]:
    idx = [f"ecov_i{k}" for k in range(len(p.unpacked))]
    ref = p.name + "".join(f"[{i}]" for i in idx)
    w = p.width
    return [
        f"    // {p.name}: unpacked array of {w}-bit elements",
        f"    if (ecov_fresh || $urandom_range(99) < ecov_chg_{p.name}) begin",
        "      ecov_m = ecov_pick_mode();",
        f"      foreach ({p.name}[{', '.join(idx)}])",
        "        case (ecov_m)",
        f"          0: {ref} = {_cast(p, lit(w, 0))};",
        f"          1: {ref} = {_cast(p, lit(w, -1))};",
        f"          default: {ref} = {_cast(p, rand_expr(w))};",
        "        endcase",
        "    end",
    ]


def _bit_driver(p: Port) -> list[str]:
    n = p.name
    return [
        f"    if (ecov_wave_{n} != 0) begin",
        f"      if (ecov_run_{n} == 0) begin",
        f"        {n} = ~{n};",
        f"        ecov_run_{n} = {n} ? ecov_hi_{n} : ecov_lo_{n};",
        f"      end else ecov_run_{n}--;",
        f"    end else if (ecov_fresh || $urandom_range(99) < ecov_chg_{n}) {n} = ($urandom_range(99) < ecov_dens_{n});",
    ]


def _choice_function(name: str, values: tuple[int, ...]) -> list[str]:
    arms = [(str(i), f"return {v};") for i, v in enumerate(values)]
    return [f"  function automatic int unsigned {name}();",
            *_case(f"$urandom_range({len(values) - 1})", arms, "    "), "  endfunction", ""]


def render(task: Task, mp: ModulePorts, roles: Roles, plan: Plan) -> str:
    clocks, resets, data = roles.clocks, roles.resets, roles.data
    tick = f"@(negedge {clocks[0]})" if clocks else "#10"
    L: list[str] = []
    add = L.append
    add(f"// builtin/random: constrained-random testbench for {task.dut_module}")
    add(f"// task {task.id}, sample {plan.sample}, round {plan.round}: {len(plan.segments)} segment(s), "
        f"{plan.cycles} cycles")
    add(f"// clocks: {', '.join(clocks) or 'none'}; resets: "
        + (", ".join(f"{r} (active {'low' if lo else 'high'})" for r, lo in resets.items()) or "none"))
    add(PLAN_TAG + plan.to_json())
    add("`timescale 1ns/1ps")
    add("module tb;")
    for p in mp.ports:
        add(decl(p, "logic" if p.direction == INPUT else "wire"))
    add("")
    for v in ("cycle", "profile", "phase_left", "reset_left", "reset_one_in", "reset_on", "m", "seg", "hot_pct"):
        add(f"  int unsigned ecov_{v};")
    for p in data:
        add(f"  int unsigned ecov_dens_{p.name}, ecov_chg_{p.name};")
    for p in data:
        if _is_bit(p):
            add(f"  int unsigned ecov_wave_{p.name}, ecov_hi_{p.name}, ecov_lo_{p.name}, ecov_run_{p.name};")
    add("")
    add(f"  {task.dut_module} {task.dut_instance} (")
    add(",\n".join(f"    .{p.name}({p.name})" for p in mp.ports))
    add("  );")
    add("")
    for i, c in enumerate(clocks):
        add(f"  initial {c} = 1'b0;")
        add(f"  always #{HALF_PERIODS[i % len(HALF_PERIODS)]} {c} = ~{c};")
    if clocks:
        add("")
    add("  function automatic int unsigned ecov_pick_mode();")
    add("    int unsigned ecov_r;")
    add("    ecov_r = $urandom_range(99);")
    arms = []
    for k, weights in enumerate(PROFILES):
        acc, conds = 0, []
        for mode, wgt in enumerate(weights[:-1]):
            acc += wgt
            conds.append(f"if (ecov_r < {acc}) return {mode};")
        arms.append((str(k), f"begin {' else '.join(conds)} else return {len(weights) - 1}; end"))
    L.extend(_case("ecov_profile", arms, "    "))
    add("  endfunction")
    add("")
    L.extend(_choice_function("ecov_pick_density", DENSITIES))
    L.extend(_choice_function("ecov_pick_change", CHANGES))
    L.extend(_choice_function("ecov_pick_run", RUN_LENGTHS))
    add("  // A plain phase drives every input uniformly every cycle; the others bias each input on its own.")
    add("  task automatic ecov_new_phase();")
    add("    bit ecov_plain;")
    add(f"    ecov_plain = ($urandom_range({PLAIN_ONE_IN - 1}) == 0);")
    add(f"    ecov_profile = ecov_plain ? 0 : $urandom_range({len(PROFILES) - 1});")
    add("    ecov_phase_left = (16 << $urandom_range(5)) + $urandom_range(15);")
    add(f"    ecov_reset_on = (ecov_reset_one_in < {RESET_ONE_IN}) || ($urandom_range(2) == 0);")
    for p in data:
        add(f"    ecov_dens_{p.name} = ecov_plain ? 50 : ecov_pick_density();")
        add(f"    ecov_chg_{p.name} = ecov_plain ? 100 : ecov_pick_change();")
        if _is_bit(p):
            add(f"    ecov_wave_{p.name} = !ecov_plain && ($urandom_range({WAVE_ONE_IN - 1}) == 0);")
            add(f"    ecov_hi_{p.name} = ecov_pick_run();")
            add(f"    ecov_lo_{p.name} = ecov_pick_run();")
            add(f"    ecov_run_{p.name} = 0;")
    add("  endtask")
    add("")
    add("  task automatic ecov_drive_zero();")
    for p in data:
        if p.is_array:
            idx = [f"ecov_i{k}" for k in range(len(p.unpacked))]
            ref = p.name + "".join(f"[{i}]" for i in idx)
            add(f"    foreach ({p.name}[{', '.join(idx)}]) {ref} = {_cast(p, lit(p.width, 0))};")
        else:
            add(f"    {p.name} = {_cast(p, lit(p.width, 0))};")
    add("  endtask")
    add("")
    add("  task automatic ecov_drive(bit ecov_fresh);")
    for p in data:
        if _is_bit(p):
            L.extend(_bit_driver(p))
        elif p.is_array:
            L.extend(_array_driver(p))
        else:
            L.extend(_vector_driver(p, plan))
    add("  endtask")
    add("")
    add("  task automatic ecov_set_reset(bit ecov_active);")
    for r, low in resets.items():
        add(f"    {r} = {'~' if low else ''}ecov_active;")
    add("  endtask")
    add("")
    add("  // One segment: reset, then phases of biased stimulus with occasional mid-run resets.")
    add("  task automatic ecov_run(int unsigned ecov_cycles);")
    add("    bit ecov_fresh;")
    add("    ecov_new_phase();")
    add("    ecov_drive_zero();")
    add("    ecov_reset_left = 0;")
    if resets:
        add("    ecov_set_reset(1'b1);")
        add(f"    repeat (5) {tick};")
        add("    ecov_set_reset(1'b0);")
    else:
        add(f"    repeat (2) {tick};")
    add("    ecov_fresh = 1'b1;")
    add("    for (ecov_cycle = 0; ecov_cycle < ecov_cycles; ecov_cycle++) begin")
    add(f"      {tick};")
    add("      if (ecov_phase_left == 0) begin ecov_new_phase(); ecov_fresh = 1'b1; end")
    add("      else ecov_phase_left--;")
    if resets:
        add("      if (ecov_reset_left > 0) begin")
        add("        ecov_reset_left--;")
        add("        if (ecov_reset_left == 0) ecov_set_reset(1'b0);")
        add("      end else if (ecov_reset_on != 0 && $urandom_range(ecov_reset_one_in - 1) == 0) begin")
        add("        ecov_set_reset(1'b1);")
        add("        ecov_reset_left = 1 + $urandom_range(3);")
        add("      end")
    add("      ecov_drive(ecov_fresh);")
    add("      ecov_fresh = 1'b0;")
    add("    end")
    add("  endtask")
    add("")
    add("  initial begin")
    for i, seg in enumerate(plan.segments):
        add(f"    // segment {i}: {seg.cycles} cycles" + (f", constants for {', '.join(sorted(seg.hot))}" if seg.hot else ""))
        add(f"    ecov_seg = {i};")
        add(f"    void'($urandom(32'd{seg.seed}));")
        add(f"    ecov_reset_one_in = {seg.reset_one_in};")
        add(f"    ecov_hot_pct = {seg.hot_pct};")
        add(f"    ecov_run({seg.cycles});")
    add(f"    repeat (3) {tick};")
    add(f'    $display("builtin/random: %0d cycles done", {plan.cycles});')
    add("    $finish;")
    add("  end")
    add("endmodule")
    return "\n".join(L) + "\n"
