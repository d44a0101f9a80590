# ruff: noqa: F811 - the fixtures imported from test_leaderboard are used by name
"""A leaderboard no submission can game or take down (issue 33).

Forgeries: each is unranked or refused, and the table shows the figures the build re-derived. Names:
each impersonation is refused. Denial of service: each of the hostile files below leaves a complete site
with the control submission listed, alone and all together. Caches: a bad entry is dropped and
recomputed. Real runs (the real agent loop and Verilator, tests/test_leaderboard.py's fixtures) and a
builtin/reference run over the whole embedded suite, scored once for the whole module.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tarfile
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer
from test_leaderboard import WEAK_TB, _meta, _submission, runs, scorer, scores, task, write_run  # noqa: F401

from ecov.harness.benchmark.store import dataset_hash, load_benchmark
from ecov.harness.core.records import INFRA_ERROR, ScoreResult
from ecov.harness.core.run_folder import RunConfig, RunFolder, SampleRecord
from ecov.harness.evaluation.runner import build_summary, run_eval
from ecov.harness.models import ModelRequest, get_model
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tasks import Task
from ecov.harness.tracks.sv.scorer import Engine
from ecov.leaderboard import site as site_module
from ecov.leaderboard.buildverify import BuildVerifier, VerifyCache
from ecov.leaderboard.names import NameBook, NameError_, normalise, reserved, skeleton
from ecov.leaderboard.site import build_site
from ecov.leaderboard.submission import SubmissionMeta, add_submission, open_submission
from ecov.leaderboard.verify import DIFFERS, ERROR, VERIFIED, verify_submission

NESTED = "[" * 200_000 + "]" * 200_000  # valid JSON, and a RecursionError for a recursive parser


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def _write_jsonl(path: Path, recs: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))


def _edit_json(path: Path, **changes) -> None:
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


def _resummarize(run: Path) -> None:
    """What a forger does after editing samples.jsonl: a summary that agrees with the edited samples."""
    folder = RunFolder(run)
    folder.write_summary(build_summary(folder, folder.read_config()))


def _verify(dest: Path, scorer):
    with open_submission(dest) as sub:
        return verify_submission(sub, score=scorer)


# ---- forgeries on one task ------------------------------------------------------------------------------


def test_a_sample_without_rounds_claiming_a_pass_is_refused(tmp_path, runs, scorer):
    """Sample 1 of the good run fails; the forger removes its rounds and claims a 100% pass in 0 rounds,
    with a summary to match. Verify refuses the sample (a sample's figures come from its rounds), the
    verdict is differs, and the re-derived sample is the failure it is."""
    dest = _submission(tmp_path, runs["good"])
    run = dest / "run"
    _write_jsonl(run / "rounds.jsonl", [r for r in _jsonl(run / "rounds.jsonl") if r["sample"] != 1])
    samples = _jsonl(run / "samples.jsonl")
    for s in samples:
        if s["sample"] == 1:
            s.update(passed=True, passed_round=0, rounds=0, final_overall=100.0, best_overall=100.0,
                     overall_by_round=[], best_overall_by_round=[], best_state_overall=100.0, stop_reason="")
    _write_jsonl(run / "samples.jsonl", samples)
    _resummarize(run)
    ver = _verify(dest, scorer)
    assert ver.verdict == DIFFERS, ver.report()
    (hit,) = [d for d in ver.differences if d.field == "sample.rounds"]
    assert (hit.sample, hit.submitted) == (1, "0 claimed, none recorded")
    assert [s["passed"] for s in sorted(ver.samples, key=lambda s: s["sample"])] == [True, False]


def test_an_engine_fault_while_re_scoring_is_an_error_not_a_difference(tmp_path, runs):
    """A sandbox that cannot fork on a loaded machine makes every re-score an infra error: the verdict is
    an error (tried again by the next build, never cached), not "differs" from the results it could not
    make."""
    dest = _submission(tmp_path, runs["good"])

    def faulty(design, testbench, seed):
        return ScoreResult(status=INFRA_ERROR, instance="uut", errors=["bwrap: Can't fork for pid 1"])

    ver = _verify(dest, faulty)
    assert ver.verdict == ERROR and any("engine infra error" in e for e in ver.errors), ver.report()


def test_a_stripped_legal_verdict_is_re_derived(tmp_path, runs, scorer, task):
    """updown_counter has an interface contract: every round gets a legal verdict whatever the submission
    claims. Stripping them (null on rounds, contract false on samples, summary to match) differs."""
    assert task.contract is not None
    dest = _submission(tmp_path, runs["direct"])
    run = dest / "run"
    rounds = _jsonl(run / "rounds.jsonl")
    assert all(r["legal_passed"] is not None for r in rounds)
    _write_jsonl(run / "rounds.jsonl", [{**r, "legal_passed": None} for r in rounds])
    _write_jsonl(run / "samples.jsonl", [{**s, "contract": False, "legal_passed_round": None,
                                          "legal_overall_by_round": [], "violated": False}
                                         for s in _jsonl(run / "samples.jsonl")])
    _resummarize(run)
    ver = _verify(dest, scorer)
    fields = {d.field for d in ver.differences}
    assert ver.verdict == DIFFERS and {"legal_passed", "sample.contract"} <= fields, ver.report()
    assert ver.samples[0]["contract"] is True  # what the site shows: the re-derived legal figures


def test_a_protocol_relabel_is_caught_by_the_prompt_digests(tmp_path, runs, scorer):
    """An llm4cov run labelled ecov: the loop re-asks ecov's prompt, whose digest is not the recorded one."""
    dest = _submission(tmp_path, runs["direct"])
    _edit_json(dest / "run" / "config.json", protocol="ecov")
    _resummarize(dest / "run")
    ver = _verify(dest, scorer)
    assert ver.verdict == DIFFERS and any(d.field == "prompt_hash" and d.round == 0 for d in ver.differences), \
        ver.report()


def test_answers_a_builtin_model_did_not_give_differ(tmp_path, runs, scorer):
    """A run claiming builtin/reference: the build re-makes the builtin's answers instead of reading them."""
    dest = _submission(tmp_path, runs["direct"])
    _edit_json(dest / "run" / "config.json", model="builtin/reference")
    ver = _verify(dest, scorer)
    assert ver.verdict == DIFFERS and ver.reproduced_model == "builtin/reference"
    assert any(d.field == "response" for d in ver.differences), ver.report()


def test_samples_with_identical_answers_are_flagged(tmp_path, task, scorer):
    ref = task.reference_tbs[0].content
    run = write_run(tmp_path / "copies", task, {0: [ref], 1: [ref]}, scorer, model="m", mode="direct",
                    max_rounds=1)
    ver = _verify(_submission(tmp_path, run, name="copies"), scorer)
    assert ver.verdict == VERIFIED, ver.report()
    assert ver.warnings[-1] == "flagged: updown_counter: samples 0, 1 give identical answers in every round"
    assert "1 flagged: updown_counter" in site_module.verification_mark(ver, ver.run_digest, True).detail


def test_a_claimed_fault_reproduces_but_never_ranks(tmp_path, runs, scorer, task):
    """A fault is left out of every figure, so a forger stops a failing sample early and calls it a
    model error: the re-derivation reproduces the fault (the answers end there), but a run with a fault
    is unfinished, and never ranked."""
    from ecov.harness.core.run_folder import RoundRecord
    from ecov.harness.core.state import sample_from_rounds
    from ecov.leaderboard.ranking import standing

    dest = _submission(tmp_path, runs["good"])
    run = dest / "run"
    rounds = [r for r in _jsonl(run / "rounds.jsonl") if not (r["sample"] == 1 and r["round"] == 1)]
    _write_jsonl(run / "rounds.jsonl", rounds)
    kept = [RoundRecord.from_dict(r) for r in rounds if r["sample"] == 1]
    forged = sample_from_rounds(task.id, 1, kept, error="model error at round 2: HTTP 503",
                                protocol="llm4cov", stop_reason="model_error")
    _write_jsonl(run / "samples.jsonl", [s if s["sample"] == 0 else forged.to_dict()
                                         for s in _jsonl(run / "samples.jsonl")])
    _resummarize(run)
    ver = _verify(dest, scorer)
    assert ver.verdict == VERIFIED, ver.report()
    with open_submission(dest) as sub:
        config = sub.run.read_config()
    samples = [SampleRecord.from_dict(d) for d in ver.samples]
    st = standing(config, samples, frozenset({task.id}), verdict=ver.verdict)
    assert not st.ranked and "1 sample(s) ended on a fault" in st.reason


# ---- names ----------------------------------------------------------------------------------------------


def test_names_are_normalised_and_look_alikes_refused():
    assert normalise("  ｇｐｔ-4o   mini ") == "gpt-4o mini"  # NFKC, white space collapsed
    for bad, why in [("builtin/reference (direct)\u200b", "U+200B"), ("GPT-4o\u202e", "U+202E"),
                     ("builtin/r\u0435ference (direct)", "mixes scripts"), ("", "1-100 visible")]:
        with pytest.raises(NameError_, match=re.escape(why)):
            normalise(bad)
    assert normalise("DeepSeek 深度求索") == "DeepSeek 深度求索"  # scripts side by side, each word in one
    assert skeleton("bui1tin/reference") == skeleton("builtin/reference") == skeleton("buiItin/reference")
    assert skeleton("rnodel") == skeleton("model") != skeleton("mode1s")
    assert reserved("bui1tin/random", "api") and reserved("Mine", "baseline") and not reserved("Mine", "api")
    book = NameBook()
    assert book.admit("Good Model") == "Good Model" and book.admit("Good Model") == "Good Model"
    with pytest.raises(NameError_, match="looks like 'Good Model'"):
        book.admit("Good Mode1")


# ---- the ranking build: the shipped reference row beside forgeries made from it --------------------------


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory, scorer) -> Path:
    """builtin/reference over the whole embedded suite, direct, written by the real runner: a full run
    that verifies and ranks (its 16 reference testbenches are the module's only new simulations)."""
    tasks = load_benchmark("ecov-embedded")
    out = tmp_path_factory.mktemp("reference") / "run"
    cfg = RunConfig(model="builtin/reference", mode="direct", agent="direct", benchmark="ecov-embedded",
                    dataset_hash=dataset_hash(tasks))
    run_eval(tasks, get_model("builtin/reference"), cfg, out, scorer=scorer, workers=1, progress=False)
    return out


def _copy_run(subs: Path, run: Path, name: str, model: str, type_: str) -> Path:
    """A folder submission holding a copy of ``run``."""
    return add_submission(run, subs, name, SubmissionMeta(model=model, type=type_, date="2026-12-01"))


@pytest.fixture(scope="module")
def ranked_site(tmp_path_factory, scorer, reference_run):
    """One build --verify over: the builtin/reference row; "weaker" (one task's testbench swapped for a
    weak one, still claiming 100%); "zero-round" (one sample's rounds removed, its pass still claimed);
    two impersonations of the reference row's name (the same run), and a scripted-model row named like
    a builtin."""
    root = tmp_path_factory.mktemp("ranked")
    subs = root / "subs"
    _copy_run(subs, reference_run, "builtin-reference-direct", "builtin/reference (direct)", "baseline")
    weaker = _copy_run(subs, reference_run, "weaker", "Weaker Model", "api")
    rounds = _jsonl(weaker / "run" / "rounds.jsonl")
    for r in rounds:
        if r["task_id"] == "updown_counter":
            r.update(testbench=WEAK_TB, response=f"tb.sv\n```systemverilog\n{WEAK_TB}```\n")
    _write_jsonl(weaker / "run" / "rounds.jsonl", rounds)
    zero = _copy_run(subs, reference_run, "zero-round", "Zero Model", "api")
    _write_jsonl(zero / "run" / "rounds.jsonl",
                 [r for r in _jsonl(zero / "run" / "rounds.jsonl") if r["task_id"] != "updown_counter"])
    _write_jsonl(zero / "run" / "samples.jsonl", [{**s, "rounds": 0} if s["task_id"] == "updown_counter" else s
                                                  for s in _jsonl(zero / "run" / "samples.jsonl")])
    _resummarize(zero / "run")
    _copy_run(subs, reference_run, "cyrillic", "builtin/r\u0435ference (direct)\u200b", "baseline")
    _copy_run(subs, reference_run, "digit-one", "bui1tin/reference (direct)", "baseline")
    verifier = BuildVerifier(VerifyCache(root / "cache", subs), score=scorer)
    report = build_site(subs, root / "site", verifier=verifier)
    return root / "site", report


def _board(site: Path) -> tuple[list[str], list[str], str]:
    html = (site / "index.html").read_text()
    board = html.split('id="ecov-embedded-direct"')[1].split("</section>")[0]
    ranked = board.split('class="sortable leaderboard partial"')[0]
    partial = board.split('class="sortable leaderboard partial"')[1] if "leaderboard partial" in board else ""
    return re.findall(r'data-name="([^"]+)"', ranked), re.findall(r'data-name="([^"]+)"', partial), board


def test_only_what_reproduces_is_ranked_with_the_re_derived_figures(ranked_site):
    site, report = ranked_site
    ranked, partial, board = _board(site)
    assert ranked == ["builtin-reference-direct"], report
    assert sorted(partial) == ["weaker", "zero-round"]
    for name in ("weaker", "zero-round"):
        row = board.split(f'data-name="{name}"')[1].split("</tr>")[0]
        assert 'class="mark mark-differs"' in row and "do not reproduce" in row
        # The re-derived figure (15 of 16 tasks), never the 100% the files claim.
        assert '<td class="num key" data-sort="93.75"' in row, row
    ref = board.split('data-name="builtin-reference-direct"')[1].split("</tr>")[0]
    assert '<td class="num key" data-sort="100.0"' in ref and 'mark-verified' in ref


def test_impersonating_names_are_refused(ranked_site):
    site, report = ranked_site
    why = {s.split(":")[0]: s for s in report.skipped}
    assert set(why) == {"cyrillic", "digit-one"}, report.skipped
    assert "U+200B" in why["cyrillic"]
    assert "reserved for the rows the build makes itself" in why["digit-one"]
    assert not (site / "s" / "cyrillic").exists() and not (site / "s" / "digit-one").exists()
    assert "Submissions left out of this build" in (site / "index.html").read_text()


# ---- denial of service: each hostile file alone, then all together with the control ---------------------


def _nest(name: str):
    def edit(dest: Path) -> None:
        path = dest / name if name in ("submission.json", "verification.json") else dest / "run" / name
        if name.endswith(".jsonl"):
            path.write_text(path.read_text() + NESTED + "\n")
        else:
            path.write_text(NESTED)
    return edit


def _config(**changes):
    return lambda dest: _edit_json(dest / "run" / "config.json", **changes)


def _first_round(edit):
    def apply(dest: Path) -> None:
        rounds = _jsonl(dest / "run" / "rounds.jsonl")
        edit(rounds[0])
        _write_jsonl(dest / "run" / "rounds.jsonl", rounds)
    return apply


def _size(text: str):
    def edit(dest: Path) -> None:
        raw = (dest / "submission.json").read_text()
        (dest / "submission.json").write_text(re.sub(r'"size_b": [^,}]+', f'"size_b": {text}', raw))
    return edit


def _deep_member(dest: Path) -> None:
    """run.tar.gz with one member 3,000 folders deep (GNU long names make it a valid archive)."""
    with tarfile.open(dest / "run.tar.gz", "w:gz", format=tarfile.GNU_FORMAT) as tar:
        tar.add(dest / "run", arcname="run")
        info = tarfile.TarInfo("run/" + "d/" * 3000 + "x.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    shutil.rmtree(dest / "run")


def _deep_folder(dest: Path) -> None:
    p = dest / "run" / "logs"
    for _ in range(1100):
        p = p / "d"
        p.mkdir(parents=True)  # one level at a time: os.makedirs itself recurses per level


def _remove_deep(root: Path) -> None:
    """Remove a tree bottom-up without recursion (shutil.rmtree recurses once per level)."""
    stack, order = [root], []
    while stack:
        p = stack.pop()
        order.append(p)
        with os.scandir(p) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    stack.append(Path(e.path))
                else:
                    os.unlink(e.path)
    for p in reversed(order):
        os.rmdir(p)


# name -> (edit of a copy of the control, a word the refusal must carry)
DOS_CASES = {
    "mode-int": (_config(mode=5), "mode"),
    "mode-list": (_config(mode=["agentic"]), "mode"),
    "tb-lang-bogus": (_config(tb_lang="bogus"), "not a registered track"),
    "max-rounds-1e9": (_config(max_rounds=1e9), "max_rounds"),
    "nested-submission": (_nest("submission.json"), "nests deeper than"),
    "nested-config": (_nest("config.json"), "nests deeper than"),
    "nested-rounds": (_nest("rounds.jsonl"), "nests deeper than"),
    "nested-samples": (_nest("samples.jsonl"), "nests deeper than"),
    "nested-summary": (_nest("summary.json"), "nests deeper than"),
    "nested-verification": (_nest("verification.json"), "nests deeper than"),
    "result-list": (_first_round(lambda r: r.update(result=[1])), "result"),
    "coverage-list": (_first_round(lambda r: r["result"].update(coverage=[1])), "result.coverage"),
    "testbench-int": (_first_round(lambda r: r.update(testbench=5)), "testbench"),
    "size-infinity": (_size("Infinity"), "Infinity"),
    "size-denormal": (_size("5e-324"), "size_b"),
    "tar-member-3000-deep": (_deep_member, "nested more than"),
    "folder-1100-deep": (_deep_folder, "nested more than"),
}


def _hostile(subs: Path, runs, case: str) -> Path:
    dest = add_submission(runs["direct"], subs, case, _meta("Hostile " + case, 4.0))
    DOS_CASES[case][0](dest)
    return dest


def _listed(site: Path) -> list[str]:
    return re.findall(r'data-name="([^"]+)"', (site / "index.html").read_text())


@pytest.mark.parametrize("case", sorted(DOS_CASES))
def test_each_hostile_file_is_refused_and_the_control_listed(tmp_path, runs, case):
    subs = tmp_path / "subs"
    add_submission(runs["direct"], subs, "control", _meta("Control Model", 4.0))
    dest = _hostile(subs, runs, case)
    try:
        report = build_site(subs, tmp_path / "site")
    finally:
        if case == "folder-1100-deep":
            _remove_deep(dest / "run" / "logs")
    (refusal,) = report.skipped
    assert refusal.startswith(f"{case}: ") and DOS_CASES[case][1] in refusal, refusal
    assert _listed(tmp_path / "site") == ["control"] and report.entries == ["control"]
    assert (tmp_path / "site" / "s" / "control" / "index.html").is_file()


def test_an_unexpected_exception_of_one_submission_stays_in_its_own_try(tmp_path, runs, monkeypatch):
    """Whatever a submission makes raise (here a chart of its own page, RuntimeError: none of the types
    the build used to catch) leaves it out with the reason, and every other submission listed."""
    subs = tmp_path / "subs"
    add_submission(runs["direct"], subs, "control", _meta("Control Model", 4.0))
    add_submission(runs["direct"], subs, "hostile", _meta("Hostile Model", 4.0))
    real = site_module.run_charts

    def charts(model, view):
        if model == "Hostile Model":
            raise RuntimeError("a chart blew up")
        return real(model, view)

    monkeypatch.setattr(site_module, "run_charts", charts)
    report = build_site(subs, tmp_path / "site")
    assert report.skipped == ["hostile: RuntimeError: a chart blew up"]
    assert _listed(tmp_path / "site") == ["control"] and not (tmp_path / "site" / "s" / "hostile").exists()


def test_all_hostile_files_together_leave_a_verified_control(tmp_path, runs, scorer):
    """Every case above in one build --verify: the site is complete, the control verified and listed."""
    subs = tmp_path / "subs"
    add_submission(runs["direct"], subs, "control", _meta("Control Model", 4.0))
    deep = None
    try:
        for case in DOS_CASES:
            dest = _hostile(subs, runs, case)
            deep = dest if case == "folder-1100-deep" else deep
        report = build_site(subs, tmp_path / "site",
                            verifier=BuildVerifier(VerifyCache(tmp_path / "cache", subs), score=scorer))
    finally:
        if deep is not None:
            _remove_deep(deep / "run" / "logs")
    assert sorted(s.split(":")[0] for s in report.skipped) == sorted(DOS_CASES)
    assert report.entries == ["control"] and report.verified == ["control: verified, re-scored now"]
    html = (tmp_path / "site" / "index.html").read_text()
    assert 'data-verified="verified" data-name="control"' in html and "</html>" in html


# ---- caches: a bad entry is dropped and recomputed, never fatal ------------------------------------------

POISONS = {"nested": NESTED, "nan": '{"key": NaN}', "not-json": "{torn", "list": "[1, 2]"}


def test_a_bad_response_cache_entry_is_dropped_and_asked_again(tmp_path):
    req = ModelRequest(messages=[{"role": "user", "content": "write a testbench"}],
                       task=Task("suite/demo", "suite", [], [], "demo", "uut", "write a testbench", []))
    with FakeOpenAIServer(["first", *["again"] * len(POISONS)]) as srv:
        model = get_model("openai/gpt-4o-mini", api_base=srv.url, cache_dir=tmp_path,
                          extra={"backoff_base": 0.01, "backoff_max": 0.05})
        assert model.complete(req).text == "first"
        (entry,) = [p for p in tmp_path.rglob("*.json")]
        for text in POISONS.values():
            entry.write_text(text)
            comp = model.complete(req)  # the entry is dropped: asked again, never a RecursionError
            assert (comp.text, comp.cached) == ("again", False)
            assert json.loads(entry.read_text())["completion"]["text"] == "again"  # written anew
        assert len(srv.requests) == 1 + len(POISONS)


def test_a_bad_score_cache_entry_is_dropped_and_scored_again(tmp_path, task, scores, monkeypatch):
    monkeypatch.setenv("ECOV_RUNTIME_DIR", os.environ.get("ECOV_RUNTIME_DIR") or str(
        Path.home() / ".cache" / "ecov" / "runtime"))
    engine = Engine(EngineConfig(cache_dir=tmp_path))
    key = engine.cache_key(task.design, WEAK_TB, 1)
    entry = tmp_path / "scores" / key[:2] / f"{key}.json"
    for text in POISONS.values():
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text(text)
        assert engine.lookup(task.design, WEAK_TB, 1) is None and not entry.exists()  # dropped
    entry.write_text(NESTED)
    res = engine.score(task.design, WEAK_TB, 1)  # scored again, and stored anew
    assert res.coverage == scores["weak"].coverage and not res.cached
    assert engine.lookup(task.design, WEAK_TB, 1).cached


def test_a_bad_verify_cache_entry_is_dropped_and_verified_again(tmp_path, runs, scorer):
    dest = _submission(tmp_path, runs["direct"], name="direct")
    cache = tmp_path / "cache"

    def build(out: str):
        return build_site(dest.parent, tmp_path / out, verifier=BuildVerifier(VerifyCache(cache, dest.parent),
                                                                              score=scorer)).verified

    assert build("one") == ["direct: verified, re-scored now"]
    (entry,) = cache.glob("*.json")
    for text in POISONS.values():
        entry.write_text(text)
        assert build("again") == ["direct: verified, re-scored now"]
        assert json.loads(entry.read_text())["verification"]["verdict"] == VERIFIED  # written anew
    assert build("last") == ["direct: verified, reused from the verify cache"]


def test_the_run_config_schema_names_what_is_wrong(tmp_path, runs):
    from ecov.leaderboard.schema import ConfigFile, SchemaError, check_file

    good = json.loads((runs["direct"] / "config.json").read_text())
    assert ConfigFile.model_validate(good).n_samples == 1
    bad = tmp_path / "config.json"
    bad.write_text(json.dumps({**good, "n_samples": 0, "temperature": "hot", "agent": "direct",
                               "mode": "agentic"}))
    with pytest.raises(SchemaError, match=r"config.json: n_samples: .*temperature: Input should be a valid"):
        check_file(bad, ConfigFile)
    assert RunConfig.from_dict(good).protocol == "llm4cov"
