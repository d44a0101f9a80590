"""The benchmark task record. Loaders and ``datasets`` Features live in ``ecov.harness.benchmark.store``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ecov.harness.core.records import Contract, Design, MutantSet, SourceFile, Target
from ecov.harness.sim.rules import reference_parameters


@dataclass
class Task:
    id: str
    benchmark: str
    rtl_files: list[SourceFile]
    spec_files: list[SourceFile]
    dut_module: str
    dut_instance: str
    instructions: str
    targets: list[Target]
    difficulty: str = ""
    source: dict[str, str] = field(default_factory=dict)  # upstream id, commit, license
    # Calibration testbenches: never shown to a model.
    reference_tbs: list[SourceFile] = field(default_factory=list)
    # The harness-owned interface contract (issue 22), attached by the loader from the benchmark's files,
    # never part of the dataset row nor of any prompt.
    contract: Contract | None = None
    # The bug hunt's killable mutants (issue 31), attached by the loader from the benchmark's mutants
    # files (ecov.harness.benchmark.mutantfiles), never part of the dataset row nor of any prompt.
    mutants: MutantSet | None = None
    # The bug hunt (issue 31), attached by the loader from the benchmark's files, never in the dataset row
    # nor in any prompt: the self-checking reference testbenches (builtin/reference answers with them under
    # the bughunt protocol) and the kill-rate target (%) calibrated from them.
    bughunt_tbs: list[SourceFile] = field(default_factory=list)
    bughunt_target: float | None = None

    @property
    def design(self) -> Design:
        """The design under test, with its contract and the parameter values the task's reference
        testbenches give the DUT (allowed besides its defaults; docs/scoring.md, rule parameter-override)."""
        params = reference_parameters(tuple(self.rtl_files), self.dut_module, self.dut_instance,
                                      tuple(f.content for f in self.reference_tbs))
        return Design(tuple(self.rtl_files), self.dut_module, self.dut_instance, self.contract, params)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "benchmark": self.benchmark,
            "rtl_files": [f.to_dict() for f in self.rtl_files],
            "spec_files": [f.to_dict() for f in self.spec_files],
            "dut_module": self.dut_module,
            "dut_instance": self.dut_instance,
            "instructions": self.instructions,
            "targets": [t.to_dict() for t in self.targets],
            "difficulty": self.difficulty,
            "source": dict(self.source),
            "reference_tbs": [f.to_dict() for f in self.reference_tbs],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Task:
        return cls(
            id=d["id"],
            benchmark=d["benchmark"],
            rtl_files=[SourceFile(**f) for f in d["rtl_files"]],
            spec_files=[SourceFile(**f) for f in d.get("spec_files") or []],
            dut_module=d["dut_module"],
            dut_instance=d["dut_instance"],
            instructions=d.get("instructions", ""),
            targets=[Target(t["instance"], t["metric"], float(t["percent"])) for t in d["targets"]],
            difficulty=d.get("difficulty") or "",
            source={k: str(v) for k, v in (d.get("source") or {}).items()},
            reference_tbs=[SourceFile(**f) for f in d.get("reference_tbs") or []],
        )
