"""A contract monitor's self-test (issue 30): break every rule at every offset within a transaction and
expect the monitor to catch each break.

Each rule of a contract carries a ``breaks`` description in contract.json: what kind of rule it is, on which
ports, sampled at which clock, and (for rules about transactions) what starts and ends one, as Python
expressions over the ports' sampled values. From it the self-test generates the breaks:

- it builds the task's first reference testbench once, with the monitor bound as the engine binds it (the
  prelude's two macros print instead of calling the harness main), a probe that prints the monitor's ports
  at every rising edge of the rule clocks and at every change, and a breaker per DUT input that can ``force``
  the port to a value over a time window given on the command line (``+brk_<port>=<on_ps>:<off_ps>:<hex>``);
- it runs the reference once unbroken (the probe trace; no rule may fire), finds in the trace where each
  rule's transactions lie, and for each offset the kind names (the first and last edge of a transaction,
  back-to-back transactions, a mid one, time 0) runs the same binary with that one port forced;
- a break passes when the monitor reports the rule between the force and the edge (or time) where the
  broken value is seen. The run is identical to the unbroken one up to the force, so nothing else differs.

The kinds of break and their offsets are ecov.harness.contracts.breaks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecov.harness.contracts import bind
from ecov.harness.contracts.breaks import MARK, Break, BreaksError, Trace, generate, parse_output
from ecov.harness.contracts.spec import check, meta_of
from ecov.harness.core.records import Design, SourceFile
from ecov.harness.hdl.ports import parse_ports
from ecov.harness.hdl.text import TESTBENCH_UNITS, declared_names, find_top
from ecov.harness.sandbox.base import Limits
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.jobs import job_folder, run_with_out_dir
from ecov.harness.sim.verilator import main_input

TB_FILE = "testbench.sv"
STOP_AFTER_PS = 2000  # a break run ends this long after its deadline

SELFTEST_PRELUDE = f"""`resetall
`undefineall
`timescale 1ns/1ps
`define ECOV_VIOLATION(rule) begin $display("{MARK} V %s %0d %m", `"rule`", longint'($realtime * 1000.0)); end
`define ECOV_COVER(name, expr) begin end
"""


class SelftestError(RuntimeError):
    """The self-test could not run (build failed, the unbroken run broke a rule, a spec is malformed)."""


# ---------------------------------------------------------------------------------------------- the build


def _breaks_of(meta_json: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r.get("breaks") or {} for r in meta_json.get("rules") or []}


def rule_specs(design: Design) -> dict[str, dict[str, Any]]:
    """rule -> its ``breaks`` description (empty when the contract gives none)."""
    return _breaks_of(json.loads(design.contract.meta))


def _clocks(specs: dict[str, dict[str, Any]]) -> list[str]:
    return sorted({s["clock"] for v in specs.values() for s in (v if isinstance(v, list) else [v]) if s.get("clock")})


def harness_text(design: Design, dut_inputs: list[str], monitor_ports: list[str], clocks: list[str]) -> str:
    """The monitor as the engine binds it (display prelude), the probe and the breakers."""
    meta = check(design.contract, design)
    text = bind.harness_file(design.contract, meta).replace(bind.PRELUDE, SELFTEST_PRELUDE)
    top = meta.dut_module
    L = ["", "`timescale 1ns/1ps", "module ecov_selftest_probe;"]
    fmt = " ".join("%h" for _ in monitor_ports)
    vals = ", ".join(f"{top}.{p}" for p in monitor_ports)
    for c in clocks:
        L.append(f"  longint unsigned n_{c} = 0;")
        L.append(f"  always @(posedge {top}.{c}) begin")
        L.append(f'    $display("{MARK} E {c} %0d %0d {fmt}", n_{c}, longint\'($realtime * 1000.0), {vals});')
        L.append(f"    n_{c} = n_{c} + 1;")
        L.append("  end")
    for i, p in enumerate(monitor_ports):
        L.append(f'  always @({top}.{p}) $display("{MARK} C {i} %0d %h", longint\'($realtime * 1000.0), {top}.{p});')
    L.append("endmodule")
    L.append("module ecov_selftest_breaker;")
    L += ["  initial begin : stop",  # a break is judged by its deadline: the run need not go further
          "    longint at;",
          '    if ($value$plusargs("ecov_stop=%d", at)) begin #(at * 0.001); $finish; end',
          "  end"]
    for p in dut_inputs:
        L += [f"  initial begin : b_{p}",
              "    string s; longint on, off; logic [1023:0] v;",
              f'    if ($value$plusargs("brk_{p}=%s", s)) begin',
              '      void\'($sscanf(s, "%d:%d:%h", on, off, v));',
              "      #(on * 0.001);",
              f'      $display("{MARK} B {p} %0d", longint\'($realtime * 1000.0));',
              f"      force {top}.{p} = v;",
              "      #((off - on) * 0.001);",
              f"      release {top}.{p};",
              "    end",
              "  end"]
    L.append("endmodule")
    L.append(f"bind {top} ecov_selftest_probe ecov_selftest_probe_i ();")
    L.append(f"bind {top} ecov_selftest_breaker ecov_selftest_breaker_i ();")
    return text + "\n".join(L) + "\n"


@dataclass
class Built:
    job: Path
    engine: Any
    monitor_ports: list[str]
    widths: dict[str, int]
    dut_inputs: list[str]

    def run(self, forces: list[tuple[str, int, int, int]] = (), seconds: float = 120.0, stop: int | None = None) -> str:
        """Run the binary with ``forces`` (port, on ps, off ps, value); with ``stop``, end at that time (ps)."""
        args = [f"+brk_{p}={on}:{off}:{value:x}" for p, on, off, value in forces]
        args += [f"+ecov_stop={stop}"] if stop is not None else []
        limits = Limits(wall_seconds=seconds, cpu_seconds=int(seconds) + 5, output_bytes=256_000_000, file_mb=512)

        def run(out: Path, nonce: str):  # as the engine runs it: the harness main writes into a private folder
            argv = ["./sim", "+verilator+seed+1", "+verilator+rand+reset+0", "+verilator+error+limit+1000000", *args]
            return self.engine.sandbox.run(argv, self.job, limits, untrusted=True, rw_paths=(str(out),),
                                           stdin=main_input(out, nonce))

        res, _ = run_with_out_dir(run)
        if res.timed_out or res.returncode != 0:
            raise SelftestError(f"the self-test run failed (exit {res.returncode}, timed out {res.timed_out}): "
                                f"{res.output[-800:]}")
        return res.output



def build(engine: Any, design: Design, testbench: str, job: Path) -> Built:
    """Build ``testbench`` with the monitor, probe and breakers into ``job`` (once per task): an empty job
    folder from ecov.harness.sim.jobs.job_folder, which the sandbox runs in as the engine's jobs do."""
    meta = check(design.contract, design)
    specs = rule_specs(design)
    mon = parse_ports([SourceFile("contract.sv", design.contract.sv)], "ecov_contract")
    dut = parse_ports(list(design.files), meta.dut_module)
    monitor_ports = [p.name for p in mon.ports]
    widths = {p.name: p.width for p in dut.ports}
    dut_inputs = [p.name for p in dut.inputs if not p.is_array and not p.type_name]
    sources = write_design(job, ((f.name, f.content) for f in design.files))
    (job / TB_FILE).write_text(re.sub(r"\$stop\b", "$finish", testbench))
    sources.append(TB_FILE)
    (job / bind.FILE).write_text(harness_text(design, dut_inputs, monitor_ports, _clocks(specs)))
    sources.append(bind.FILE)
    top = find_top(testbench, declared_names(testbench, TESTBENCH_UNITS)) or "tb"
    built = engine.backend.build(job, sources, top, engine.config.build_limits(), tb_file=TB_FILE,
                                 harness_files=(bind.FILE,))
    if not built.ok:
        raise SelftestError(f"self-test build failed at {built.stage}: {built.log[-1500:]}")
    return Built(job, engine, monitor_ports, widths, dut_inputs)


@dataclass
class Outcome:
    brk: Break
    caught: bool
    first: tuple[str, int] | None  # the first violation at or after the force (rule, ps)
    why: str = ""


def judge(brk: Break, trace: Trace) -> Outcome:
    on = min(f[1] for f in brk.forces)
    after = [(r, t) for r, t, _ in trace.violations if t >= on]
    first = after[0] if after else None
    hit = [t for r, t in after if r == brk.rule and t <= brk.by]
    if hit:
        return Outcome(brk, True, first)
    why = (f"no violation of {brk.rule} between {on} ps and {brk.by} ps" +
           (f"; first after the force: {first[0]} at {first[1]} ps" if first else "; none at all"))
    return Outcome(brk, False, first, why)


@dataclass
class Report:
    task_id: str
    outcomes: list[Outcome]
    skipped: dict[str, dict[str, str]]  # rule -> offset -> why
    unbroken_violations: list[tuple[str, int, str]]
    missing_specs: list[str]

    @property
    def unbroken_rules(self) -> list[str]:
        """Rules with a description but no break the reference let the self-test place."""
        return [r for r in self.skipped if not any(o.brk.rule == r for o in self.outcomes)]

    @property
    def ok(self) -> bool:
        return (not self.unbroken_violations and not self.missing_specs and not self.unbroken_rules
                and all(o.caught for o in self.outcomes))

    def lines(self) -> list[str]:
        out = [f"{self.task_id}: {sum(o.caught for o in self.outcomes)}/{len(self.outcomes)} breaks caught"]
        out += [f"  UNBROKEN RUN VIOLATION {r} at {t} ps" for r, t, _ in self.unbroken_violations[:3]]
        out += [f"  NO BREAKS DESCRIBED for rule {r}" for r in self.missing_specs]
        out += [f"  NO BREAK PLACED for rule {r}: {self.skipped[r]}" for r in self.unbroken_rules]
        for o in self.outcomes:
            if not o.caught:
                out.append(f"  MISSED {o.brk.rule} @{o.brk.offset} ({o.brk.note}; forces {o.brk.forces}): {o.why}")
        return out


def selftest(engine: Any, design: Design, testbench: str, task_id: str = "", only: set[str] | None = None,
             keep: bool = False) -> Report:
    """Build once, run unbroken, then run every generated break; the report lists what was missed."""
    with job_folder("selftest-", keep) as job:
        return _selftest(engine, design, testbench, job, task_id, only)


def _selftest(engine: Any, design: Design, testbench: str, job: Path, task_id: str, only: set[str] | None) -> Report:
    meta = meta_of(design.contract)
    specs = rule_specs(design)
    built = build(engine, design, testbench, job)
    base = parse_output(built.run(), built.monitor_ports)
    outcomes, skipped = [], {}
    missing = [r.name for r in meta.rules if not specs.get(r.name)]
    for rule in meta.rules:
        spec = specs.get(rule.name)
        if not spec or (only and rule.name not in only):
            continue
        try:
            breaks, skip = generate(rule.name, spec, base, built.widths)
        except BreaksError as e:
            raise SelftestError(str(e)) from None
        skipped[rule.name] = skip
        for brk in breaks:
            bad = [p for p, *_ in brk.forces if p not in built.dut_inputs]
            if bad:
                raise SelftestError(f"rule {rule.name}: {bad} are not DUT inputs the breaker can force")
            out = built.run(brk.forces, stop=brk.by + STOP_AFTER_PS)
            outcomes.append(judge(brk, parse_output(out, built.monitor_ports)))
    return Report(task_id, outcomes, skipped, base.violations, missing)


__all__ = ["Built", "Outcome", "Report", "SelftestError", "build", "judge", "rule_specs", "selftest"]
