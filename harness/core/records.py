"""Records that cross module borders: designs, targets, coverage figures, score results.

They are plain dataclasses with ``to_dict``/``from_dict`` so that they travel through JSON (cache,
run folders, leaderboard submissions) without losing anything.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# Metrics the engine reports, in display order. ``overall`` is derived (see docs/scoring.md).
METRICS = ("line", "branch", "toggle", "expr", "user")
AVERAGED_METRICS = ("line", "branch", "toggle", "expr")
ALL_METRICS = (*METRICS, "overall")

# Result statuses.
OK = "ok"  # compiled, ran, finished with $finish (or end of events)
REJECTED = "rejected"  # a test rule refused the testbench before anything ran
COMPILE_ERROR = "compile_error"
TIMEOUT = "timeout"
CRASHED = "crashed"
NO_FINISH = "no_finish"  # ran out of events without $finish
INFRA_ERROR = "infra_error"  # the harness itself failed (sandbox missing, disk full, ...)
STATUSES = (OK, REJECTED, COMPILE_ERROR, TIMEOUT, CRASHED, NO_FINISH, INFRA_ERROR)


@dataclass(frozen=True)
class SourceFile:
    name: str
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "content": self.content}


@dataclass(frozen=True)
class Contract:
    """A task's interface contract (issue 22): harness-owned SV bound into the DUT, never shown to a model.

    ``meta`` is the contract's JSON text (rules, bins, constraints; see ecov.harness.contracts), kept as
    text so that the record stays hashable and byte-stable in cache keys.
    """

    sv: str
    meta: str

    def to_dict(self) -> dict[str, str]:
        return {"sv": self.sv, "meta": self.meta}


@dataclass(frozen=True)
class Design:
    """The design under test: RTL files, its top module and the instance name the testbench must use.

    ``contract``, when set, is bound into the DUT at build time (its figures go to ``ScoreResult.legal``).
    """

    files: tuple[SourceFile, ...]
    top: str
    instance: str
    contract: Contract | None = None
    # Parameter values the task also allows for the DUT besides its defaults: each a sorted tuple of
    # (name, value as elaborated) of every overridable parameter (from the task's reference testbenches).
    params: tuple[tuple[tuple[str, str], ...], ...] = ()

    @classmethod
    def from_paths(cls, paths: list[str], top: str, instance: str) -> Design:
        files = tuple(SourceFile(Path(p).name, Path(p).read_text(errors="replace")) for p in paths)
        return cls(files=files, top=top, instance=instance)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"files": [f.to_dict() for f in self.files], "top": self.top, "instance": self.instance}
        if self.contract is not None:  # absent otherwise: designs without one keep their cache keys
            d["contract"] = self.contract.to_dict()
        if self.params:  # likewise
            d["params"] = [[list(kv) for kv in ps] for ps in self.params]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Design:
        contract = Contract(**d["contract"]) if d.get("contract") else None
        params = tuple(tuple((str(k), str(v)) for k, v in ps) for ps in d.get("params") or ())
        return cls(tuple(SourceFile(**f) for f in d["files"]), d["top"], d["instance"], contract, params)


@dataclass(frozen=True)
class Target:
    """One coverage goal: ``instance`` is a path relative to the testbench top (``uut``, ``uut.u_fifo``)."""

    instance: str
    metric: str
    percent: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Figure:
    covered: int
    total: int

    @property
    def percent(self) -> float:
        return round(100.0 * self.covered / self.total, 2) if self.total else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"covered": self.covered, "total": self.total, "percent": self.percent}


@dataclass(frozen=True)
class UncoveredPoint:
    instance: str
    metric: str
    file: str
    line: int
    detail: str  # what Verilator calls the point: "if", "cond_then", "q[3]:0->1", "(a==1) => 1"
    text: str = ""  # the source line, stripped

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ScoreResult:
    """What the engine returns for one testbench. Coverage is of the DUT hierarchy only."""

    status: str
    instance: str = ""
    coverage: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # inst -> metric -> fig
    overall: float = 0.0
    uncovered: list[UncoveredPoint] = field(default_factory=list)
    uncovered_total: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    log_tail: str = ""
    isolation: str = ""
    isolated: bool = True  # False under the rlimit sandbox: no namespaces between the simulation and the host
    seed: int = 1
    seconds: float = 0.0
    cached: bool = False
    key: str = ""
    # Wall seconds per phase (verilate, compile, link, run, and objects reused from the object cache):
    # machine-dependent, so neither in the cache key nor in the deterministic figures.
    phases: dict[str, float] = field(default_factory=dict)
    # The contract's figures (issue 22), empty when the design has none: ``violation`` (the first
    # broken rule: rule, time_ns, ports, spec; None when the run obeyed every rule), ``violations``
    # (rule -> count), ``coverage``/``overall`` (the DUT's coverage up to the first violation, the whole
    # run when none), ``bins`` (bins hit before it), ``bins_total``, ``bins_all`` (hit at any time).
    legal: dict[str, Any] = field(default_factory=dict)
    # The bug hunt's figures (issue 31), empty outside the bughunt protocol: ``status`` (ok, false_alarm,
    # refused, ...), ``killed``, ``total``, ``kill_rate`` (%), ``failure`` (the failing check's file:line on
    # the golden design), ``reason`` and per-mutant ``outcomes``; the rest of this record is the golden run.
    bughunt: dict[str, Any] = field(default_factory=dict)

    @property
    def compiled(self) -> bool:
        return self.status not in (REJECTED, COMPILE_ERROR, INFRA_ERROR)

    @property
    def ran(self) -> bool:
        """Compiled and ran to its end ($finish, or no events left): the paper's syntax-pass."""
        return self.status in (OK, NO_FINISH)

    @property
    def syntax_ok(self) -> bool:
        return self.ran

    def metric_percent(self, instance: str, metric: str) -> float:
        fig = self.coverage.get(instance, {}).get(metric)
        return float(fig["percent"]) if fig else 0.0

    def meets(self, targets: list[Target]) -> bool:
        if not self.ran:
            return False
        return all(self.metric_percent(t.instance, t.metric) >= t.percent for t in targets)

    def meets_legal(self, targets: list[Target]) -> bool | None:
        """The legal pass (ecov.harness.contracts): the targets met on legal coverage and every functional bin
        of the contract hit before the first broken rule (issue 32: on the shipped baselines the bins tell
        the reference, which hits them all, from trivial legal stimulus that meets the coverage targets;
        docs/benchmarks.md). None when there is no contract."""
        if not self.legal:
            return None
        if not self.ran:
            return False
        if len(self.legal.get("bins") or []) < int(self.legal.get("bins_total") or 0):
            return False
        table = self.legal.get("coverage") or {}
        return all(float(table.get(t.instance, {}).get(t.metric, {}).get("percent", 0.0)) >= t.percent
                   for t in targets)

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        d = asdict(self)
        d["uncovered"] = [u.to_dict() for u in self.uncovered]
        if not self.bughunt:  # absent outside the bug hunt: other protocols' records keep their bytes
            d.pop("bughunt")
        if not timing:
            d.pop("seconds")
            d.pop("cached")
            d.pop("phases")
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ScoreResult:
        d = dict(d)
        d["uncovered"] = [UncoveredPoint(**u) for u in d.get("uncovered", [])]
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


# ---- bug hunt (issue 31) ------------------------------------------------------------------------------

FALSE_ALARM = "false_alarm"  # bug hunt: the testbench failed on the golden design (kill rate 0)


@dataclass(frozen=True)
class Mutant:
    """One killable mutant of a task's RTL: an expression-level edit, never a copy of the design.

    ``start``/``end`` are UTF-8 byte offsets into ``file``'s text, where ``original`` stands; the mutant
    is that text with ``original`` replaced by ``replacement``. ``operator`` names the mutation kind
    (ecov.harness.hdl.mutate.OPERATORS), ``line`` the 1-based line of ``start``.
    """

    id: str  # "m007"
    operator: str
    file: str
    line: int
    start: int
    end: int
    original: str
    replacement: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Mutant:
        return cls(str(d["id"]), str(d["operator"]), str(d["file"]), int(d["line"]), int(d["start"]),
                   int(d["end"]), str(d["original"]), str(d["replacement"]), str(d.get("note") or ""))


@dataclass(frozen=True)
class MutantSet:
    """A task's mutants file: the killable mutants, the design they belong to (its ``design_sha256``,
    as contracts bind theirs) and how many were made, kept and dropped, and why."""

    task_id: str
    design_sha256: str
    mutants: tuple[Mutant, ...]
    stats: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"task_id": self.task_id, "design_sha256": self.design_sha256, "stats": self.stats,
                "mutants": [m.to_dict() for m in self.mutants]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MutantSet:
        return cls(str(d["task_id"]), str(d["design_sha256"]), tuple(Mutant.from_dict(m) for m in d["mutants"]),
                   dict(d.get("stats") or {}))


# MutantOutcome.reason values
KILLED = "killed"  # the testbench failed at or after the first time the DUT's outputs diverged
SURVIVED = "survived"  # the outputs diverged, the testbench passed
NOT_EXCITED = "not_excited"  # the outputs never diverged under this testbench's stimulus, and it passed
EARLY = "early"  # it failed before the outputs diverged (or they never did): not observed, no kill
UNOBSERVED = "unobserved"  # its stimulus changed before any DUT output did: it learned the mutant elsewhere
HANG = "hang"  # ran past twice the golden run's simulated time without failing (a self-check needs a watchdog)
MUTANT_TIMEOUT = "timeout"  # stopped by the wall clock (looping within one time step)
MUTANT_CRASHED = "crashed"  # left without the harness's exit path (a crash, a limit)
REASONS = (KILLED, SURVIVED, NOT_EXCITED, EARLY, UNOBSERVED, HANG, MUTANT_TIMEOUT, MUTANT_CRASHED)


@dataclass
class MutantOutcome:
    """What one mutant run showed: times are the simulation's (its precision: ps under the 1ns/1ps
    default), None when it did not happen."""

    id: str
    killed: bool
    reason: str
    diverged_ns: float | None = None  # first time a DUT output differed from the golden run's
    failed_ns: float | None = None  # first failure ($error, $fatal, failing assertion)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class BughuntResult:
    """A testbench scored against a task's mutants (harness/tracks/sv/bughunt.py, docs/scoring.md "Bug hunt").

    ``status``: ``ok`` (scored), ``false_alarm`` (failed on the golden design: kill rate 0), or the
    golden build's ``rejected``/``compile_error``/``crashed``/``timeout``/``no_finish``/``infra_error``.
    ``golden`` is the coverage score of the same testbench on the golden design. ``failure`` names the
    golden run's first failing check (``file:line``) on a false alarm, for feedback.
    """

    status: str
    golden: ScoreResult | None = None
    outcomes: list[MutantOutcome] = field(default_factory=list)
    killed: int = 0
    total: int = 0
    errors: list[str] = field(default_factory=list)
    failure: str = ""
    seed: int = 1
    seconds: float = 0.0
    cached: bool = False
    key: str = ""
    phases: dict[str, float] = field(default_factory=dict)

    @property
    def kill_rate(self) -> float:
        """Percent of the mutants killed; 0 unless the status is ``ok``."""
        if self.status != OK or not self.total:
            return 0.0
        return round(100.0 * self.killed / self.total, 2)

    def to_dict(self, timing: bool = True) -> dict[str, Any]:
        d = {"status": self.status, "golden": self.golden.to_dict(timing) if self.golden else None,
             "outcomes": [o.to_dict() for o in self.outcomes], "killed": self.killed, "total": self.total,
             "kill_rate": self.kill_rate, "errors": list(self.errors), "failure": self.failure,
             "seed": self.seed, "key": self.key}
        if timing:
            d.update(seconds=self.seconds, cached=self.cached, phases=dict(self.phases))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BughuntResult:
        golden = ScoreResult.from_dict(d["golden"]) if d.get("golden") else None
        outcomes = [MutantOutcome(**o) for o in d.get("outcomes") or []]
        return cls(d["status"], golden, outcomes, int(d.get("killed", 0)), int(d.get("total", 0)),
                   list(d.get("errors") or []), str(d.get("failure") or ""), int(d.get("seed", 1)),
                   float(d.get("seconds", 0.0)), bool(d.get("cached", False)), str(d.get("key") or ""),
                   dict(d.get("phases") or {}))
