"""The site build's own verification: the badge is earned in the build, never read from a submission.

``ecov-leaderboard build --verify`` re-scores each submission (leaderboard/verify.py) unless its cache
folder holds a verification of the same run files (run digest), against the same benchmark tasks as
ECov loads them now (dataset hash) and by the same scorer and checks (track, engine identity, rules and
verify versions). That folder belongs to the build: it must lie outside the submissions tree (the Pages
workflow keeps it with actions/cache), so no submitter can put a verification there. A committed
``verification.json`` is only a claim.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from ecov.harness.core import bounded_json
from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.records import Design, ScoreResult
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.rules import RULES_VERSION
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import get_track, make_bughunt_engine
from ecov.leaderboard.identity import IdentityError, resolve
from ecov.leaderboard.stats import group_rounds
from ecov.leaderboard.submission import Submission, SubmissionError, open_submission, run_digest
from ecov.leaderboard.untrusted import write_inside
from ecov.leaderboard.verify import (
    ERROR,
    VERIFY_VERSION,
    ScoreFn,
    Verification,
    bughunt_score_fn,
    to_score,
    verify_submission,
)

ENTRY_SCHEMA = 2  # 2: verifications carry the re-derived samples
MAX_ENTRY_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class VerifyKey:
    """What a verification depends on: when any part changes, the submission is verified again."""

    run_digest: str
    dataset_hash: str
    scoring: str  # track, the engine's identity (Verilator, flags, scoring version), rules and verify versions
    contracts: str = ""  # the tasks' interface contracts (attached by the loader, outside the dataset hash)

    @property
    def file(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest() + ".json"


def contracts_digest(tasks) -> str:
    """sha256 over every task's contract (id, monitor, JSON): a changed contract changes the legal figures."""
    h = hashlib.sha256()
    for t in sorted(tasks, key=lambda t: t.id):
        if t.contract is not None:
            h.update(f"{t.id}\0{t.contract.sv}\0{t.contract.meta}\0".encode())
    return h.hexdigest()


def bughunt_digest(tasks, identity: dict) -> str:
    """sha256 over what a bug-hunt verification also depends on (issue 31): the bug-hunt scorer's identity
    and every task's mutants, kill-rate target and self-checking references."""
    h = hashlib.sha256(json.dumps(identity, sort_keys=True).encode())
    for t in sorted(tasks, key=lambda t: t.id):
        muts = [m.to_dict() for m in t.mutants.mutants] if t.mutants is not None else []
        refs = [f.content for f in t.bughunt_tbs]
        h.update(json.dumps([t.id, muts, t.bughunt_target, refs], sort_keys=True).encode())
    return h.hexdigest()


class VerifyCache:
    """Verifications made by earlier builds, one JSON file per VerifyKey, in a folder the build owns."""

    def __init__(self, folder: str | Path, submissions: str | Path):
        self.folder = Path(folder).resolve()
        subs = Path(submissions).resolve()
        if self.folder == subs or self.folder.is_relative_to(subs):
            raise SubmissionError(f"the verify cache {folder} is inside the submissions folder {submissions}: "
                                  "a submitter could put a verification there; keep it outside")

    def get(self, key: VerifyKey) -> Verification | None:
        """The cached verification, or None: an entry that is too large, nests too deep, is not this
        key's or does not load is dropped (and the submission verified again), never fatal."""
        path = self.folder / key.file
        try:
            data = bounded_json.read(path, max_bytes=MAX_ENTRY_BYTES)
            if data.get("schema") != ENTRY_SCHEMA or data.get("key") != asdict(key):
                raise ValueError("not this key's entry")
            return Verification.from_dict(data["verification"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            path.unlink(missing_ok=True)  # verified again, and written anew
            return None

    def put(self, key: VerifyKey, ver: Verification) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        entry = {"schema": ENTRY_SCHEMA, "key": asdict(key), "verification": ver.to_dict()}
        write_inside(self.folder / key.file, json.dumps(entry, indent=1, default=str) + "\n")


@dataclass(frozen=True)
class SimJob:
    """One distinct testbench the build simulates, for the first submission (in build order) that has it;
    with ``task``, a bug-hunt score (against the task's mutants)."""

    submission: str
    tb_lang: str
    design: Design
    testbench: str
    seed: int
    task: Task | None = None


@dataclass
class BuiltVerification:
    verification: Verification
    reused: bool  # from the cache of an earlier build, rather than re-scored now


def task_digest(task: Task) -> str:
    """What a bug-hunt score depends on besides the testbench, the seed and the scorer: the design, the
    mutants and the task's self-checking references (which the embedded-design refusal exempts)."""
    muts = [m.to_dict() for m in task.mutants.mutants] if task.mutants is not None else []
    blob = [task.design.to_dict(), muts, [f.content for f in task.bughunt_tbs]]
    return hashlib.sha256(json.dumps(blob, sort_keys=True).encode()).hexdigest()


def design_digest(design) -> str:
    """The content of a design (files, top, instance, contract, parameter sets): what a score depends on
    besides the testbench, the seed and the scorer."""
    return hashlib.sha256(json.dumps(design.to_dict(), sort_keys=True).encode()).hexdigest()


def _interleave(few: list[SimJob], many: list[SimJob]) -> list[SimJob]:
    """``few`` spread evenly through ``many``: the bug hunt's testbenches (Python-heavy rules on long
    testbenches, runs against every mutant) beside the coverage rows' (mostly C++ compiles), so the
    cores stay busy while one job holds the interpreter."""
    if not few or not many:
        return few + many
    out, step = [], len(many) / len(few)
    for i, job in enumerate(few):
        out += many[round(i * step):round((i + 1) * step)]
        out.append(job)
    return out


class BuildVerifier:
    """Verifies submissions for one build: one engine per track (disk cache off), results kept in a cache.

    Across the build each distinct testbench is simulated once (keyed by the scorer's identity, the
    design's content, the testbench and the seed, whatever engine computes the score): ``prefetch`` scores
    those of every submission still to verify before the pages are built, the submissions with the fewest
    new testbenches first, with the bug-hunt runs' testbenches (each against the task's mutants) spread
    among the coverage runs', one pool for both, with progress lines.

    ``score`` replaces the engine's scoring (tests score through a session engine); the key still names
    the track's real engine, so a cache is never shared across scorer versions."""

    def __init__(self, cache: VerifyCache | None = None, score: ScoreFn | None = None, jobs: int = 1,
                 progress: Callable[[str], None] | None = None):
        self.cache, self.score, self.jobs, self.progress = cache, score, jobs, progress
        self._engines: dict[str, object] = {}
        self._bughunt: dict[str, ScoreFn] = {}
        self._memo: dict[tuple[str, str, str, int], ScoreResult] = {}
        self._lock = threading.Lock()
        self.simulated = 0  # distinct testbenches simulated by this build (0 when every result was reused)

    def _engine(self, tb_lang: str):
        if tb_lang not in self._engines:
            self._engines[tb_lang] = get_track(tb_lang).make_scorer(EngineConfig(use_cache=False))
        return self._engines[tb_lang]

    def scoring_id(self, tb_lang: str) -> str:
        ident = {"track": tb_lang or "sv", **self._engine(tb_lang).identity(), "rules": RULES_VERSION,
                 "verify": VERIFY_VERSION}
        return json.dumps(ident, sort_keys=True)

    def bughunt_scoring_id(self, tb_lang: str) -> str:
        ident = {"track": tb_lang or "sv", "bughunt": make_bughunt_engine(tb_lang, EngineConfig(use_cache=False)).identity(),
                 "rules": RULES_VERSION, "verify": VERIFY_VERSION}
        return json.dumps(ident, sort_keys=True)

    def _memo_key(self, scoring: str, design, tb: str, seed: int) -> tuple[str, str, str, int]:
        what = task_digest(design) if isinstance(design, Task) else design_digest(design)
        return scoring, what, hashlib.sha256(tb.encode()).hexdigest(), seed

    def _bughunt_scorer(self, tb_lang: str) -> ScoreFn:
        """The bug hunt's round scorer (``(task, testbench, seed)``, one engine per track) through the memo."""
        if tb_lang not in self._bughunt:
            self._bughunt[tb_lang] = self._memoised(self.bughunt_scoring_id(tb_lang), bughunt_score_fn(tb_lang))
        return self._bughunt[tb_lang]

    def _scorer(self, tb_lang: str) -> ScoreFn:
        """Score through the build's memo: a testbench scored for one submission is not simulated again."""
        engine = self._engine(tb_lang)
        real = self.score or (lambda design, tb, seed: engine.score(design, tb, seed=seed))
        return self._memoised(self.scoring_id(tb_lang), real)

    def _memoised(self, scoring: str, real: ScoreFn) -> ScoreFn:
        def score(design, tb: str, seed: int) -> ScoreResult:
            key = self._memo_key(scoring, design, tb, seed)
            with self._lock:
                hit = self._memo.get(key)
            if hit is None:
                hit = real(design, tb, seed)
                with self._lock:
                    self.simulated += key not in self._memo
                    self._memo[key] = hit
            return hit

        return score

    def _key(self, sub: Submission, config, resolved) -> VerifyKey:
        contracts = contracts_digest(resolved[1].values())
        if get_protocol(config.protocol).bughunt:  # the mutants and targets live outside the dataset hash
            ident = make_bughunt_engine(config.tb_lang, EngineConfig(use_cache=False)).identity()
            contracts += ":bughunt:" + bughunt_digest(resolved[1].values(), ident)
        return VerifyKey(run_digest(sub.run_dir), resolved[0].dataset_hash, self.scoring_id(config.tb_lang),
                         contracts)

    def plan(self, folders: list[Path]) -> list[SimJob]:
        """The distinct testbenches the submissions in ``folders`` need that neither the verify cache nor
        this build's memo holds, the submissions with the fewest such testbenches first; a submission that
        cannot be read is left to its own verification, which reports why."""
        plans = []
        for folder in folders:
            try:
                with open_submission(folder) as sub:
                    config = sub.run.read_config()
                    bughunt = get_protocol(config.protocol).bughunt
                    resolved = resolve(config)
                    if self.cache and self.cache.get(self._key(sub, config, resolved)) is not None:
                        continue
                    todo = to_score(config, group_rounds(sub.run.rounds()), sub.run.samples(), resolved[1])
                    scoring = self.bughunt_scoring_id(config.tb_lang) if bughunt else self.scoring_id(config.tb_lang)
                    items = []
                    for task, tb in todo.values():
                        what = task if bughunt else task.design
                        items.append((self._memo_key(scoring, what, tb, config.seed), task, tb))
                    plans.append((sub.name, config.tb_lang, config.seed, bughunt, items))
            except Exception:  # noqa: BLE001 - its own verification reports what is wrong with it
                continue
        runs: dict[bool, list[SimJob]] = {False: [], True: []}
        seen = set(self._memo)
        while plans:  # cheapest first: the submission with the fewest testbenches not yet planned
            plans.sort(key=lambda p: (sum(1 for k, _, _ in p[4] if k not in seen), p[0]))
            name, tb_lang, seed, bughunt, items = plans.pop(0)
            for key, task, tb in items:
                if key not in seen:
                    seen.add(key)
                    runs[bughunt].append(SimJob(name, tb_lang, task.design, tb, seed, task if bughunt else None))
        return _interleave(runs[True], runs[False])

    def prefetch(self, folders: list[Path]) -> None:
        """Simulate every distinct testbench the submissions in ``folders`` need, once (``plan``), before
        they are verified one by one, ``jobs`` at a time, with a progress line each."""
        jobs = self.plan(folders)
        if not jobs:
            return
        if self.progress:
            subs = len({j.submission for j in jobs})
            self.progress(f"verify: {len(jobs)} distinct testbenches of {subs} submissions to simulate")
        scorers = {(lang, False): self._scorer(lang) for lang in {j.tb_lang for j in jobs if j.task is None}}
        scorers |= {(lang, True): self._bughunt_scorer(lang) for lang in {j.tb_lang for j in jobs if j.task is not None}}

        def one(job: SimJob) -> ScoreResult | None:
            try:
                if job.task is not None:
                    return scorers[job.tb_lang, True](job.task, job.testbench, job.seed)
                return scorers[job.tb_lang, False](job.design, job.testbench, job.seed)
            except Exception:  # noqa: BLE001 - scored again, and reported, by the submission's verification
                return None

        with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
            for i, (job, res) in enumerate(zip(jobs, pool.map(one, jobs), strict=True), 1):
                if self.progress:
                    what = f"{res.status}, overall {res.overall:.2f}%" if res is not None else "failed"
                    self.progress(f"[{i}/{len(jobs)}] {job.submission}: {what}")

    def __call__(self, sub: Submission) -> BuiltVerification:
        config = sub.run.read_config()
        digest = run_digest(sub.run_dir)

        def error(why: str) -> BuiltVerification:  # nothing re-scored: an error, never cached
            return BuiltVerification(Verification(submission=sub.name, verdict=ERROR, run_digest=digest,
                                                  benchmark=config.benchmark, split=config.split, errors=[why]),
                                     False)

        try:
            resolved = resolve(config)
        except IdentityError as e:
            return error(f"cannot verify against benchmark {config.benchmark}/{config.split}: {e}")
        try:
            key = self._key(sub, config, resolved)
        except Exception as e:  # noqa: BLE001 - a track whose scorer cannot run here (no sandbox for it)
            return error(f"cannot make the {config.tb_lang} scorer here: {type(e).__name__}: {e}")
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            cached.submission = sub.name
            return BuiltVerification(cached, True)
        bughunt = get_protocol(config.protocol).bughunt
        if self.progress:
            self.progress(f"{sub.name}: re-deriving every sample from its re-scored testbenches"
                          + (" (each against every mutant)" if bughunt else ""))
        # A bug-hunt run's testbenches are shown here too (each line says what its mutants gave).
        bughunt_score = self._bughunt_scorer(config.tb_lang) if bughunt else None
        ver = verify_submission(sub, score=self._scorer(config.tb_lang), progress=self.progress if bughunt else None,
                                jobs=self.jobs, resolved=resolved, bughunt_score=bughunt_score)
        if self.cache and ver.verdict != ERROR:  # an error (an engine fault, say) is tried again next build
            self.cache.put(key, ver)
        return BuiltVerification(ver, False)
