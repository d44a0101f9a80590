"""Integrity of a simulation's coverage: checks shared by every track that scores with Verilator.

Layers (docs/scoring.md, "Threat model"): the rules (harness/sim/rules.py) decide what may be compiled;
these checks decide whether what a run wrote back can be trusted and counted:

- ``new_run_dir``: a fresh folder with an unguessable name, outside the job folder, that only the
  harness's main writes to (the testbench cannot name it: file names must be literal and relative).
- ``read_run``: the end marker must carry this run's nonce (the main writes it last, on its normal
  exit path only); otherwise the run did not end through the harness and counts for nothing.
- ``check_point_set``: the coverage written at the end must hold exactly the points the model
  instrumented when it was built (its zero-time dump): nothing added, nothing missing.
- ``check_dut``: what sits at ``<top>.<instance>`` is the task's DUT module, and every counted point
  comes from a design module in a design file (no wrapper, stub or same-named module).

Each function is pure apart from ``new_run_dir``/``read_run`` (files) and returns plain records, so
another track (e.g. cocotb) can run its simulator its own way and reuse them.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from ecov.harness.sim.coverage import CoveragePoint, in_subtree, parse_coverage_dat, relative_instance

POINTS_FILE, COVERAGE_FILE, END_FILE = "points.dat", "coverage.dat", "end"
_END_RE = re.compile(r"^ecov-end (\S+) finish=([01])(?: trace=([a-z-]+))?\s*$")


@dataclass(frozen=True)
class IntegrityError:
    rule: str  # exit-path | coverage-integrity | dut-identity
    message: str

    def __str__(self) -> str:
        return f"integrity '{self.rule}': {self.message}"


@dataclass
class RunOutput:
    """What the harness main left in the run folder."""

    ended: bool  # the end marker is there with this run's nonce
    finished: bool  # $finish was reached (else the run ran out of events)
    points: list[CoveragePoint]  # the zero-time point list of the model
    coverage: list[CoveragePoint]  # the final coverage
    error: IntegrityError | None = None
    trace: str = ""  # what the recorder's writer saw (ecov.harness.sim.recorder.STATES); "" without a recorder


def new_run_dir(parent: Path) -> tuple[Path, str]:
    """A private output folder for one run, and its nonce. The simulation may write but not list it.

    The folder's name is a second random token, not the nonce: code that learns where the folder is
    (a cocotb testbench that got past its guard could read the mount table) still cannot sign an end marker.
    """
    nonce = secrets.token_hex(16)
    out = Path(parent) / f"out-{secrets.token_hex(16)}"
    out.mkdir(mode=0o700)
    if os.geteuid() == 0:  # the simulation runs as nobody: it must create files here
        os.chmod(out, 0o733)
    return out, nonce


def remove_run_dir(out: Path) -> None:
    shutil.rmtree(out, ignore_errors=True)


def read_run(out: Path, nonce: str) -> RunOutput:
    end = out / END_FILE
    text = end.read_text(errors="replace") if end.is_file() else ""
    m = _END_RE.match(text)
    if not m or m.group(1) != nonce:
        return RunOutput(False, False, [], [], IntegrityError(
            "exit-path", "the simulation did not end through the harness's exit path (no end marker with this "
            "run's nonce): it was stopped, crashed or left some other way; its coverage is not counted"))
    finished = m.group(2) == "1"
    state = m.group(3) or ""
    try:
        points = parse_coverage_dat((out / POINTS_FILE).read_text(errors="replace"))
        coverage = parse_coverage_dat((out / COVERAGE_FILE).read_text(errors="replace"))
    except OSError as e:
        return RunOutput(True, finished, [], [], IntegrityError("coverage-integrity", f"coverage unreadable: {e}"),
                         state)
    return RunOutput(True, finished, points, coverage, trace=state)


def check_point_set(points: list[CoveragePoint], coverage: list[CoveragePoint]) -> IntegrityError | None:
    """The final coverage holds exactly the model's own points (keys), each once."""
    built = {p.key for p in points}
    got = [p.key for p in coverage]
    added = set(got) - built
    missing = built - set(got)
    if any(p.count for p in points):
        return IntegrityError("coverage-integrity", "the model's zero-time point list has non-zero counts")
    if added or missing:
        return IntegrityError("coverage-integrity", f"the coverage read back differs from the points the build "
                              f"instruments ({len(added)} added, {len(missing)} missing)")
    return None


def same_module(seen: str, module: str) -> bool:
    """``seen`` (a coverage page's module) is ``module`` or its parameterized copy: Verilator names the
    copy made for a ``#(...)`` override ``<module>__<params>`` (``single_cycle_arbiter__N8``, with two
    parameters ``sync_fifo__DB10_Ac``). The file check in check_dut keeps a copy honest: its points must
    still come from a design file; the rules keep its parameters at the task's values."""
    return seen == module or seen.startswith(module + "__")


def point_signature(points: list[CoveragePoint], instance: str) -> list[list]:
    """The points at and under ``<top>.<instance>``, without the testbench's top or the copy name Verilator
    gives a parameterized module: what makes two builds score the same design (sorted, JSON-ready)."""
    return sorted([p.metric, relative_instance(p.hier), p.file, p.line, p.column, p.detail, p.lines]
                  for p in points if in_subtree(relative_instance(p.hier), instance))


def check_canonical(points: list[CoveragePoint], instance: str, canonical: list[list]) -> IntegrityError | None:
    """The DUT's points equal those of the task's canonical build (the design with its own parameters):
    a parameter override cannot shrink or change what is scored."""
    got = point_signature(points, instance)
    if got == canonical:
        return None
    return IntegrityError("dut-identity", f"the design under '{instance}' is not the task's design: it has "
                          f"{len(got)} coverage points where the task's own build has {len(canonical)} (a parameter "
                          "override changes what is scored; instantiate the DUT with the task's parameters)")


def check_dut(coverage: list[CoveragePoint], instance: str, dut_module: str, design_modules: set[str] | None,
              design_files: set[str]) -> IntegrityError | None:
    """What is counted at and under ``<top>.<instance>`` is the design, instantiated as the task says.

    ``design_files`` are base names (``counter.sv``); a point's ``f`` is the path Verilator was given
    (``rtl/counter.sv``; the rules refuse `` `line``, so testbench code always says ``testbench.sv``).
    ``design_modules``, when given, must also hold every module seen below the instance.
    Returns None also when nothing lies under the instance (the engine reports a missing DUT itself).
    """
    mine = [p for p in coverage if in_subtree(relative_instance(p.hier), instance)]
    if not mine:
        return None
    own = [p for p in mine if relative_instance(p.hier) == instance]
    modules = sorted({p.module for p in own})
    if not own or any(not same_module(m, dut_module) for m in modules):
        found = ", ".join(f"'{m}'" for m in modules) or "a module with no points of its own (a wrapper)"
        return IntegrityError("dut-identity", f"the instance '{instance}' must be the DUT module '{dut_module}' "
                              f"itself; found {found}. Instantiate '{dut_module}' directly as '{instance}' "
                              "in the testbench top (no wrapper, stub or module of the same name)")
    for p in mine:
        name = p.file.rsplit("/", 1)[-1]
        foreign_module = design_modules is not None and not any(same_module(p.module, d) for d in design_modules)
        if foreign_module or name not in design_files or not p.file.startswith("rtl/"):
            return IntegrityError("dut-identity", f"'{relative_instance(p.hier)}' holds code of '{p.module}' "
                                  f"from '{p.file}', which is not part of the design")
    return None


__all__ = ["IntegrityError", "RunOutput", "new_run_dir", "remove_run_dir", "read_run", "check_point_set",
           "check_dut", "check_canonical", "point_signature", "POINTS_FILE", "COVERAGE_FILE", "END_FILE"]
