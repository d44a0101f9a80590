"""The random stimulus plan both tracks' ``builtin/random`` renderers share: the floor every LLM must beat.

It reads no chat: it parses the DUT top's ports, finds clocks and resets, and plans a run that resets the
design properly and then drives every data input with a phase-varying bias mix (zeros, ones, walking
ones/zeros, uniform random, corner values, holds, and "hot" constants), with occasional mid-run resets.
Phases (16 to ~1000 cycles) redraw the mix, each input's change rate (every cycle ... held for the whole
phase) and its bit density (3% ... 97% of bits high), so that FIFOs fill and drain, requests stay pending
long enough for watchdogs, and counters run long in one direction.

In an agentic round (``req.result`` given) it reads the last score. The stimulus is a list of reseeded
segments, written into the testbench as a plan comment: a new round replays the earlier segments
(coverage cannot drop) and appends one twice as long, with a fresh seed, far more resets when reset
logic is uncovered, and the constants found in uncovered lines and conditions (``4'hf``, ``== 200``)
driven into the inputs named there. After a timeout it starts over with a quarter of the length.

Each track renders the plan in its language (ecov.harness.tracks.sv.random_tb, ecov.harness.tracks.cocotb.
random_tb); ecov.harness.models.builtin_random asks the run's track for its renderer. Pure: a plan depends
only on (task, sample, round, seed, last result).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Protocol

from ecov.harness.core.records import OK, TIMEOUT, ScoreResult
from ecov.harness.hdl.ports import ModulePorts, Port, PortParseError, Roles, classify, parse_ports
from ecov.harness.tasks import Task

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


class StimulusRequest(Protocol):
    """What a random renderer reads of a model request (ecov.harness.models.ModelRequest has it all)."""

    task: Task
    testbench: str | None
    result: ScoreResult | None
    round: int
    sample: int
    seed: int


class PlanError(ValueError):
    """The design's ports cannot be read: there is nothing to drive (the random model's ModelError)."""


def ports_and_roles(task: Task) -> tuple[ModulePorts, Roles]:
    """The DUT's ports and what each is for (clock, reset, data), as every random generator needs them."""
    try:
        ports = parse_ports(task.rtl_files, task.dut_module)
    except PortParseError as e:
        raise PlanError(f"builtin/random: cannot read the ports of {task.dut_module}: {e}") from e
    return ports, classify(ports, "\n".join(f.content for f in task.rtl_files))


# Planning (uses the last result in agentic rounds)


def derive_seed(task_id: str, sample: int, round_: int, seed: int) -> int:
    h = hashlib.sha256(f"{task_id}|{sample}|{round_}|{seed}".encode()).hexdigest()
    return int(h[:8], 16) & 0x7FFFFFFF or 1


def make_plan(task: Task, roles: Roles, req: StimulusRequest, base_cycles: int = BASE_CYCLES) -> Plan:
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
