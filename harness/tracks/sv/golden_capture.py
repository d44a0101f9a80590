"""``builtin/golden-capture`` in SystemVerilog (issue 31): the oracle row of the bug hunt.

builtin/random's stimulus (the same plan and text, ecov.harness.tracks.sv.random_tb) checked against the
golden design's own outputs on that stimulus: the harness runs the random testbench once on the golden
design with a monitor that prints every DUT output once per stimulus cycle (right before the inputs
change), then answers with the same testbench whose monitor compares each cycle's outputs with the recorded
values (4-state, ``!==``) and stops with ``$fatal`` at the first difference. It catches every mutant whose
outputs differ at a sampled cycle: the ceiling of checking random stimulus, which a model can only reach by
predicting the outputs from the spec. It passes on the golden design by construction (the stimulus is seeded
in the text, so both runs see the same inputs).

Unpacked-array outputs are not compared. The expected table is kept under ``MAX_TABLE_CHARS``: past it only
every k-th cycle is compared (the testbench says which).
"""

from __future__ import annotations

import re
import threading
from dataclasses import replace

from ecov.harness.core.records import Design
from ecov.harness.hdl.ports import INPUT, Port
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.jobs import job_folder
from ecov.harness.tracks.random_plan import StimulusRequest, make_plan, ports_and_roles
from ecov.harness.tracks.sv.random_tb import BASE_CYCLES, Monitor, render
from ecov.harness.tracks.sv.scorer import TB_FILE, Engine

CAPTURE_TAG = "ECOV_CAPTURE"
MAX_TABLE_CHARS = 160_000
CAPTURE_OUTPUT_BYTES = 64 << 20  # the golden run's printed table (harness-made, trusted): 64 MiB
_LINE = re.compile(rf"^{CAPTURE_TAG} (\d+) ([01xzXZ]+)$", re.M)


class CaptureError(RuntimeError):
    """The golden run that records the outputs did not build or run."""


def observed(ports: list[Port]) -> list[Port]:
    """The outputs compared: every packed output port, in declaration order."""
    return [p for p in ports if p.direction != INPUT and not p.is_array]


def _concat(ports: list[Port]) -> str:
    return "{" + ", ".join(p.name for p in ports) + "}"


def capture_monitor(outs: list[Port]) -> Monitor:
    """Prints the outputs of each stimulus cycle: what the golden run records."""
    return Monitor(decls=("  int unsigned ecov_k = 0;",),
                   call=f'$display("{CAPTURE_TAG} %0d %b", ecov_k, {_concat(outs)}); ecov_k++;')


def _literal(width: int, bits: str) -> str:
    if re.fullmatch(r"[01]+", bits) and width % 4 == 0:
        return f"{width}'h{int(bits, 2):0{width // 4}x}"
    return f"{width}'b{bits.lower()}"


def check_monitor(outs: list[Port], recorded: list[str]) -> Monitor:
    """Compares each cycle's outputs with the recorded ones (every ``stride``-th cycle past the size cap)."""
    width = sum(p.width for p in outs)
    stride = 1
    while len(recorded) // stride * (width + 24) > MAX_TABLE_CHARS:
        stride += 1
    kept = recorded[::stride]
    table = [f"    ecov_exp[{i}] = {_literal(width, bits)};" for i, bits in enumerate(kept)]
    decls = (
        f"  // builtin/golden-capture: the outputs the golden design gave on this stimulus, every {stride} cycle(s)",
        "  int unsigned ecov_k = 0;",
        f"  logic [{width - 1}:0] ecov_exp [{len(kept)}];",
        "  initial begin",
        *table,
        "  end",
        "  task automatic ecov_check();",
        f"    if (ecov_k % {stride} == 0 && ecov_k / {stride} < {len(kept)} && "
        f"{_concat(outs)} !== ecov_exp[ecov_k / {stride}])",
        '      $fatal(1, "golden-capture: the outputs differ from the golden run\'s at stimulus cycle %0d", ecov_k);',
        "    ecov_k++;",
        "  endtask",
    )
    return Monitor(decls=decls, call="ecov_check();")


_ENGINE: Engine | None = None
_LOCK = threading.Lock()


def _engine() -> Engine:
    global _ENGINE
    with _LOCK:
        if _ENGINE is None:
            _ENGINE = Engine()
        return _ENGINE


def golden_outputs(design: Design, testbench: str, seed: int = 1) -> list[str]:
    """Build and run a harness-made testbench on the golden design; the outputs its capture monitor printed."""
    engine = _engine()
    with job_folder("capture-", engine.config.keep_jobs) as job:
        sources = write_design(job, ((f.name, f.content) for f in design.files))
        (job / TB_FILE).write_text(testbench)
        sources.append(TB_FILE)
        built = engine.backend.build(job, sources, "tb", engine.config.build_limits(), tb_file=TB_FILE)
        if not built.ok:
            raise CaptureError(f"the capture build failed: {built.log[-500:]}")
        # One row per stimulus cycle, every output bit: a wide design's table passes the engine's 1 MB cap
        # for a testbench's output (conwaylife's 256 bits x 4000 cycles), so this harness run has its own.
        ran = engine.backend.run(job, seed, replace(engine.config.run_limits(), output_bytes=CAPTURE_OUTPUT_BYTES))
    if ran.timed_out or ran.output_capped or ran.returncode != 0:
        raise CaptureError(f"the capture run failed (exit {ran.returncode}): {ran.output[-300:]}")
    rows = {int(k): bits for k, bits in _LINE.findall(ran.output)}
    return [rows[i] for i in range(len(rows))]


def generate(req: StimulusRequest, base_cycles: int = BASE_CYCLES) -> str:
    """The answer: builtin/random's testbench for this request, checked against the golden outputs."""
    task = req.task
    ports, roles = ports_and_roles(task)
    plan = make_plan(task, roles, req, base_cycles)
    outs = observed(ports.ports)
    if not outs:
        raise CaptureError(f"{task.dut_module} has no packed output port to check")
    recorded = golden_outputs(task.design, render(task, ports, roles, plan, capture_monitor(outs)), seed=1)
    tb = render(task, ports, roles, plan, check_monitor(outs, recorded))
    tb = tb.replace("// builtin/random:", "// builtin/golden-capture (random stimulus, golden outputs):", 1)
    return f"filename: tb_{task.dut_module}.sv\n```systemverilog\n{tb}```\n"


__all__ = ["CaptureError", "generate", "golden_outputs", "capture_monitor", "check_monitor"]
