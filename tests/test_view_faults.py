"""Every screen says what happened (issue 35): a faulted run's view names each fault's cause, says the run is
incomplete and how to finish it, and never shows an empty page or a 0% for a sample that was never answered.
Real LiteLLM calls to tests/fake_openai.py, the real engine, headless Chromium."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer
from test_eval_e2e import GOOD, engine_score, full, make_task, run_config

from ecov.harness.evaluation.runner import run_eval
from ecov.harness.models import get_model
from ecov.leaderboard.view import write_view

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def faulted_view(tmp_path_factory):
    """Task a answered and scored; task b's server answered 500 until the retries ran out (a fault)."""
    tmp = tmp_path_factory.mktemp("faulted")
    tasks = [make_task("a"), dataclasses.replace(make_task("b"), instructions="Verify the 2-bit counter (b).")]
    model_kw = {"extra": {"backoff_base": 0.01, "backoff_max": 0.02}, "max_retries": 1}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "dummy")
        with FakeOpenAIServer([full(GOOD), {"status": 500}, {"status": 500}]) as srv:
            model = get_model("openai/test-model", api_base=srv.url, cache_dir=tmp / "c", **model_kw)
            out = run_eval(tasks, model, run_config(tasks, mode="direct", max_rounds=1), tmp / "run",
                           scorer=engine_score, workers=1, progress=False)
    assert out.summary["faults"] == 1 and out.summary["samples"] == 1
    return write_view(tmp / "run")


def test_view_pages_name_the_fault_and_leave_it_out_of_the_figures(faulted_view):
    index = faulted_view.read_text()
    assert "Incomplete: 1 sample ended on a fault" in index and "HTTP 500" in index
    assert "run the same <code>ecov-eval</code> command again" in index.replace("Run the same", "run the same")
    assert 'id="summary-pass">100.0<' in index  # a's pass; b's fault is no 0 in it
    task_b = (faulted_view.parent / "t" / "b.html").read_text()
    assert "Fault, not a result:" in task_b and "HTTP 500" in task_b and "No round finished before the fault" in task_b
    assert "not met" not in task_b  # no target table for a sample that was never answered
    assert "A local view of a run folder" in index and "this site's build" not in index


@pytest.mark.browser
@pytest.mark.skipif(not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()), reason="chromium not installed")
def test_browser_screenshot_of_a_faulted_run_shows_its_cause(faulted_view, tmp_path):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--window-size=1200,1000", f"--user-data-dir={tmp_path / 'p'}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    try:
        driver.get(faulted_view.resolve().as_uri())
        box = driver.find_element(By.ID, "faults")
        assert box.is_displayed() and "HTTP 500" in box.text and "b sample 0" in box.text
        shot = tmp_path / "faulted-index.png"
        assert box.screenshot(str(shot)) and shot.stat().st_size > 2000  # the cause, as a person sees it
        driver.get((faulted_view.parent / "t" / "b.html").resolve().as_uri())
        fault = driver.find_element(By.CSS_SELECTOR, ".fault")
        assert fault.is_displayed() and "Fault, not a result" in fault.text
        status = driver.find_element(By.CSS_SELECTOR, ".status-fault")
        assert status.text == "fault"
    finally:
        driver.quit()


def test_view_metadata_fits_a_builtin_run(tmp_path):
    """No sampling settings, size or unknown revision for a built-in baseline; Verilator named by release."""
    tasks = [make_task("a")]
    config = dataclasses.replace(run_config(tasks, mode="direct", max_rounds=1), model="builtin/reference")
    run_eval(tasks, get_model("builtin/reference"), config, tmp_path / "run", scorer=engine_score, workers=1,
             progress=False)
    page = write_view(tmp_path / "run").read_text()
    assert "temperature" not in page and "top-p" not in page and "Size" not in page
    assert "vUNKNOWN" not in page and "a built-in baseline" in page
