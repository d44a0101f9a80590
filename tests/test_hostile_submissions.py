# ruff: noqa: F811 - the fixtures imported from test_leaderboard are used by name
"""Hostile submissions (issue 24): each is refused or verifies as not verified, and nothing outside the
submission is read or written. Built here from real runs (tests/test_leaderboard.py's fixtures)."""

from __future__ import annotations

import io
import json
import os
import shutil
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_leaderboard import _meta, _submission, runs, scorer, scores, task  # noqa: F401 - fixtures

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.core.run_folder import RunFolder, SampleRecord
from ecov.harness.evaluation.tables import to_frame, write_frame
from ecov.leaderboard.cli import main as cli
from ecov.leaderboard.submission import SubmissionError, add_submission, open_submission
from ecov.leaderboard.untrusted import UntrustedError, safe_extract
from ecov.leaderboard.verify import DIFFERS, ERROR, VERIFIED, verify_submission


def _edit_config(dest: Path, **changes) -> None:
    p = dest / "run" / "config.json"
    p.write_text(json.dumps({**json.loads(p.read_text()), **changes}))


def _edit_samples(dest: Path, **changes) -> None:
    p = dest / "run" / "samples.jsonl"
    lines = [json.loads(x) for x in p.read_text().splitlines()]
    p.write_text("".join(json.dumps({**d, **changes}) + "\n" for d in lines))


def test_the_untouched_run_verifies(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["good"])
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == VERIFIED, ver.report()
    assert ver.dataset_hash.startswith("sha256:") and ver.tb_lang == "sv"


def test_a_benchmark_brought_with_the_submission_is_refused(tmp_path, runs, scorer, task):
    dest = _submission(tmp_path, runs["good"])
    save_tasks([task], dest / "bench", fmt="jsonl")  # the submission's own copy of "the benchmark"
    _edit_config(dest, benchmark=str(dest / "bench"))
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == ERROR and "no benchmark ECov knows" in ver.errors[0]


def test_a_dataset_hash_that_is_not_the_benchmarks_is_refused(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["good"])
    _edit_config(dest, dataset_hash="sha256:" + "0" * 64)
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == ERROR and "dataset hash" in ver.errors[0]


@pytest.mark.parametrize("field, value", [("best_state_overall", 100.0), ("best_overall_by_round", [100.0, 100.0]),
                                          ("best_round", 0)])
def test_edited_best_state_figures_differ(tmp_path, runs, scorer, field, value):
    dest = _submission(tmp_path, runs["weak"])
    _edit_samples(dest, **{field: value})
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == DIFFERS and any(d.field == f"sample.{field}" for d in ver.differences), ver.report()


def test_a_round_claiming_another_seed_is_scored_at_the_configs(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["direct"])
    p = dest / "run" / "rounds.jsonl"
    recs = [json.loads(x) for x in p.read_text().splitlines()]
    for r in recs:
        r["result"]["seed"] = 7
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == DIFFERS and any(d.field == "seed" and d.rescored == 1 for d in ver.differences)


def test_a_subset_without_task_ids_counts_every_task_of_the_benchmark(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["direct"])
    _edit_config(dest, task_ids=None)
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    # It claims the whole benchmark, but its hash is that of one task: refused before any re-scoring.
    assert ver.verdict == ERROR and "dataset hash" in ver.errors[0], ver.report()


def _outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "host-secret.txt"
    secret.parent.mkdir()
    secret.write_text("HOST SECRET\n")
    return secret


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_links_in_a_folder_submission_are_refused(tmp_path, runs, link):
    secret = _outside(tmp_path)
    dest = _submission(tmp_path, runs["direct"])
    target = dest / "run" / "summary.json"
    target.unlink()
    (os.symlink if link == "symlink" else os.link)(secret, target)
    with pytest.raises(SubmissionError, match=link.replace("hardlink", "hard link").replace("symlink",
                                                                                           "symbolic link")):
        with open_submission(dest):
            pass
    r = CliRunner().invoke(cli, ["build", "--submissions", str(dest.parent), "--out", str(tmp_path / "site")])
    assert "HOST SECRET" not in "".join(p.read_text(errors="ignore") for p in (tmp_path / "site").rglob("*")
                                        if p.is_file()), r.output
    assert secret.read_text() == "HOST SECRET\n"


def test_verify_never_writes_through_a_link(tmp_path, runs):
    secret = _outside(tmp_path)
    dest = _submission(tmp_path, runs["direct"])
    (dest / "verification.json").symlink_to(secret)
    r = CliRunner().invoke(cli, ["verify", str(dest), "-q"])
    assert r.exit_code == 2 and "symbolic link" in r.output
    assert secret.read_text() == "HOST SECRET\n"


def _tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def test_archives_with_links_or_past_the_caps_are_refused(tmp_path):
    link = tarfile.TarInfo("run/summary.json")
    link.type, link.linkname = tarfile.SYMTYPE, "/proc/self/environ"
    with pytest.raises(UntrustedError, match="link"):
        safe_extract(_tar(tmp_path / "a.tar.gz", [(link, None)]), tmp_path / "x")
    many = []
    for i in range(6):
        info = tarfile.TarInfo(f"run/f{i}")
        info.size = 4
        many.append((info, b"abcd"))
    with pytest.raises(UntrustedError, match="more than 5 members"):
        safe_extract(_tar(tmp_path / "b.tar.gz", many), tmp_path / "y", max_files=5)
    with pytest.raises(UntrustedError, match="expands to more than 10 bytes"):
        safe_extract(_tar(tmp_path / "c.tar.gz", many), tmp_path / "z", max_bytes=10)
    assert not any((tmp_path / d).exists() and any((tmp_path / d).rglob("f*")) for d in ("y", "z"))


def test_add_refuses_faults_and_copies_no_lock_with_plain_modes(tmp_path, runs):
    run = tmp_path / "run"
    shutil.copytree(runs["direct"], run)
    (run / ".lock").write_text("")
    os.chmod(run / "summary.json", 0o600)
    dest = add_submission(run, tmp_path / "subs", "ok", _meta())
    assert not (dest / "run" / ".lock").exists()
    assert all((p.stat().st_mode & 0o777) == 0o644 for p in (dest / "run").rglob("*") if p.is_file())
    folder = RunFolder(run)
    (s,) = folder.samples()
    folder.append_sample(SampleRecord.from_dict({**s.to_dict(), "error": "model error at round 0: HTTP 503"}))
    with pytest.raises(SubmissionError, match="ended on a fault"):
        add_submission(run, tmp_path / "subs", "faulty", _meta())


def test_exported_csv_cells_cannot_run_as_formulas(tmp_path, runs):
    run = tmp_path / "run"
    shutil.copytree(runs["direct"], run)
    p = run / "rounds.jsonl"
    recs = [json.loads(x) for x in p.read_text().splitlines()]
    recs[0]["parse_error"] = '=HYPERLINK("http://evil.example","x")'
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    text = write_frame(to_frame(run), tmp_path / "t.csv").read_text()
    assert "'=HYPERLINK" in text and ',=HYPERLINK' not in text
    for col in ("finish_reason", "reasks", "stop_reason", "protocol", "tb_lang", "best_state_overall"):
        assert col in text.splitlines()[0]


def test_the_site_never_ranks_a_run_on_a_benchmark_it_brought(tmp_path, runs, task):
    """The benchmark swap: the run names a folder inside the submission called like a real benchmark."""
    import csv

    from ecov.leaderboard.site import build_site

    honest = _submission(tmp_path, runs["direct"], name="honest")
    swap = _submission(tmp_path, runs["direct"], name="swap")
    save_tasks([task], swap / "ecov-embedded", fmt="jsonl")
    _edit_config(swap, benchmark=str(swap / "ecov-embedded"))
    report = build_site(honest.parent, tmp_path / "site")
    rows = []
    for p in (tmp_path / "site" / "tables").glob("*.csv"):
        if not p.stem.endswith("-tasks"):
            rows += list(csv.DictReader(p.open()))
    by_name = {r["submission"]: r for r in rows}
    assert by_name["swap"]["benchmark"].startswith("unknown benchmark") and by_name["swap"]["ranked"] == "False"
    assert by_name["honest"]["benchmark"] == "ecov-embedded"
    assert "unknown benchmark (ecov-embedded)" in report.tables or any("unknown" in t for t in report.tables)


def test_folder_submissions_past_the_caps_are_refused_before_anything_is_read(tmp_path, runs):
    """The archive caps hold for the folder form too, from metadata alone: the submission.json, made
    unreadable as JSON here, is never reached, and add refuses such a run before copying it."""
    from ecov.leaderboard.untrusted import MAX_SUBMISSION_BYTES, MAX_SUBMISSION_FILES

    many = _submission(tmp_path, runs["direct"], name="many")
    (many / "submission.json").write_text("{not json")
    logs = many / "run" / "logs"
    logs.mkdir()
    for i in range(MAX_SUBMISSION_FILES):
        (logs / f"{i}.log").touch()
    with pytest.raises(SubmissionError, match=f"more than {MAX_SUBMISSION_FILES:,} files and folders"):
        with open_submission(many):
            pass
    with pytest.raises(SubmissionError, match="more than 20,000 files"):
        add_submission(many / "run", tmp_path / "subs", "copy-of-many", _meta())
    assert not (tmp_path / "subs" / "copy-of-many").exists()

    big = _submission(tmp_path, runs["direct"], name="big")
    with open(big / "run" / "trace.bin", "wb") as f:  # sparse: past the cap in size, nothing on disk
        f.truncate(MAX_SUBMISSION_BYTES + 1)
    with pytest.raises(SubmissionError, match=f"more than {MAX_SUBMISSION_BYTES:,} bytes"):
        with open_submission(big):
            pass
    r = CliRunner().invoke(cli, ["build", "--submissions", str(tmp_path / "subs"), "--out", str(tmp_path / "site")])
    assert r.exit_code == 0 and "left out: big" in r.output and "left out: many" in r.output
    assert not (tmp_path / "site" / "s" / "big").exists()


def test_non_standard_rounds_verify_as_non_standard_and_are_not_ranked(tmp_path, runs, scorer):
    """The weak run has 2 agentic rounds where llm4cov sets 4: every figure reproduces, so verified, but
    with standing non-standard and the reason; the site lists it apart with the same reason."""
    from ecov.leaderboard.rules import NON_STANDARD, STANDARD

    dest = _submission(tmp_path, runs["weak"], name="weak")
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == VERIFIED and ver.standing == NON_STANDARD, ver.report()
    assert ver.nonstandard == ["2 rounds where protocol llm4cov sets 4"]
    assert "VERIFIED (non-standard)" in ver.report() and "non-standard: 2 rounds where" in ver.report()
    with open_submission(_submission(tmp_path, runs["direct"], name="direct")) as sub:
        direct = verify_submission(sub, score=scorer)
    assert (direct.verdict, direct.standing, direct.nonstandard) == (VERIFIED, STANDARD, [])


def test_a_run_under_another_seed_is_non_standard(tmp_path, task, scorer):
    """A run made (and recorded) at simulation seed 2 reproduces at seed 2, but the protocol sets seed 1:
    one picked among several seeds must not rank."""
    from test_leaderboard import write_run

    from ecov.leaderboard.ranking import standing
    from ecov.leaderboard.rules import NON_STANDARD

    run = write_run(tmp_path / "seed2", task, {0: [task.reference_tbs[0].content]}, scorer, model="m",
                    mode="direct", max_rounds=1, seed=2)
    dest = _submission(tmp_path, run, name="seed2")
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
        config, samples = sub.run.read_config(), sub.run.samples()
    assert ver.verdict == VERIFIED and ver.standing == NON_STANDARD, ver.report()
    assert ver.nonstandard[0].startswith("simulation seed 2 where the protocol sets 1")
    st = standing(config, samples, frozenset({task.id}), verdict=ver.verdict)  # the whole task set, yet not ranked
    assert not st.ranked and st.reason == ver.nonstandard[0]


@pytest.mark.parametrize("changes, field, submitted", [({"n_samples": 1}, "sample", "sample index 1"),
                                                       ({"max_rounds": 1}, "rounds", 2)])
def test_records_past_the_runs_own_n_or_rounds_differ(tmp_path, runs, scorer, changes, field, submitted):
    """The good run has 2 samples of 2 rounds; a config saying n=1 or 1 round does not reproduce."""
    dest = _submission(tmp_path, runs["good"])
    _edit_config(dest, **changes)
    with open_submission(dest) as sub:
        ver = verify_submission(sub, score=scorer)
    assert ver.verdict == DIFFERS, ver.report()
    assert any(d.field == field and d.submitted == submitted for d in ver.differences), ver.report()
