"""Calibration: what coverage can a task's reference testbench reach under Verilator, and what target
should ECov ask for.

For every task, each reference testbench is scored by the engine; where none exists, or none runs to
completion, a long random-stimulus testbench generated from the DUT's ports stands in. The best figure a
single run reaches for a target is its *ceiling*. Each benchmark has a target rule (docs/benchmarks.md):

* ``cvdp-ecov``:     percent = min(upstream Xcelium TARGET, floor(ceiling))
* ``autoeval-ecov``: percent = floor(ceiling)            (VerilogEval has no coverage target)
* ``ecov-embedded``: targets are authored; calibration only checks the reference meets them

A task whose runs all fail, or whose ceiling is 0 (no coverage points under Verilator), cannot be
calibrated: it is listed with its reason and left out when targets are rewritten.

Every task is also scored with the two floor testbenches, which drive nothing (ecov.harness.tracks.sv.floor_tb:
``empty``, every input held at 0; ``idle``, clocks and resets only). A target a floor meets measures
nothing (issue 32): the rule raises it to the reference's floor(ceiling) when the floors stay below that,
and otherwise records the task as measuring nothing (``source.measures_nothing``), which the headline
figures leave out. ``ecov-data validate`` fails on a task a floor passes that is not so recorded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ecov.harness.benchmark.spec import target_rule
from ecov.harness.core.records import OK, ScoreResult, Target
from ecov.harness.tasks import Task

RANDOM_CYCLES = 5000


def target_key(t: Target) -> str:
    return f"{t.instance}:{t.metric}"


@dataclass
class Run:
    """One scored calibration testbench."""

    tb: str  # reference file name, or "random-stimulus"
    status: str
    values: dict[str, float]  # target key -> percent reached
    overall: float
    meets: bool
    errors: list[str] = field(default_factory=list)
    cached: bool = False


@dataclass
class Calibration:
    task_id: str
    benchmark: str
    targets: list[Target]
    runs: list[Run] = field(default_factory=list)
    floors: list[Run] = field(default_factory=list)  # the floor testbenches (never a ceiling)

    def floors_meeting(self, targets: list[Target] | None = None) -> list[str]:
        """The floors (``empty``, ``idle``) whose run meets ``targets`` (default: the task's own)."""
        targets = self.targets if targets is None else targets
        return [f.tb for f in self.floors
                if f.status == OK and all(f.values.get(target_key(t), 0.0) >= t.percent for t in targets)]

    @property
    def ok_runs(self) -> list[Run]:
        return [r for r in self.runs if r.status == OK]

    @property
    def ceiling(self) -> dict[str, float]:
        """Best percent a single finished run reaches, per target."""
        return {target_key(t): max((r.values.get(target_key(t), 0.0) for r in self.ok_runs), default=0.0)
                for t in self.targets}

    @property
    def met(self) -> bool:
        return any(r.meets for r in self.runs)

    @property
    def by(self) -> str:
        """Which run set the ceiling: a reference name or ``random-stimulus``."""
        best = max(self.ok_runs, key=lambda r: sum(r.values.values()), default=None)
        return best.tb if best else ""

    @property
    def problem(self) -> str:
        """Why this task cannot be calibrated ("" when it can)."""
        if not self.ok_runs:
            fails = "; ".join(f"{r.tb}: {r.status}" + (f" ({_first(r.errors)})" if r.errors else "")
                              for r in self.runs)
            return f"no calibration run finished ({fails or 'nothing to run'})"
        zero = [k for k, v in self.ceiling.items() if v <= 0.0]
        if zero:
            return f"ceiling 0% for {', '.join(zero)} (no coverage points reached under Verilator)"
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id, "benchmark": self.benchmark,
            "targets": [t.to_dict() for t in self.targets], "ceiling": self.ceiling, "met": self.met,
            "by": self.by, "problem": self.problem, "runs": [asdict(r) for r in self.runs],
            "floors": [asdict(r) for r in self.floors], "floors_meeting": self.floors_meeting(),
        }


def _first(errors: list[str]) -> str:
    return (errors[0].strip().splitlines() or [""])[0][:160] if errors else ""


# ---- random stimulus ---------------------------------------------------------------------------------


def random_testbench(task: Task, cycles: int = RANDOM_CYCLES, seed: int = 1) -> str:
    """The ``builtin/random`` baseline's testbench for ``task`` (round 0), about ``cycles`` cycles long.

    One random-stimulus generator serves both calibration and the baseline, so "a long random run" means
    the same thing in the calibration tables and on the leaderboard.
    """
    from ecov.harness.models import ModelRequest
    from ecov.harness.parse import parse_response
    from ecov.harness.tracks.random_plan import PlanError
    from ecov.harness.tracks.sv.random_tb import generate

    try:
        text = generate(ModelRequest(messages=[], task=task, seed=seed), base_cycles=cycles)
    except PlanError as e:
        raise ValueError(f"{task.id}: {e}") from None
    parsed = parse_response(text, dut_module=task.dut_module)
    if parsed.testbench is None:  # pragma: no cover - the generator always answers with one block
        raise ValueError(f"{task.id}: the random generator gave no testbench: {parsed.error}")
    return parsed.testbench


# ---- scoring -----------------------------------------------------------------------------------------

Scorer = Callable[[Task, str, int], ScoreResult]


def engine_scorer(config: Any = None, scorer: Any = None) -> Scorer:
    """Score through the harness engine (imported here so loading datasets never needs a simulator), or
    through ``scorer`` (an executor from ecov.harness.scoring.executor, e.g. one that scores on a Ray cluster)."""
    if scorer is None:
        from ecov.harness.scoring.config import EngineConfig
        from ecov.harness.tracks.sv.scorer import Engine

        scorer = Engine(config or EngineConfig()).score
    return lambda task, tb, seed: scorer(task.design, tb, seed)


def _run(score: Scorer, task: Task, name: str, tb: str, seed: int) -> Run:
    try:
        res = score(task, tb, seed)
    except Exception as e:  # a harness failure on one task must not end a 156-task calibration
        return Run(name, "infra_error", {}, 0.0, False, [f"{type(e).__name__}: {e}"])
    values = {target_key(t): res.metric_percent(t.instance, t.metric) for t in task.targets}
    return Run(name, res.status, values, res.overall, res.meets(task.targets), list(res.errors[:3]), res.cached)


def floor_testbenches(task: Task) -> list[tuple[str, str]]:
    """(name, text) of the floor testbenches of ``task``: ``floor:empty``, ``floor:idle``."""
    from ecov.harness.tracks.random_plan import PlanError
    from ecov.harness.tracks.sv.floor_tb import FLOORS, floor_testbench

    try:
        return [(f"floor:{kind}", floor_testbench(task, kind)) for kind in FLOORS]
    except PlanError as e:
        raise ValueError(f"{task.id}: {e}") from None


def calibrate_task(task: Task, score: Scorer, seed: int = 1, random_cycles: int = RANDOM_CYCLES,
                   always_random: bool = False) -> Calibration:
    """Score every reference testbench and the floors; add a random-stimulus run when no reference
    finished (or when asked)."""
    cal = Calibration(task.id, task.benchmark, list(task.targets))
    for ref in task.reference_tbs:
        cal.runs.append(_run(score, task, ref.name, ref.content, seed))
    try:
        floors = floor_testbenches(task)
    except ValueError as e:
        cal.floors.append(Run("floor", "infra_error", {}, 0.0, False, [str(e)]))
    else:
        cal.floors += [_run(score, task, name, tb, seed) for name, tb in floors]
    if always_random or not cal.ok_runs:
        try:
            tb = random_testbench(task, random_cycles)
        except (ValueError, RuntimeError) as e:
            cal.runs.append(Run("random-stimulus", "infra_error", {}, 0.0, False, [str(e)]))
        else:
            cal.runs.append(_run(score, task, "random-stimulus", tb, seed))
    return cal


def calibrate(tasks: Iterable[Task], score: Scorer, seed: int = 1, random_cycles: int = RANDOM_CYCLES,
              progress: Callable[[Calibration], None] | None = None, jobs: int = 1) -> list[Calibration]:
    """Calibrations in task order; ``jobs`` tasks at once (threads: the scorer does the heavy work)."""
    tasks = list(tasks)
    if jobs <= 1 or len(tasks) <= 1:
        out = []
        for task in tasks:
            cal = calibrate_task(task, score, seed, random_cycles)
            out.append(cal)
            if progress:
                progress(cal)
        return out
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
        futures = {pool.submit(calibrate_task, task, score, seed, random_cycles): i for i, task in enumerate(tasks)}
        done: dict[int, Calibration] = {}
        for fut in as_completed(futures):
            done[futures[fut]] = fut.result()
            if progress:
                progress(done[futures[fut]])
    return [done[i] for i in range(len(tasks))]


# ---- the target rule ---------------------------------------------------------------------------------


def rule_percent(benchmark: str, target: Target, ceiling: float, upstream: float | None) -> float:
    reachable = float(math.floor(ceiling + 1e-9))
    if benchmark == "cvdp-ecov" and upstream is not None:
        return min(upstream, reachable)
    if benchmark == "cvdp-ecov-authors":  # several upstream targets per task: each keeps its own
        return min(target.percent, reachable)
    if benchmark == "ecov-embedded":
        return target.percent
    return reachable


def rule_targets(task: Task, ceiling: dict[str, float]) -> list[Target]:
    """The task's targets under its benchmark's rule, given the ceiling per ``target_key``."""
    upstream = task.source.get("upstream_target")
    return [replace(t, percent=rule_percent(task.benchmark, t, ceiling[target_key(t)],
                                            float(upstream) if upstream else None))
            for t in task.targets]


def floor_rule(targets: list[Target], cal: Calibration) -> tuple[list[Target], str]:
    """(targets, why the task measures nothing or ""): a target a floor testbench meets is raised to the
    reference's floor(ceiling) when no floor meets that; when one still does, the targets stay and the
    task measures nothing."""
    met = cal.floors_meeting(targets)
    if not met:
        return targets, ""
    ceiling = cal.ceiling
    raised = [replace(t, percent=max(t.percent, float(math.floor(ceiling[target_key(t)] + 1e-9)))) for t in targets]
    if not cal.floors_meeting(raised):
        return raised, ""
    figures = ", ".join(f"{f.tb} {f.overall:.2f}" for f in cal.floors if f.tb in met)
    return targets, (f"a testbench that drives nothing meets {_targets_text(targets)} ({figures}; the "
                     f"reference's ceiling is {', '.join(f'{v:.2f}' for v in ceiling.values())})")


def apply_rule(task: Task, cal: Calibration) -> tuple[Task | None, str]:
    """(task with rule targets and calibration recorded in ``source``, "") or (None, reason left out)."""
    if cal.problem:
        return None, cal.problem
    source = dict(task.source)
    if task.benchmark == "ecov-embedded":
        return task, ""
    ceiling = cal.ceiling
    new_targets, nothing = floor_rule(rule_targets(task, ceiling), cal)
    source.pop("measures_nothing", None)
    source.update({
        "ceiling": ", ".join(f"{k}={v:.2f}" for k, v in ceiling.items()),
        "calibration": f"verilator: {cal.by}",
        "target_rule": f"{task.benchmark}: {target_rule(task.benchmark)}",
        **({"measures_nothing": nothing} if nothing else {}),
    })
    return replace(task, targets=new_targets, source=source), ""


def unmarked_floor_passes(tasks: list[Task], cals: list[Calibration]) -> list[str]:
    """Tasks whose targets a floor testbench meets and that are not recorded as measuring nothing."""
    return [c.task_id for t, c in zip(tasks, cals, strict=True)
            if c.floors_meeting() and not t.source.get("measures_nothing")]


# ---- reporting ---------------------------------------------------------------------------------------


def _targets_text(targets: list[Target]) -> str:
    return ", ".join(f"{t.instance}.{t.metric}>={t.percent:g}" for t in targets)


def table(cals: list[Calibration]) -> str:
    """One line per task: id, targets, ceiling, which run, met yes/no (or why it cannot be calibrated)."""
    rows = [("task", "targets", "ceiling", "by", "met", "floors (empty, idle)")]
    for c in cals:
        ceil = ", ".join(f"{v:.2f}" for v in c.ceiling.values()) if c.ok_runs else "-"
        met = "yes" if c.met else ("UNCALIBRATED" if c.problem else "no")
        floors = ", ".join(f"{f.overall:.2f}" if f.status == OK else f.status for f in c.floors) or "-"
        if c.floors_meeting():
            floors += " MEETS THE TARGET"
        rows.append((c.task_id, _targets_text(c.targets), ceil, c.by or "-", met, floors))
    widths = [min(60, max(len(r[i]) for r in rows)) for i in range(6)]
    lines = ["  ".join(str(v)[:60].ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    problems = [c for c in cals if c.problem]
    if problems:
        lines += ["", "cannot be calibrated:"] + [f"  {c.task_id}: {c.problem}" for c in problems]
    return "\n".join(lines)


def summary(cals: list[Calibration]) -> dict[str, Any]:
    n = len(cals)
    met = sum(c.met for c in cals)
    problems = [c for c in cals if c.problem]
    random_only = sum(1 for c in cals if c.by == "random-stimulus")
    floor_met = [c.task_id for c in cals if c.floors_meeting()]
    return {"tasks": n, "met": met, "not_met": sum(1 for c in cals if not c.met and not c.problem),
            "uncalibrated": len(problems), "random_stimulus": random_only, "floor_met": floor_met,
            "line": f"{met}/{n} tasks' targets met by a reference run; {len(problems)} cannot be calibrated; "
                    f"{random_only} calibrated by random stimulus; {len(floor_met)} met by a testbench that "
                    "drives nothing"}


# ---- the bug hunt's kill-rate targets (issue 31) -------------------------------------------------------

BUGHUNT_RULE = "floor(0.9 x the self-checking reference's kill rate), in percent"
BUGHUNT_SHARE = 0.9  # of the reference's kill rate: one mutant in ten it catches may slip


def bughunt_target(reference_kill_rate: float) -> float | None:
    """A task's kill-rate target from its self-checking reference's kill rate (``BUGHUNT_RULE``); None when
    the reference catches nothing (no target can be calibrated: the task asks for every mutant)."""
    if reference_kill_rate <= 0:
        return None
    return float(math.floor(BUGHUNT_SHARE * reference_kill_rate + 1e-9))
