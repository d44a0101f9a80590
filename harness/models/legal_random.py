"""``builtin/legal-random``: builtin/random's stimulus, made to obey the task's interface contract.

What a verification engineer writes as constrained random: the same plan and testbench as
``builtin/random`` (ecov.harness.tracks.sv.random_tb), plus one task run after every cycle's random draw
that applies the contract's machine-readable ``constraints`` (harness/contracts; kinds: ``range``,
``values``, ``zero``, ``onehot0``, ``pulse_when``, ``hold``, ``min_hold``, ``max_high``). It reads only those hints, never the
monitor's code. Without a contract (or constraints) it answers exactly as builtin/random. SystemVerilog
track only. The text is a pure function of (task, sample, round, seed, last result).
"""

from __future__ import annotations

import re
from typing import Any

from ecov.harness.contracts.spec import meta_of
from ecov.harness.hdl.ports import INPUT
from ecov.harness.models.base import MODEL, Completion, ModelError, ModelRequest
from ecov.harness.registry import register
from ecov.harness.tracks.base import get_track
from ecov.harness.tracks.random_plan import PlanError, ports_and_roles

NAME = "builtin/legal-random"
DRIVE_LINE = "      ecov_drive(ecov_fresh);\n"
ZERO_LINE = "    ecov_drive_zero();\n"
_COND = re.compile(r"^(!?)([A-Za-z_]\w*)(?:\s*(==|!=)\s*(\d+))?$")


class ConstraintError(ValueError):
    """A constraint that names no port of the DUT or is malformed."""


def _cond(expr: str, names: set[str]) -> str:
    """A ``while``/``when`` condition: a DUT port name, optionally negated with ``!``, or a port compared
    with a decimal constant (``o_status == 0``, ``state != 3``): what a multi-bit status output needs."""
    m = _COND.match((expr or "").strip())
    if not m or m.group(2) not in names or (m.group(1) and m.group(3)):
        raise ConstraintError(f"condition {expr!r} must be a DUT port name, optionally prefixed by '!', "
                              "or 'port == N' / 'port != N'")
    neg, name, op, value = m.groups()
    return f"({name} {op} {value})" if op else f"({neg}{name})"


def legalize_block(constraints: list[dict[str, Any]], widths: dict[str, int], outputs: set[str]) -> list[str]:
    """The SV declarations and ``ecov_legalize`` task that apply ``constraints`` to the inputs in ``widths``."""
    names = set(widths) | outputs
    body: list[str] = []
    holds: list[str] = []
    ages: list[str] = []
    for c in constraints:
        kind = c.get("kind")
        ports = [c["port"]] if "port" in c else list(c.get("ports") or [])
        for p in ports:
            if p not in widths:
                raise ConstraintError(f"constraint {c} names {p!r}, which is not an input of the DUT")
        if not ports:
            raise ConstraintError(f"constraint {c} names no port")
        p = ports[0]
        if kind == "range":
            lo, hi = int(c["min"]), int(c["max"])
            body.append(f"    if ({p} < {lo} || {p} > {hi}) {p} = {lo} + $urandom_range({hi - lo});")
        elif kind == "values":
            vals = [int(v) for v in c["values"]]
            cond = " || ".join(f"{p} == {v}" for v in vals)
            arms = " ".join(f"{i}: {p} = {v};" for i, v in enumerate(vals))
            body.append(f"    if (!({cond})) case ($urandom_range({len(vals) - 1})) {arms} default: ; endcase")
        elif kind == "zero":
            body += [f"    {q} = '0;" for q in ports]
        elif kind == "onehot0":
            w = widths[p]
            body.append(f"    if (!$onehot0({p})) {p} = ($urandom_range({w}) == {w}) ? '0 : ({w}'(1) << $urandom_range({w - 1}));")
        elif kind == "pulse_when":
            body += [f"    if (!{_cond(c['when'], names)}) {q} = '0;" for q in ports]
        elif kind == "hold":
            cond = _cond(c["while"], names)
            holds += [f"    if {cond} {q} = ecov_legal_prev_{q};" for q in ports]
        elif kind == "max_high":  # a strobe: a 1-bit input high for at most `cycles` cycles in a row
            n = int(c["cycles"])
            for q in ports:
                ages.append(q)
                holds += [f"    if ({q} && ecov_legal_prev_{q} && ecov_legal_age_{q} >= {n}) {q} = '0;",
                          f"    ecov_legal_age_{q} = ({q} && ecov_legal_prev_{q}) ? ecov_legal_age_{q} + 1 : {q};"]
        elif kind == "min_hold":
            n = int(c["cycles"])
            for q in ports:
                ages.append(q)
                holds += [f"    if ({q} != ecov_legal_prev_{q} && ecov_legal_age_{q} < {n}) {q} = ecov_legal_prev_{q};",
                          f"    ecov_legal_age_{q} = ({q} != ecov_legal_prev_{q}) ? 1 : ecov_legal_age_{q} + 1;"]
        else:
            raise ConstraintError(f"unknown constraint kind {kind!r}")
    held = sorted({m for h in holds for m in re.findall(r"ecov_legal_prev_(\w+)", h)})
    decls = [f"  logic [{widths[q] - 1}:0] ecov_legal_prev_{q};" for q in held]
    decls += [f"  int unsigned ecov_legal_age_{q} = 1000;" for q in sorted(set(ages))]
    task = ["  // builtin/legal-random: the task's interface constraints, applied after each random draw",
            "  task automatic ecov_legalize();", *body, *holds,
            *[f"    ecov_legal_prev_{q} = {q};" for q in held], "  endtask"]
    return decls + task


def legalize(answer: str, req: ModelRequest) -> str:
    """builtin/random's SV ``answer`` with the task's constraints applied every cycle."""
    task = req.task
    if task.contract is None:
        return answer
    constraints = list(meta_of(task.contract).constraints)
    if not constraints:
        return answer
    mp, _ = ports_and_roles(task)
    widths = {p.name: p.width for p in mp.ports if p.direction == INPUT}
    outputs = {p.name for p in mp.ports if p.direction != INPUT}
    block = "\n".join(legalize_block(constraints, widths, outputs)) + "\n"
    if DRIVE_LINE not in answer or "\nendmodule" not in answer:
        raise ModelError("builtin/legal-random: unexpected builtin/random testbench layout")
    text = answer.replace(DRIVE_LINE, DRIVE_LINE + "      ecov_legalize();\n", 1)
    text = text.replace(ZERO_LINE, ZERO_LINE + "    ecov_legalize();\n", 1)
    head, tail = text.rsplit("\nendmodule", 1)
    return head + "\n" + block + "endmodule" + tail


class LegalRandomModel:
    name = NAME
    # Its answers are a pure function of the request: the leaderboard's build re-makes them (leaderboard/verify.py).
    reproducible = True

    def __init__(self, cycles: int | None = None):
        if cycles is not None and cycles < 1:
            raise ModelError(f"{NAME}: cycles must be positive, got {cycles}")
        self.cycles = cycles

    def complete(self, req: ModelRequest) -> Completion:
        track = get_track(req.tb_lang)
        if not track.binds_contracts:  # legalize() edits the testbench of a track that binds contracts
            raise ModelError(f"{NAME} needs a track that binds interface contracts (the run's is {req.tb_lang!r})")
        try:
            text = legalize(track.random_answer(req, self.cycles), req)
        except (PlanError, ConstraintError) as e:
            raise ModelError(f"{NAME}: {e}") from e
        return Completion(text=text, model=NAME)


def make(*, extra: dict | None = None, **_) -> LegalRandomModel:
    """get_model's factory: ``extra`` may hold ``cycles`` (the round-0 run length)."""
    cycles = (extra or {}).get("cycles")
    return LegalRandomModel(cycles=None if cycles is None else int(cycles))


register(MODEL, NAME, make)
