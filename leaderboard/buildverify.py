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
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ecov.harness.core.protocol import get_protocol
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.rules import RULES_VERSION
from ecov.harness.tracks.base import get_track, make_bughunt_engine
from ecov.leaderboard.identity import IdentityError, resolve
from ecov.leaderboard.submission import Submission, SubmissionError, run_digest
from ecov.leaderboard.untrusted import write_inside
from ecov.leaderboard.verify import ERROR, VERIFY_VERSION, ScoreFn, Verification, verify_submission

ENTRY_SCHEMA = 1


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
        path = self.folder / key.file
        try:
            data = json.loads(path.read_text())
            if data.get("schema") != ENTRY_SCHEMA or data.get("key") != asdict(key):
                return None
            return Verification.from_dict(data["verification"])
        except (OSError, ValueError, TypeError, KeyError):
            return None  # absent or unreadable: verified again

    def put(self, key: VerifyKey, ver: Verification) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        entry = {"schema": ENTRY_SCHEMA, "key": asdict(key), "verification": ver.to_dict()}
        write_inside(self.folder / key.file, json.dumps(entry, indent=1, default=str) + "\n")


@dataclass
class BuiltVerification:
    verification: Verification
    reused: bool  # from the cache of an earlier build, rather than re-scored now


class BuildVerifier:
    """Verifies submissions for one build: one engine per track (disk cache off), results kept in a cache.

    ``score`` replaces the engine's scoring (tests score through a session engine); the key still names
    the track's real engine, so a cache is never shared across scorer versions."""

    def __init__(self, cache: VerifyCache | None = None, score: ScoreFn | None = None, jobs: int = 1,
                 progress: Callable[[str], None] | None = None):
        self.cache, self.score, self.jobs, self.progress = cache, score, jobs, progress
        self._engines: dict[str, object] = {}
        self.simulated = 0  # distinct testbenches simulated by this build (0 when every result was reused)

    def _engine(self, tb_lang: str):
        if tb_lang not in self._engines:
            self._engines[tb_lang] = get_track(tb_lang).make_scorer(EngineConfig(use_cache=False))
        return self._engines[tb_lang]

    def scoring_id(self, tb_lang: str) -> str:
        ident = {"track": tb_lang or "sv", **self._engine(tb_lang).identity(), "rules": RULES_VERSION,
                 "verify": VERIFY_VERSION}
        return json.dumps(ident, sort_keys=True)

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
            contracts = contracts_digest(resolved[1].values())
            if get_protocol(config.protocol).bughunt:  # the mutants and targets live outside the dataset hash
                ident = make_bughunt_engine(config.tb_lang, EngineConfig(use_cache=False)).identity()
                contracts += ":bughunt:" + bughunt_digest(resolved[1].values(), ident)
            key = VerifyKey(digest, resolved[0].dataset_hash, self.scoring_id(config.tb_lang), contracts)
        except Exception as e:  # noqa: BLE001 - a track whose scorer cannot run here (no sandbox for it)
            return error(f"cannot make the {config.tb_lang} scorer here: {type(e).__name__}: {e}")
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            cached.submission = sub.name
            return BuiltVerification(cached, True)
        if self.progress:
            self.progress(f"{sub.name}: re-scoring every recorded testbench")
        engine = self._engine(config.tb_lang)
        score = self.score or (lambda design, tb, seed: engine.score(design, tb, seed=seed))
        ver = verify_submission(sub, score=score, progress=self.progress, jobs=self.jobs, resolved=resolved)
        self.simulated += ver.scored
        if self.cache and ver.verdict != ERROR:  # an error (an engine fault, say) is tried again next build
            self.cache.put(key, ver)
        return BuiltVerification(ver, False)
