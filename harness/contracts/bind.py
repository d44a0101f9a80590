"""The harness file that puts a contract into the build, and what the run's harness main wrote back.

The file (``ecov_contract.sv``) is compiled after the testbench with coverage off (its code is not the
design's, so the DUT's points and figures do not change) and binds ``ecov_contract`` into every instance
of the DUT module. It starts with `` `resetall``/`` `undefineall`` so no macro or directive the
testbench left behind reaches it, and `` `timescale 1ns/1ps`` so the monitor's time is the harness's unit
whatever the testbench or the DUT declares (without it, a monitor bound into a DUT that declares no
timescale ran in the testbench's unit: a "10 ns" hold read as 10 ps under a `` `timescale 1ps``
testbench). Monitors read time with ``$realtime`` (``$time`` would round a 1 ps testbench's steps to
whole ns). Then the prelude:

- `` `ECOV_VIOLATION(rule)``: a DPI call into the harness main (ECOV_MAIN in sim/verilator.py). The first
  one records the rule and time (in ps) and writes a coverage snapshot (``legal.dat``); every one is counted. The
  run continues, so the paper-protocol figures stay those of the whole run.
- `` `ECOV_COVER(bin, expr)``: when ``expr`` holds, a DPI call marking the bin hit; the main records
  whether that first happened before any violation.

The testbench cannot reach any of it: every name starting with ``ecov_contract`` is refused by the rules
(so it can neither define, call, read nor write the monitor or its DPI functions), DPI and ``bind`` are
refused outright, and the files the main writes live in the private run folder.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ecov.harness.contracts.spec import INSTANCE, MODULE, Meta
from ecov.harness.core.records import Contract
from ecov.harness.core.safe_read import UnsafeFile, read_text

FILE = "ecov_contract.sv"
RESULT_FILE, SNAPSHOT_FILE = "contract.txt", "legal.dat"
RESULT_MAX_BYTES, SNAPSHOT_MAX_BYTES = 1 << 20, 256 << 20
VIOLATION_FN, BIN_FN = "ecov_contract_violation", "ecov_contract_bin"

PRELUDE = f"""`resetall
`undefineall
`timescale 1ns/1ps
import "DPI-C" function void {VIOLATION_FN}(input string rule, input longint t);
import "DPI-C" function void {BIN_FN}(input string name);
`define ECOV_VIOLATION(rule) begin {VIOLATION_FN}(`"rule`", longint'($realtime * 1000.0)); end
`define ECOV_COVER(name, expr) begin if (expr) {BIN_FN}(`"name`"); end
"""


@cache
def harness_digest() -> str:
    """The part of the harness file a contract's own text does not say (prelude, bind form): in a score's
    cache key, so a change here is never answered from an older cache entry."""
    return hashlib.sha256(harness_file(Contract(sv="", meta=""), Meta("", "DUT", "", (), (), (), ())).encode()).hexdigest()


def harness_file(contract: Contract, meta: Meta) -> str:
    """The text of ``ecov_contract.sv``: prelude, the contract, and the bind into the DUT module (passing
    the DUT's own values of ``bind_params``, so the monitor's port widths follow a testbench's overrides)."""
    params = ", ".join(f".{p}({p})" for p in meta.bind_params)
    return (f"{PRELUDE}{contract.sv.rstrip()}\n"
            f"`resetall\nbind {meta.dut_module} {MODULE} {'#(' + params + ') ' if params else ''}{INSTANCE} (.*);\n")


@dataclass
class ContractRun:
    """What the harness main wrote about the contract: the first violation, counts, bins."""

    first_rule: str | None = None
    first_time: int = 0  # ps
    counts: dict[str, int] = field(default_factory=dict)
    bins: dict[str, bool] = field(default_factory=dict)  # bin -> first hit before any violation
    snapshot: str | None = None  # legal.dat's text when a rule was broken
    error: str | None = None  # contract.txt or legal.dat was not a regular file the harness could read


_LINE = re.compile(r"^(violation|count|bin) (\w+) (-?\d+)$")


def read_contract_run(out: Path) -> ContractRun:
    """Parse ``contract.txt`` (and ``legal.dat``) from a run folder; empty when the main wrote none. Both
    are read as hostile files (core.safe_read); one that is not a plain regular file sets ``error``."""
    run = ContractRun()
    try:
        text = read_text(out / RESULT_FILE, RESULT_MAX_BYTES)
    except UnsafeFile as e:
        return ContractRun(error=f"the contract's result is unusable ({e.strerror})")
    if text is None:
        return run
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if not m:
            continue
        kind, name, num = m.group(1), m.group(2), int(m.group(3))
        if kind == "violation":
            run.first_rule, run.first_time = name, num
        elif kind == "count":
            run.counts[name] = num
        else:
            run.bins[name] = num == 1
    if run.first_rule is not None:
        try:
            run.snapshot = read_text(out / SNAPSHOT_FILE, SNAPSHOT_MAX_BYTES)
        except UnsafeFile as e:
            return ContractRun(error=f"the contract's coverage snapshot is unusable ({e.strerror})")
    return run


def ns_of_ps(ps: int) -> int | float:
    """A violation time for the result: whole ns as an int, otherwise ns with the ps digits."""
    return ps // 1000 if ps % 1000 == 0 else round(ps / 1000, 3)


def legal_figures(run: ContractRun, meta: Meta) -> dict:
    """The ``ScoreResult.legal`` fields that do not need the coverage (the engine adds ``coverage``)."""
    violation = None
    if run.first_rule is not None:
        rule = meta.rule(run.first_rule)
        violation = {"rule": run.first_rule, "time_ns": ns_of_ps(run.first_time),
                     "ports": list(rule.ports) if rule else [], "spec": rule.spec if rule else ""}
    kept = list(meta.bins)
    return {
        "violation": violation,
        "violations": dict(sorted(run.counts.items())),
        "bins": [b for b in kept if run.bins.get(b)],
        "bins_all": [b for b in kept if b in run.bins],
        "bins_total": len(kept),
    }


__all__ = ["FILE", "PRELUDE", "harness_digest", "ns_of_ps", "RESULT_FILE", "SNAPSHOT_FILE", "VIOLATION_FN", "BIN_FN", "harness_file",
           "ContractRun", "read_contract_run", "legal_figures"]
