"""Verify a submission: re-score every recorded testbench, re-derive every sample, compare.

Nothing submitted is taken on trust. Each round's testbench is scored again with the run's track's
engine (disk cache off, so a tampered local cache cannot vouch for itself) at the seed the config's seed
scheme gives (never the seed a round claims), against the task's design loaded from the benchmark the
run's config names, which must be one ECov knows by name and whose dataset hash the run recorded
(ecov.leaderboard.identity). Then every sample is re-derived by the agent loop itself from its recorded
answers and those re-scored results (leaderboard/rederive.py): the prompt of each round under the claimed
protocol and track (its digest must match the recorded one), the testbench each answer gives, feedback,
pass and legal verdicts, and the sample's figures; a sample without rounds is refused. A builtin model's
answers are re-made rather than read. The summary is recomputed from the re-derived samples, which the
site shows. Every figure that differs is listed with where it is (task, sample, round, instance, metric)
and both values. A run whose figures reproduce but whose n, rounds or seed are not the protocol's
(leaderboard/rules.py) is verified with standing "non-standard" and the reasons; the site lists it apart,
unranked."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ecov.harness.benchmark.store import dataset_hash
from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.records import INFRA_ERROR, REJECTED, Design, ScoreResult
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder, SampleRecord
from ecov.harness.core.state import sample_from_rounds
from ecov.harness.evaluation.baseline import measures_nothing_tasks
from ecov.harness.evaluation.metrics import summarize
from ecov.harness.evaluation.runner import verilator_version
from ecov.harness.loop.bughunt_round import BughuntRoundScorer
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import get_track, make_bughunt_engine
from ecov.harness.tracks.sv.prompts import prompt_hash
from ecov.leaderboard.identity import BenchmarkIdentity, load_known, resolve
from ecov.leaderboard.rederive import Rederived, agent_config, builtin_model, rederive
from ecov.leaderboard.rules import NON_STANDARD, STANDARD, rounds_allowed, setting_problems
from ecov.leaderboard.stats import group_rounds
from ecov.leaderboard.submission import Submission, run_digest

VERIFIED, DIFFERS, ERROR = "verified", "differs", "error"
FAILED = "failed"  # a round the submission counts was refused by a test rule or an integrity check
PERCENT_TOL = 0.005  # percents are stored rounded to 2 decimals
# Bump when what verify checks changes: the site build's cache (leaderboard/buildverify.py) keys on it.
# 2: the protocol's rules (n, rounds, seed), samples past n, rounds past the maximum; 3: the contract figures
# the pages show (legal coverage, broken rules, bins) per round and sample; 4: every sample re-derived through
# the agent loop (prompts, legal verdicts, builtin answers re-made), the re-derived samples kept.
VERIFY_VERSION = "4"

ScoreFn = Callable[[Design, str, int], ScoreResult]
TaskLoader = Callable[[str, str], dict[str, Task]]


@dataclass
class Difference:
    task_id: str
    sample: int | None
    round: int | None
    field: str  # "status", "coverage[uut][line].covered", "passed", "sample.final_overall", ...
    submitted: Any
    rescored: Any

    def where(self) -> str:
        parts = [self.task_id or "(run)"]
        if self.sample is not None:
            parts.append(f"sample {self.sample}")
        if self.round is not None:
            parts.append(f"round {self.round + 1}")
        return " / ".join(parts)

    def __str__(self) -> str:
        return f"{self.where()}: {self.field}: submitted {self.submitted!r}, re-scored {self.rescored!r}"


@dataclass
class Verification:
    submission: str
    verdict: str  # verified | differs | error
    run_digest: str
    checked_rounds: int = 0
    scored: int = 0  # distinct testbenches actually simulated
    skipped_rounds: int = 0  # rounds without a testbench (nothing to score)
    checked_samples: int = 0
    differences: list[Difference] = field(default_factory=list)
    # Rounds submitted as scored that the rules/integrity checks refuse on re-scoring (field "rule").
    failures: list[Difference] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    benchmark: str = ""
    split: str = ""
    verilator_version: str = ""
    harness_version: str = ""
    created: str = ""
    # The benchmark verified against (ecov.leaderboard.identity): the site ranks only by this.
    dataset_hash: str = ""
    tb_lang: str = ""
    protocol: str = ""
    # "standard", or "non-standard" when the run's settings are not the protocol's (reasons in nonstandard).
    standing: str = ""
    nonstandard: list[str] = field(default_factory=list)
    # The samples as the agent loop re-derived them from the re-scored rounds: what the site shows.
    samples: list[dict[str, Any]] = field(default_factory=list)
    # The builtin model whose every answer this verification re-made ("" when the answers were read).
    reproduced_model: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict == VERIFIED

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Verification:
        known = set(cls.__dataclass_fields__)
        d = {k: v for k, v in d.items() if k in known}
        d["differences"] = [Difference(**x) for x in d.get("differences", [])]
        d["failures"] = [Difference(**x) for x in d.get("failures", [])]
        return cls(**d)

    def report(self, limit: int = 50) -> str:
        label = self.verdict.upper() + (f" ({self.standing})" if self.standing == NON_STANDARD else "")
        head = (f"{self.submission}: {label} — {self.checked_rounds} rounds checked "
                f"({self.scored} testbenches simulated, {self.skipped_rounds} without testbench), "
                f"{self.checked_samples} samples, {len(self.differences)} differences")
        lines = [head]
        lines += [f"  FAILED {d}" for d in self.failures[:limit]]
        lines += [f"  error: {e}" for e in self.errors]
        lines += [f"  non-standard: {r} (listed apart, not ranked)" for r in self.nonstandard]
        lines += [f"  warning: {w}" for w in self.warnings]
        lines += [f"  {d}" for d in self.differences[:limit]]
        if len(self.differences) > limit:
            lines.append(f"  ... and {len(self.differences) - limit} more (see --json)")
        return "\n".join(lines)


def _pct_differs(a: Any, b: Any) -> bool:
    try:
        return abs(float(a) - float(b)) > PERCENT_TOL
    except (TypeError, ValueError):
        return a != b


def compare_scores(submitted: dict[str, Any], rescored: ScoreResult) -> list[tuple[str, Any, Any]]:
    """Every displayed figure of a submitted ScoreResult dict that the re-scored result does not match."""
    out: list[tuple[str, Any, Any]] = []
    if submitted.get("status") != rescored.status:
        out.append(("status", submitted.get("status"), rescored.status))
    sub_cov = submitted.get("coverage") or {}
    for inst in sorted(set(sub_cov) | set(rescored.coverage)):
        sm, rm = sub_cov.get(inst) or {}, rescored.coverage.get(inst) or {}
        for metric in sorted(set(sm) | set(rm)):
            sf, rf = sm.get(metric), rm.get(metric)
            where = f"coverage[{inst}][{metric}]"
            if sf is None or rf is None:
                out.append((where, sf, rf))
                continue
            for key in ("covered", "total"):
                if sf.get(key) != rf.get(key):
                    out.append((f"{where}.{key}", sf.get(key), rf.get(key)))
            if _pct_differs(sf.get("percent"), rf.get("percent")):
                out.append((f"{where}.percent", sf.get("percent"), rf.get("percent")))
    if _pct_differs(submitted.get("overall", 0.0), rescored.overall):
        out.append(("overall", submitted.get("overall"), rescored.overall))
    if submitted.get("uncovered_total", 0) != rescored.uncovered_total:
        out.append(("uncovered_total", submitted.get("uncovered_total"), rescored.uncovered_total))
    return out + compare_legal(submitted.get("legal") or {}, rescored.legal)


def compare_legal(submitted: dict[str, Any], rescored: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The contract figures the pages show (issue 32) that the re-scored result does not match: legal
    coverage, the first broken rule and its time, how often each rule broke, the bins hit."""
    out: list[tuple[str, Any, Any]] = []
    if _pct_differs(submitted.get("overall", 0.0), rescored.get("overall", 0.0)):
        out.append(("legal.overall", submitted.get("overall"), rescored.get("overall")))
    sv, rv = submitted.get("violation") or {}, rescored.get("violation") or {}
    if sv.get("rule") != rv.get("rule") or _pct_differs(sv.get("time_ns") or 0, rv.get("time_ns") or 0):
        out.append(("legal.violation", sv or None, rv or None))
    if (submitted.get("violations") or {}) != (rescored.get("violations") or {}):
        out.append(("legal.violations", submitted.get("violations"), rescored.get("violations")))
    for key in ("bins", "bins_all", "bins_total"):
        if submitted.get(key) != rescored.get(key):
            out.append((f"legal.{key}", submitted.get(key), rescored.get(key)))
    sub_cov, re_cov = submitted.get("coverage") or {}, rescored.get("coverage") or {}
    for inst in sorted(set(sub_cov) | set(re_cov)):
        for metric in sorted(set(sub_cov.get(inst) or {}) | set(re_cov.get(inst) or {})):
            a = ((sub_cov.get(inst) or {}).get(metric) or {}).get("percent")
            b = ((re_cov.get(inst) or {}).get(metric) or {}).get("percent")
            if a is None or b is None or _pct_differs(a, b):
                out.append((f"legal.coverage[{inst}][{metric}].percent", a, b))
    return out


# Every per-sample figure the site, reports and exports show (both coverage definitions, the series).
SAMPLE_FIELDS = ("rounds", "passed", "passed_round", "syntax_ok", "final_overall", "best_overall",
                 "overall_by_round", "prompt_tokens", "completion_tokens", "best_round", "best_state_overall",
                 "best_overall_by_round", "reasks", "stop_reason", "contract", "legal_passed_round",
                 "legal_overall_by_round", "violated", "legal_bins_hit", "legal_bins")


def compare_samples(submitted: SampleRecord, rebuilt: SampleRecord) -> list[tuple[str, Any, Any]]:
    out = []
    for name in SAMPLE_FIELDS:
        a, b = getattr(submitted, name), getattr(rebuilt, name)
        if a is None or b is None:
            bad = (a is None) != (b is None)
        elif isinstance(a, list) and isinstance(b, list):
            bad = len(a) != len(b) or any(_pct_differs(x, y) for x, y in zip(a, b, strict=False))
        elif isinstance(a, float) or isinstance(b, float):
            bad = _pct_differs(a, b)
        else:
            bad = a != b
        if bad:
            out.append((f"sample.{name}", a, b))
    if abs(submitted.cost - rebuilt.cost) > 1e-9:
        out.append(("sample.cost", submitted.cost, rebuilt.cost))
    return out


# The bug hunt's figures a round and a sample carry (issue 31): re-scored, never taken from the submission.
BUGHUNT_FIELDS = ("status", "killed", "total", "kill_rate")
SAMPLE_BUGHUNT_FIELDS = ("status", "killed", "total", "kill_rate", "false_alarm", "passed", "kill_rate_by_round")


def compare_bughunt(submitted: dict[str, Any], rescored: ScoreResult) -> list[tuple[str, Any, Any]]:
    """Every bug-hunt figure of a submitted round result that the re-scored one does not match."""
    sub, res = submitted.get("bughunt") or {}, rescored.bughunt
    out = []
    for key in BUGHUNT_FIELDS:
        a, b = sub.get(key), res.get(key)
        if (a is None) != (b is None) or (a is not None and _pct_differs(a, b)):
            out.append((f"bughunt.{key}", a, b))
    return out


def compare_sample_bughunt(submitted: SampleRecord, rebuilt: SampleRecord) -> list[tuple[str, Any, Any]]:
    out = []
    for key in SAMPLE_BUGHUNT_FIELDS:
        a, b = submitted.bughunt.get(key), rebuilt.bughunt.get(key)
        if isinstance(a, list) and isinstance(b, list):
            bad = len(a) != len(b) or any(_pct_differs(x, y) for x, y in zip(a, b, strict=False))
        else:
            bad = (a is None) != (b is None) or (a is not None and _pct_differs(a, b))
        if bad:
            out.append((f"sample.bughunt.{key}", a, b))
    return out


def _summary_numbers(summary: dict[str, Any]) -> dict[str, float]:
    """Flatten the numeric leaves of summary.json ("pass_at.1" style keys) for a defensive compare."""
    flat: dict[str, float] = {}

    def walk(prefix: str, v: Any) -> None:
        if isinstance(v, bool):
            flat[prefix] = float(v)
        elif isinstance(v, int | float):
            flat[prefix] = float(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(f"{prefix}.{k}" if prefix else str(k), x)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(f"{prefix}.{i}", x)

    walk("", summary)
    return flat


def compare_summary(submitted: dict[str, Any], recomputed: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    a, b = _summary_numbers(submitted), _summary_numbers(recomputed)
    return [(f"summary.{k}", a[k], b[k]) for k in sorted(set(a) & set(b)) if abs(a[k] - b[k]) > 1e-6]


def _tb_key(task_id: str, testbench: str, seed: int) -> tuple[str, str, int]:
    return task_id, hashlib.sha256(testbench.encode()).hexdigest(), seed


def to_score(config: RunConfig, grouped: dict[tuple[str, int], list[RoundRecord]],
             samples: list[SampleRecord], tasks: dict[str, Task]) -> dict[tuple[str, str, int], tuple[Task, str]]:
    """The distinct (task, testbench) pairs a verification simulates, at the config's seed (a round that
    claims another seed is a difference, never used: picking the best of several seeds would verify).
    Only rounds a finished sample may have count (index below n, round below the run's maximum): the rest
    is reported without simulating it, so a submission cannot make the build simulate what no figure uses."""
    limit = config.max_rounds or rounds_allowed(config) or 0
    finished = {(s.task_id, s.sample) for s in samples if 0 <= s.sample < config.n_samples}
    todo: dict[tuple[str, str, int], tuple[Task, str]] = {}
    for (task_id, sample), recs in grouped.items():
        task = tasks.get(task_id)
        if task is None or (task_id, sample) not in finished:
            continue
        for rec in recs[:limit]:
            if rec.testbench:
                todo.setdefault(_tb_key(task_id, rec.testbench, config.seed), (task, rec.testbench))
    return todo


def _score_all(todo: dict[tuple[str, str, int], tuple[Task, str]], seed: int, score: ScoreFn, jobs: int,
               progress: Callable[[str], None] | None, bughunt: bool = False) -> dict[tuple, ScoreResult]:
    """Simulate each distinct (task, testbench) once, ``jobs`` at a time. A bug-hunt scorer is given the
    task (its mutants), any other the task's design."""

    def one(item: tuple[tuple[str, str, int], tuple[Task, str]]) -> tuple[tuple, ScoreResult]:
        key, (task, tb) = item
        try:
            res = score(task if bughunt else task.design, tb, seed)
        except Exception as e:  # noqa: BLE001 - reported as an infra error of that round, not a crash
            res = ScoreResult(status=INFRA_ERROR, instance=task.dut_instance, errors=[f"{type(e).__name__}: {e}"])
        return key, res

    out: dict[tuple, ScoreResult] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for i, (key, res) in enumerate(pool.map(one, todo.items()), 1):
            out[key] = res
            if progress:
                progress(f"[{i}/{len(todo)}] {key[0]}: {res.status}, overall {res.overall:.2f}%")
    return out


# What a re-derived round must share with the recorded one, besides its result's figures.
ROUND_FIELDS = ("prompt_hash", "response", "testbench", "parse_error", "feedback", "passed", "legal_passed",
                "bughunt_passed", "state_round", "new_best", "reasks", "rejected_responses")


def compare_rounds(recorded: list[RoundRecord], rederived: list[RoundRecord]) -> list[tuple[int | None, str, Any, Any]]:
    """(round, field, submitted, re-derived) for every difference between a sample's recorded rounds and
    those the agent loop makes from its answers and the re-scored results."""
    out: list[tuple[int | None, str, Any, Any]] = []
    if len(recorded) != len(rederived):
        out.append((None, "rounds", len(recorded), len(rederived)))
    for rec, der in zip(recorded, rederived, strict=False):
        if rec.round != der.round:
            out.append((rec.round, "round", rec.round, der.round))
        for name in ROUND_FIELDS:
            a, b = getattr(rec, name), getattr(der, name)
            if a != b:
                out.append((rec.round, name, _short(a), _short(b)))
        if rec.messages is not None and prompt_hash(rec.messages) != der.prompt_hash:
            out.append((rec.round, "messages", "a chat other than the protocol's", "the protocol's chat"))
        out += [(rec.round, f, a, b) for f, a, b in compare_scores(rec.result, der.score())]
        out += [(rec.round, f, a, b) for f, a, b in compare_bughunt(rec.result or {}, der.score())]
    return out


def _short(v: Any, limit: int = 200) -> Any:
    """Long texts (answers, feedback) are reported by their start and length, not whole."""
    if isinstance(v, str) and len(v) > limit:
        return f"{v[:limit]}... ({len(v):,} characters)"
    return v


def identical_answers(grouped: dict[tuple[str, int], list[RoundRecord]]) -> list[str]:
    """Tasks where two or more samples gave the same answers in every round: n copies of one answer
    would count as n samples (flagged; a builtin model the build re-makes is exempt)."""
    by_task: dict[str, dict[str, list[int]]] = {}
    for (task_id, sample), recs in grouped.items():
        digest = hashlib.sha256(json.dumps([(r.rejected_responses, r.response) for r in recs]).encode()).hexdigest()
        by_task.setdefault(task_id, {}).setdefault(digest, []).append(sample)
    out = []
    for task_id, groups in sorted(by_task.items()):
        for samples in groups.values():
            if len(samples) > 1:
                out.append(f"{task_id}: samples {', '.join(map(str, sorted(samples)))} give identical answers "
                           "in every round")
    return out


def verify_run(run: RunFolder, tasks: dict[str, Task], score: ScoreFn, name: str = "",
               progress: Callable[[str], None] | None = None, jobs: int = 1) -> Verification:
    config = run.read_config()
    ver = Verification(submission=name, verdict=VERIFIED, run_digest=run_digest(run.root),
                       benchmark=config.benchmark, split=config.split,
                       verilator_version=config.verilator_version, harness_version=config.harness_version,
                       created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    if tasks and config.dataset_hash:
        wanted = [t for t in tasks.values() if config.task_ids is None or t.id in config.task_ids]
        if dataset_hash(wanted) != config.dataset_hash and dataset_hash(tasks.values()) != config.dataset_hash:
            ver.warnings.append(f"the benchmark's tasks today hash to {dataset_hash(tasks.values())}, "
                                f"the run recorded {config.dataset_hash}")
    if config.verilator_version:
        here = verilator_version()
        if here and here != config.verilator_version:
            ver.warnings.append(f"the run used Verilator {config.verilator_version}, this machine has {here}")
    try:
        loop = agent_config(config)
    except ValueError as e:
        ver.verdict = ERROR
        ver.errors.append(f"the run's settings cannot be re-derived: {e}")
        return ver
    grouped = group_rounds(run.rounds())
    if not grouped:
        ver.errors.append("rounds.jsonl holds no rounds")
    bughunt = get_protocol(config.protocol).bughunt
    todo = to_score(config, grouped, run.samples(), tasks)
    memo = _score_all(todo, config.seed, score, jobs, progress, bughunt)  # in memory: one run per testbench
    ver.scored = len(memo)
    for key, res in memo.items():
        if res.status == INFRA_ERROR:
            ver.errors.append(f"{key[0]}: engine infra error: " + "; ".join(res.errors)[:300])
    builtin = builtin_model(config)  # the build re-makes a builtin model's answers rather than reading them

    def diff(task_id: str, sample: int | None, round_: int | None, field_: str, a: Any, b: Any) -> None:
        ver.differences.append(Difference(task_id, sample, round_, field_, a, b))

    for task_id, sample in sorted(set(grouped) | {(s.task_id, s.sample) for s in run.samples()}):
        if task_id not in tasks:
            diff(task_id, sample, None, "task", task_id, f"not in benchmark {config.benchmark}/{config.split}")
    def derive(s: SampleRecord) -> Rederived | None:
        task, recs = tasks.get(s.task_id), grouped.get((s.task_id, s.sample), [])
        if task is None or not recs:
            return None

        def results(testbench: str) -> ScoreResult | None:
            return memo.get(_tb_key(s.task_id, testbench, config.seed))

        return rederive(task, s.sample, recs, loop, results, builtin)

    samples = sorted(run.samples(), key=lambda s: (s.task_id, s.sample))
    # ``jobs`` samples at a time: a builtin's answers are re-made here (golden-capture builds and runs the
    # golden design per task); the differences are then gathered in sample order.
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        derived = list(pool.map(derive, samples))
    rebuilt: list[SampleRecord] = []
    for s, der in zip(samples, derived, strict=True):
        task = tasks.get(s.task_id)
        if task is None:
            continue  # reported above
        recs = grouped.get((s.task_id, s.sample), [])
        if not recs or der is None:  # nothing to derive its figures from: refused, whatever it claims
            diff(s.task_id, s.sample, None, "sample.rounds", f"{s.rounds} claimed, none recorded",
                 "a sample's figures are derived from its recorded rounds")
            # A failure, not a fault: a fault is left out of every figure, which would reward removing rounds.
            rebuilt.append(sample_from_rounds(s.task_id, s.sample, [], protocol=config.protocol))
            continue
        ver.checked_samples += 1
        # A sample stopped at a testbench nobody recorded failed; it is no fault (left out of the figures).
        rebuilt.append(replace(der.sample, error="") if der.unscored else der.sample)
        for r in der.unscored:
            diff(s.task_id, s.sample, r, "testbench", "not recorded",
                 f"round {r}'s answer gives a testbench no recorded round holds")
        for r, field_, a, b in compare_rounds(recs, der.rounds):
            diff(s.task_id, s.sample, r, field_, a, b)
        for field_, a, b in compare_samples(s, der.sample) + compare_sample_bughunt(s, der.sample):
            diff(s.task_id, s.sample, None, field_, a, b)
        for rec in recs:
            claimed = (rec.result or {}).get("seed")
            if rec.testbench and claimed is not None and claimed != config.seed:
                diff(s.task_id, s.sample, rec.round, "seed", claimed, config.seed)
        for der_rec, rec in zip(der.rounds, recs, strict=False):
            ver.checked_rounds += bool(der_rec.testbench)
            ver.skipped_rounds += not der_rec.testbench
            claimed = (rec.result or {}).get("status")
            res = der_rec.score()
            if der_rec.testbench and res.status == REJECTED and claimed != REJECTED:
                ver.failures.append(Difference(s.task_id, s.sample, rec.round, "rule", claimed,
                                               "; ".join(res.errors)[:500]))

    # Leaving failed samples out would inflate the pass rate: every sample the config asks for must be there.
    expected_tasks = config.task_ids if config.task_ids is not None else sorted(tasks or {t for t, _ in grouped})
    have = {(s.task_id, s.sample) for s in run.samples()}
    for t in expected_tasks:
        for n in range(config.n_samples):
            if (t, n) not in have:
                diff(t, n, None, "sample", "missing from samples.jsonl", "expected (config task_ids x n_samples)")
    _check_counts(ver, config, grouped, run.samples())
    if config.task_ids is not None and tasks and set(tasks) - set(config.task_ids):
        ver.warnings.append(f"the run covers {len(set(config.task_ids) & set(tasks))} of {len(tasks)} tasks "
                            f"of {config.benchmark}/{config.split}")
    if builtin is None:
        ver.warnings += [f"flagged: {x}" for x in identical_answers(grouped)]

    if run.summary_path.exists() and rebuilt:
        try:
            submitted = run.read_summary()
        except (OSError, json.JSONDecodeError) as e:
            ver.errors.append(f"summary.json unreadable: {e}")
        else:
            recomputed = summarize(rebuilt, config.max_rounds, submitted.get("tasks_expected"),
                                   protocol=config.protocol, measures_nothing=measures_nothing_tasks(config.benchmark))
            for field_, a, b in compare_summary(submitted, recomputed):
                diff("", None, None, field_, a, b)

    ver.samples = [r.to_dict() for r in rebuilt]
    ver.reproduced_model = config.model if builtin is not None else ""
    ver.nonstandard = setting_problems(config)
    ver.standing = NON_STANDARD if ver.nonstandard else STANDARD
    # A re-scoring that failed (a sandbox that could not fork on a loaded machine) is no verdict on the run:
    # an error, tried again by the next build, never "differs" (a failure is never a score).
    if any(": engine infra error: " in e for e in ver.errors):
        ver.verdict = ERROR
    elif ver.failures:
        ver.verdict = FAILED
    elif ver.differences:
        ver.verdict = DIFFERS
    elif ver.errors or not ver.checked_samples:
        ver.verdict = ERROR
        if not ver.checked_samples and not ver.errors:
            ver.errors.append("no finished samples to check")
    return ver


def _check_counts(ver: Verification, config, grouped: dict[tuple[str, int], list[RoundRecord]],
                  samples: list[SampleRecord]) -> None:
    """Records the run's own settings do not allow: a sample index past n, more rounds than the maximum."""
    for task_id, sample in sorted({(s.task_id, s.sample) for s in samples} | set(grouped)):
        if not 0 <= sample < config.n_samples:
            ver.differences.append(Difference(task_id, sample, None, "sample", f"sample index {sample}",
                                              f"0..{config.n_samples - 1} (n={config.n_samples})"))
    limit = config.max_rounds or rounds_allowed(config)
    for (task_id, sample), recs in sorted(grouped.items()):
        if limit and len(recs) > limit:
            ver.differences.append(Difference(task_id, sample, None, "rounds", len(recs), f"at most {limit}"))


def load_tasks(benchmark: str, split: str) -> dict[str, Task]:
    """The benchmark by name only (ecov.leaderboard.identity.load_known): never a path."""
    return {t.id: t for t in load_known(benchmark, split)}


def bughunt_score_fn(tb_lang: str | None = None) -> ScoreFn:
    """The bug hunt's round scorer (task, testbench, seed) over a fresh bug-hunt engine whose disk cache is off."""
    from ecov.harness.scoring.config import EngineConfig

    return BughuntRoundScorer(make_bughunt_engine(tb_lang, EngineConfig(use_cache=False)))


def engine_score_fn(tb_lang: str | None = None) -> ScoreFn:
    """Score with a fresh engine of the run's track (default sv) whose disk cache is off."""
    from ecov.harness.scoring.config import EngineConfig

    engine = get_track(tb_lang).make_scorer(EngineConfig(use_cache=False))
    return lambda design, tb, seed: engine.score(design, tb, seed=seed)


def verify_submission(sub: Submission, score: ScoreFn | None = None, loader: TaskLoader = load_tasks,
                      progress: Callable[[str], None] | None = None, jobs: int = 1,
                      resolved: tuple[BenchmarkIdentity, dict[str, Task]] | None = None,
                      bughunt_score: ScoreFn | None = None) -> Verification:
    """``resolved``: the run's benchmark already resolved (identity.resolve), so it is not loaded twice.
    A bughunt run is re-scored by ``bughunt_score`` (default: a fresh bug-hunt engine), ``score`` otherwise."""
    config = sub.run.read_config()
    try:
        if resolved is not None:
            identity, tasks = resolved
        elif loader is load_tasks:
            identity, tasks = resolve(config)
        else:  # tests hand their own benchmark
            tasks = loader(config.benchmark, config.split)
            identity = BenchmarkIdentity(config.benchmark, config.split, dataset_hash(tasks.values()), config.tb_lang)
    except Exception as e:  # noqa: BLE001 - any loader failure is reported, not raised
        return Verification(submission=sub.name, verdict=ERROR, run_digest=run_digest(sub.run_dir),
                            benchmark=config.benchmark, split=config.split,
                            errors=[f"cannot verify against benchmark {config.benchmark}/{config.split}: {e}"])
    if get_protocol(config.protocol).bughunt:
        score = bughunt_score or bughunt_score_fn(config.tb_lang)
    score = score or engine_score_fn(config.tb_lang)
    ver = verify_run(sub.run, tasks, score, name=sub.name, progress=progress, jobs=jobs)
    ver.dataset_hash, ver.tb_lang, ver.protocol = identity.dataset_hash, config.tb_lang, config.protocol
    return ver


def read_verification(path) -> Verification | None:
    try:
        return Verification.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError, KeyError):
        return None
