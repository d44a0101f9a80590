# ruff: noqa: F811 - the fixtures imported from test_leaderboard_browser are used by name
"""The ECov headline and legality in a real browser (issue 32), on the site built from the shipped
submissions in leaderboard/submissions/ and on ``ecov-eval view`` of one of their runs: the tables rank by
ECov pass % with the paper's pass % beside it, the baselines are unranked ceiling and floor lines, the
legal column stays on a phone, and each task and round names the rule its testbench broke, when, how often,
its legal coverage and bins. Expected figures are read from the runs' own rounds.jsonl, so the tests hold
when the submissions are re-made.
"""

from __future__ import annotations

import functools
import json
import shutil
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pandas as pd
import pytest
from test_leaderboard_browser import _header, _QuietHandler, _save, browser, pytestmark  # noqa: F401 - fixture, marks

from ecov.harness.core.run_folder import RunFolder
from ecov.leaderboard.buildverify import BuiltVerification
from ecov.leaderboard.legal_view import sample_legal
from ecov.leaderboard.site import build_site
from ecov.leaderboard.stats import group_rounds
from ecov.leaderboard.submission import open_submission, run_digest
from ecov.leaderboard.verify import VERIFIED, Verification

By = pytest.importorskip("selenium.webdriver.common.by").By
WebDriverWait = pytest.importorskip("selenium.webdriver.support.ui").WebDriverWait

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "leaderboard" / "submissions"
RANDOM = "builtin-random-agentic"  # ecov-embedded, the i2c_target example
TASK = "i2c_target"


MODEL = "cvdp-acme-agentic"  # a model's run among the baselines: ranked between their lines


def _model_run(subs: Path) -> None:
    """A non-baseline submission made from the reference's cvdp run, its first three contract tasks
    failing legally: its ECov pass % falls between the ceiling and the floors."""
    with open_submission(SUBMISSIONS / "cvdp-builtin-reference-agentic") as sub:
        shutil.copytree(sub.run_dir, subs / MODEL / "run")
    run = subs / MODEL / "run"
    config = json.loads((run / "config.json").read_text())
    (run / "config.json").write_text(json.dumps({**config, "model": "acme/coder-7b"}))
    rows = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
    for t in sorted({r["task_id"] for r in rows if r["contract"]})[:3]:
        for r in rows:
            if r["task_id"] == t:
                r["legal_passed_round"] = None
    (run / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (subs / MODEL / "submission.json").write_text(json.dumps(
        {"model": "Acme Coder 7B", "type": "api", "date": "2026-12-05", "size_b": 7, "link": "", "notes": ""}))


class _Accepted:
    """A build's verifier that accepts every run as it stands: these tests are about how ranked tables
    look (only a verified run is ranked); verification itself is tested in test_leaderboard_adversarial.py
    and test_verify*.py, and re-scoring every shipped run here would take most of CI."""

    def prefetch(self, folders) -> None:
        pass

    def __call__(self, sub) -> BuiltVerification:
        config = sub.run.read_config()
        return BuiltVerification(Verification(
            submission=sub.name, verdict=VERIFIED, run_digest=run_digest(sub.run_dir), benchmark=config.benchmark,
            split=config.split, dataset_hash=config.dataset_hash, tb_lang=config.tb_lang,
            protocol=config.protocol,
            reproduced_model=config.model if config.model.startswith("builtin/") else ""), reused=False)


@pytest.fixture(scope="module")
def real_site(tmp_path_factory):
    subs, out = tmp_path_factory.mktemp("headline-subs"), tmp_path_factory.mktemp("headline-site")
    for folder in SUBMISSIONS.iterdir():
        if folder.is_dir():
            shutil.copytree(folder, subs / folder.name)  # a submission may hold no links
    _model_run(subs)
    report = build_site(subs, out, repo_url="", verifier=_Accepted())
    assert not report.skipped, report.skipped
    return out


@pytest.fixture(scope="module")
def real_served(real_site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(real_site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _broken(run_dir: Path, task: str) -> dict:
    """The legal figures of sample 0 of ``task`` as its rounds record them (what the pages must show)."""
    recs = group_rounds(RunFolder(run_dir).rounds())[(task, 0)]
    legal = sample_legal(recs)
    assert legal is not None and legal["rule"], "the shipped random run must break a rule of i2c_target"
    return legal


@pytest.fixture(scope="module")
def expected():
    with open_submission(SUBMISSIONS / RANDOM) as sub:
        samples = RunFolder(sub.run_dir).samples()
        total = None if any(s.legal_bins is None for s in samples) else sum(
            max(s.legal_bins for s in samples if s.task_id == t) for t in {s.task_id for s in samples})
        return {**_broken(sub.run_dir, TASK), "sample_bins": total}


@pytest.mark.parametrize("width", [1400, 400])
def test_index_ranks_by_the_headline_with_baselines_as_lines(browser, real_site, real_served, tmp_path, width):
    browser.set_window_size(width, 900)
    browser.get(real_served + "/index.html")
    inner = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner  # no sideways page
    section = browser.find_element(By.ID, "cvdp-ecov-agentic")
    table = section.find_element(By.CSS_SELECTOR, "table.leaderboard")
    key = _header(table, "ECov pass %")
    assert key.get_attribute("aria-sort") == "descending"
    # The headline, the paper's figure beside it and the legal column stay in view, on a phone too.
    for col in ("#", "Model", "ECov pass %", "Pass % (paper def.)", "Legal pass %", "Verified"):
        th = _header(table, col)
        assert th.is_displayed() and th.location["x"] + 20 < inner, col
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    tags = [r.find_element(By.CSS_SELECTOR, "td").text for r in rows]
    # The model is ranked #1 between the lines; the baselines have no rank.
    assert tags == ["CEILING", "1", "FLOOR", "FLOOR"], tags
    assert rows[1].get_attribute("data-name") == MODEL and "ref-line" not in rows[1].get_attribute("class")
    ecov = [float(r.find_element(By.CSS_SELECTOR, "td.key").get_attribute("data-sort")) for r in rows]
    assert ecov == sorted(ecov, reverse=True)
    rand = table.find_element(By.CSS_SELECTOR, 'tr[data-name="cvdp-builtin-random-agentic"]')
    paper = float(rand.find_element(By.CSS_SELECTOR, "td.paper-pass").get_attribute("data-sort"))
    legal = rand.find_element(By.CSS_SELECTOR, "td.legal")
    assert legal.is_displayed() and float(rand.find_element(By.CSS_SELECTOR, "td.key").get_attribute("data-sort")) < paper
    note = section.find_element(By.CSS_SELECTOR, ".contract-note")
    assert note.is_displayed() and "of 59 tasks carry an interface contract" in note.text
    # The chart draws the baselines as dashed reference lines, not bars.
    labels = [t.get_attribute("textContent") for t in section.find_elements(By.CSS_SELECTOR, "g.ref-line text")]
    assert any(t.startswith("ceiling: ") for t in labels) and any(t.startswith("floor: ") for t in labels)
    bars = section.find_elements(By.CSS_SELECTOR, "rect.bar title")
    assert [b.get_attribute("textContent").split(":")[0] for b in bars] == ["Acme Coder 7B"]
    _save(browser, tmp_path, f"headline-index-{width}")
    board = pd.read_csv(real_site / "tables" / "cvdp-ecov-agentic.csv").set_index("submission")
    assert board.loc[MODEL, "rank"] == 1 and board.loc[MODEL, "ranked"] and board["rank"].notna().sum() == 1
    assert board.loc[MODEL, "ecov_pass_rate"] < board.loc[MODEL, "pass_rate"] == 100.0
    assert set(board["reference_line"]) == {"ceiling", "floor", "none"}


def test_submission_and_task_pages_name_the_broken_rule(browser, real_served, expected, tmp_path):
    browser.set_window_size(1400, 900)
    browser.get(f"{real_served}/s/{RANDOM}/index.html")
    for cell in ("summary-ecov", "summary-pass", "summary-legal", "summary-legal-cov"):
        assert browser.find_element(By.ID, cell).text not in ("", "–"), cell
    # Bins per run need samples recorded with them (SampleRecord.legal_bins): "–" in older records.
    bins = browser.find_element(By.ID, "summary-bins").text
    assert bins == "–" if expected["sample_bins"] is None else bins.endswith(f"/{expected['sample_bins']}")
    assert "16 of 16 tasks carry an interface contract" in browser.find_element(By.ID, "summary-contracts").text
    tasks = browser.find_element(By.CSS_SELECTOR, "table.tasks")
    row = next(r for r in tasks.find_elements(By.CSS_SELECTOR, "tbody tr") if r.text.startswith(TASK))
    rule_cell = row.find_element(By.CSS_SELECTOR, "td.rule-cell").text
    assert expected["rule"] in rule_cell and f"{expected['count']:,}×" in rule_cell
    assert f"at {expected['time_ns']:,} ns" in rule_cell
    _save(browser, tmp_path, "headline-submission-1400")

    row.find_element(By.LINK_TEXT, TASK).click()
    WebDriverWait(browser, 30).until(lambda d: d.current_url.endswith(f"/t/{TASK}.html"))
    line = browser.find_element(By.ID, "sample-0-legal").text
    assert f"legal coverage {expected['overall']:.1f}%" in line and expected["rule"] in line
    assert f"bins {len(expected['bins_hit'])}/{expected['bins_total']}" in line
    last = browser.find_elements(By.CSS_SELECTOR, "#sample-0 li.round")[-1]
    summary = last.find_element(By.TAG_NAME, "summary").text
    assert f"legal {expected['overall']:.1f}%, broke {expected['rule']} at {expected['time_ns']:,} ns " \
           f"({expected['count']:,}×)" in summary
    block = last.find_element(By.CSS_SELECTOR, ".legal-block")
    assert block.is_displayed() and f"Bins hit before the first broken rule: {len(expected['bins_hit'])} of " \
                                    f"{expected['bins_total']}" in block.text
    # Each target beside what was reached on legal coverage.
    legal_cells = browser.find_elements(By.CSS_SELECTOR, "#sample-0 table.targets tbody tr")
    assert legal_cells and all(len(r.find_elements(By.TAG_NAME, "td")) == 7 for r in legal_cells)
    _save(browser, tmp_path, "headline-task-1400")
    browser.set_window_size(400, 900)
    browser.refresh()
    assert browser.execute_script("return document.documentElement.scrollWidth") <= \
        browser.execute_script("return window.innerWidth")
    assert browser.find_element(By.ID, "sample-0-legal").is_displayed()
    _save(browser, tmp_path, "headline-task-400")


def test_view_of_a_run_shows_its_legality(browser, expected, tmp_path):
    from ecov.leaderboard.view import write_view

    with open_submission(SUBMISSIONS / RANDOM) as sub:
        index = write_view(sub.run_dir, tmp_path / "view")
    browser.set_window_size(1400, 900)
    browser.get(index.resolve().as_uri())
    assert browser.find_element(By.ID, "summary-ecov").text not in ("", "–")
    browser.find_element(By.LINK_TEXT, TASK).click()
    WebDriverWait(browser, 30).until(lambda d: d.current_url.endswith(f"/t/{TASK}.html"))
    line = browser.find_element(By.ID, "sample-0-legal").text
    assert expected["rule"] in line and f"{expected['time_ns']:,} ns" in line and f"{expected['count']:,}×" in line
    _save(browser, tmp_path, "headline-view-task-1400")
