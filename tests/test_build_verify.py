# ruff: noqa: F811 - the fixtures imported from test_leaderboard are used by name
"""The verified badge is earned in the site build (issue 24): a committed verification.json is only a
claim, the build's own verification (re-scored, or found in its cache outside the submissions tree)
alone earns the badge, and the cache is reused only while the run files are the same. Real runs and a
real engine (tests/test_leaderboard.py's fixtures)."""

from __future__ import annotations

import json
import re
from dataclasses import replace as _replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_leaderboard import _submission, _tamper_round, _verify_with, runs, scorer, scores, task  # noqa: F401

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.core.records import Contract
from ecov.leaderboard.buildverify import BuildVerifier, VerifyCache, contracts_digest
from ecov.leaderboard.cli import main as cli
from ecov.leaderboard.site import build_site
from ecov.leaderboard.submission import SubmissionError, run_digest
from ecov.leaderboard.verify import DIFFERS, VERIFIED, Verification


def _marks(site: Path) -> dict[str, str]:
    """submission -> the mark the index shows for it."""
    html = (site / "index.html").read_text()
    return {name: state for state, name in re.findall(r'data-verified="([^"]+)" data-name="([^"]+)"', html)}


def _counting(scorer):
    """The session engine's score, counting each simulation asked for."""
    calls: list[str] = []

    def score(design, tb, seed):
        calls.append(tb)
        return scorer(design, tb, seed)

    return score, calls


def _forge(dest: Path) -> None:
    """What a submitter can do: edit a figure, then write a verification.json saying verified with the
    edited files' digest."""
    _tamper_round(dest, "branch", +2)
    ver = Verification(submission=dest.name, verdict=VERIFIED, run_digest=run_digest(dest / "run"),
                       checked_rounds=2, scored=1, checked_samples=1, created="2026-12-02T00:00:00Z")
    (dest / "verification.json").write_text(json.dumps(ver.to_dict()))


def test_a_forged_verification_gets_no_badge_and_the_builds_own_does(tmp_path, runs, scorer):
    honest = _submission(tmp_path, runs["direct"], name="honest")
    forged = _submission(tmp_path, runs["weak"], name="forged")
    stale = _submission(tmp_path, runs["good"], name="stale")
    for s in (honest, stale):
        _verify_with(s, scorer)  # a real verification, committed: still only a claim
    _tamper_round(stale, "toggle", -1)  # edited after its verification
    _forge(forged)
    subs = honest.parent

    build_site(subs, tmp_path / "plain")  # no --verify: nothing earns the badge
    assert _marks(tmp_path / "plain") == {"honest": "claimed", "forged": "claimed", "stale": "stale"}
    html = (tmp_path / "plain" / "index.html").read_text()
    assert "claimed, not verified by this build" in html and 'class="mark mark-verified"' not in html.split(
        "<footer>")[0]
    assert "a claim, not verified by this build" in (tmp_path / "plain" / "s" / "forged" / "verification.html"
                                                     ).read_text()

    score, calls = _counting(scorer)
    report = build_site(subs, tmp_path / "site", verifier=BuildVerifier(VerifyCache(tmp_path / "cache", subs),
                                                                        score=score))
    assert _marks(tmp_path / "site") == {"honest": "verified", "forged": "differs", "stale": "differs"}
    assert sorted(report.verified) == ["forged: differs, re-scored now", "honest: verified, re-scored now",
                                       "stale: differs, re-scored now"]
    # Each distinct testbench once across the build (the weak and the reference one: the submissions' 1, 1
    # and 2 share them), simulated again whatever their records say.
    assert len(calls) == 2
    published = json.loads((tmp_path / "site" / "s" / "forged" / "data" / "verification.json").read_text())
    assert published["verdict"] == DIFFERS and any(d["field"] == "coverage[dut][branch].covered"
                                                   for d in published["differences"])
    assert "this site&#39;s build" in (tmp_path / "site" / "s" / "honest" / "verification.html").read_text()


def test_the_verify_cache_is_reused_until_the_run_changes(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["good"], name="good")
    subs, cache = dest.parent, tmp_path / "cache"

    def build(out: str):
        score, calls = _counting(scorer)
        report = build_site(subs, tmp_path / out, verifier=BuildVerifier(VerifyCache(cache, subs), score=score))
        return report, calls, _marks(tmp_path / out)["good"]

    report, calls, mark = build("one")
    assert (report.verified, len(calls), mark) == (["good: verified, re-scored now"], 2, "verified")
    assert len(list(cache.glob("*.json"))) == 1

    report, calls, mark = build("two")  # same run files, benchmark and scorer: nothing simulated
    assert (report.verified, calls, mark) == (["good: verified, reused from the verify cache"], [], "verified")

    _tamper_round(dest, "toggle", -1)  # the run digest changes: the cached verification no longer applies
    report, calls, mark = build("three")
    assert (report.verified, len(calls), mark) == (["good: differs, re-scored now"], 2, "differs")
    assert len(list(cache.glob("*.json"))) == 2



def test_the_verify_cache_must_be_outside_the_submissions(tmp_path, runs):
    dest = _submission(tmp_path, runs["direct"], name="direct")
    with pytest.raises(SubmissionError, match="inside the submissions folder"):
        VerifyCache(dest / "cache", dest.parent)
    r = CliRunner().invoke(cli, ["build", "--submissions", str(dest.parent), "--out", str(tmp_path / "site"),
                                 "--verify", "--verify-cache", str(dest.parent / "x")])
    assert r.exit_code == 2 and "inside the submissions folder" in r.output
    r = CliRunner().invoke(cli, ["build", "--submissions", str(dest.parent), "--out", str(tmp_path / "site"),
                                 "--verify-cache", str(tmp_path / "c")])
    assert r.exit_code == 2 and "only with --verify" in r.output


def test_a_changed_contract_changes_the_verify_key():
    """Contracts are attached by the loader, outside the dataset hash: the key names them itself, so a
    cached verification is not reused after a task's rules or bins change."""
    tasks = load_benchmark(None)
    with_contract = next(t for t in tasks if t.contract is not None)
    edited = _replace(with_contract, contract=Contract(with_contract.contract.sv + "\n// edited",
                                                       with_contract.contract.meta))
    others = [t for t in tasks if t.id != with_contract.id]
    assert contracts_digest(tasks) == contracts_digest(list(reversed(tasks)))
    assert contracts_digest(tasks) != contracts_digest([*others, edited])
    assert contracts_digest(tasks) != contracts_digest(others)
