"""The built leaderboard in a real browser: headless Debian Chromium sorts, filters, navigates, screenshots.

The site comes from the real run folders of test_leaderboard (scored with Verilator) and is served by
http.server on 127.0.0.1; the browser runs with networking features off, so nothing could load from
elsewhere even if the site asked.
"""

from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from test_leaderboard import _branch, runs, scorer, scores, site, task  # noqa: F401 - shared session fixtures

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (Path(CHROMIUM).exists() or shutil.which("chromium")),
                       reason="chromium is not installed (apt-get install chromium)"),
    pytest.mark.skipif(not (Path(CHROMEDRIVER).exists() or shutil.which("chromedriver")),
                       reason="chromedriver is not installed (apt-get install chromium-driver)"),
]

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture
def served(site):  # noqa: F811 - the imported session fixture
    out, _ = site
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(out)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def browser(tmp_path):
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000", f"--user-data-dir={tmp_path / 'profile'}"):
        opts.add_argument(flag)
    service = Service(executable_path=CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver"))
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def _visible_names(table) -> list[str]:
    return [r.get_attribute("data-name") for r in table.find_elements(By.CSS_SELECTOR, "tbody tr") if r.is_displayed()]


def _header(table, text: str):
    return next(th for th in table.find_elements(By.CSS_SELECTOR, "thead th") if th.text.strip() == text)


def _assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_sort_filter_open_submission_and_screenshot(browser, served, scores, tmp_path):  # noqa: F811
    browser.get(served + "/index.html")
    assert browser.title == "ECov leaderboard"
    table = browser.find_element(By.CSS_SELECTOR, "#ecov-embedded-agentic table")
    assert _visible_names(table) == ["good", "stale", "weak"]  # built ranked by ECov pass %

    size = _header(table, "Size (B)")
    size.find_element(By.TAG_NAME, "button").click()  # numbers: largest first
    assert size.get_attribute("aria-sort") == "descending"
    assert _visible_names(table) == ["weak", "good", "stale"]  # 30, 4, 1.5 B
    size.find_element(By.TAG_NAME, "button").click()
    assert size.get_attribute("aria-sort") == "ascending"
    assert _visible_names(table) == ["stale", "good", "weak"]
    assert _header(table, "ECov pass %").get_attribute("aria-sort") == "none"

    box = browser.find_element(By.ID, "filter-text")
    box.send_keys("weak")
    assert _visible_names(table) == ["weak"]
    box.clear()
    box.send_keys(" ")  # an input event with an empty query shows everything again
    assert _visible_names(table) == ["stale", "good", "weak"]
    browser.find_element(By.ID, "filter-verified").click()
    assert _visible_names(table) == ["good"]  # weak and stale (edited after its verification) do not reproduce
    browser.find_element(By.ID, "filter-verified").click()
    Select(browser.find_element(By.ID, "filter-type")).select_by_value("trained")
    assert _visible_names(table) == ["stale"]
    direct = browser.find_element(By.CSS_SELECTOR, "#ecov-embedded-direct")
    assert direct.find_element(By.CSS_SELECTOR, ".nomatch").is_displayed()  # the api-only table is empty now
    Select(browser.find_element(By.ID, "filter-type")).select_by_value("")

    paper = browser.find_element(By.ID, "paper")
    assert "not comparable" in paper.text.lower() and "Cadence Xcelium" in paper.text
    index_png = tmp_path / "index.png"
    browser.save_screenshot(str(index_png))
    _assert_png(index_png)

    table.find_element(By.LINK_TEXT, "Good Model").click()
    WebDriverWait(browser, 30).until(lambda d: d.current_url.endswith("/s/good/index.html"))
    h1 = browser.find_element(By.TAG_NAME, "h1").text
    assert "Good Model" in h1 and "verified" in h1
    assert browser.find_element(By.ID, "summary-pass").text == "50.0"
    tasks = browser.find_element(By.CSS_SELECTOR, "table.tasks")
    assert "updown_counter" in tasks.text
    sub_png = tmp_path / "submission.png"
    browser.save_screenshot(str(sub_png))
    _assert_png(sub_png)

    tasks.find_element(By.LINK_TEXT, "updown_counter").click()
    WebDriverWait(browser, 30).until(lambda d: d.current_url.endswith("/t/updown_counter.html"))
    samples = browser.find_elements(By.CSS_SELECTOR, "section.sample h2")
    ref, weak = scores["ref"].overall, scores["weak"].overall
    assert [s.text.split(" · ")[1] for s in samples] == [
        f"passed at round 2 final coverage {ref:.1f}%, best {ref:.1f}%",
        f"not passed final coverage {weak:.1f}%, best {weak:.1f}%",
    ]
    last_round = browser.find_element(By.ID, "sample-0-round-1")
    assert _branch(scores["ref"]) in last_round.text  # the open round shows its coverage table
    last_round.find_element(By.XPATH, ".//summary[starts-with(normalize-space(.), 'Testbench')]").click()
    assert "updown_counter" in last_round.find_element(By.CSS_SELECTOR, "pre.code").text
    traj_png = tmp_path / "trajectory.png"
    browser.save_screenshot(str(traj_png))
    _assert_png(traj_png)


def test_heatmap_random_hard_and_downloads(browser, served, scores, tmp_path):  # noqa: F811
    import urllib.request

    browser.get(served + "/index.html")
    about = browser.find_element(By.ID, "about-random-hard")
    assert about.is_displayed() and "random-hard" in about.text and "builtin/reference" in about.text
    table = browser.find_element(By.CSS_SELECTOR, "#ecov-embedded-agentic table")
    assert _header(table, "Pass % random-hard").is_displayed()
    good = table.find_element(By.CSS_SELECTOR, 'tr[data-name="good"]')
    # ECov pass % with its bootstrap interval under it, the paper's pass % beside it
    assert good.find_element(By.CSS_SELECTOR, "td.key").text.split() == ["50.0", "[50.0,", "50.0]"]
    assert good.find_element(By.CSS_SELECTOR, "td.paper-pass").text == "50.0"

    heat = browser.find_element(By.CSS_SELECTOR, "#ecov-embedded-agentic-heatmap svg.heatmap")
    browser.execute_script("arguments[0].scrollIntoView()", heat)
    assert heat.is_displayed() and heat.size["width"] > 300
    cells = heat.find_elements(By.CSS_SELECTOR, "g.heat-cell")
    got = [(c.get_attribute("data-row"), c.get_attribute("data-pass")) for c in cells]
    assert got == [("Good Model", "some"), ("Stale Model", "fail"), ("Weak Model", "fail")]
    tip = cells[0].find_element(By.TAG_NAME, "title").get_attribute("textContent")
    mean = (scores["ref"].overall + scores["weak"].overall) / 2
    assert tip == f"Good Model · updown_counter: coverage {mean:.1f}%, passed 1/2"
    assert all(c.find_element(By.TAG_NAME, "rect").is_displayed() for c in cells)
    heat_png = tmp_path / "heatmap.png"
    heat.screenshot(str(heat_png))
    _assert_png(heat_png)

    links = browser.find_elements(By.CSS_SELECTOR, "#ecov-embedded-agentic a.download")
    assert [a.text for a in links] == ["ecov-embedded-agentic.csv", "ecov-embedded-agentic.parquet",
                                       "ecov-embedded-agentic-tasks.csv", "ecov-embedded-agentic-tasks.parquet"]
    with urllib.request.urlopen(links[0].get_attribute("href"), timeout=30) as r:  # served from the site
        assert r.status == 200 and r.read().decode().startswith("rank,submission,model")


def _save(browser, tmp_path: Path, name: str) -> Path:
    """A full-page screenshot in the test's output (and in $ECOV_SCREENSHOT_DIR when set, to look at)."""
    import os

    width = browser.execute_script("return window.innerWidth")
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(browser.get_window_size()["width"], min(height + 120, 8000))
    path = tmp_path / f"{name}.png"
    browser.save_screenshot(str(path))
    _assert_png(path)
    if os.environ.get("ECOV_SCREENSHOT_DIR"):
        Path(os.environ["ECOV_SCREENSHOT_DIR"]).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, Path(os.environ["ECOV_SCREENSHOT_DIR"]) / path.name)
    assert width > 0
    return path


@pytest.mark.parametrize("width", [1400, 400])
def test_index_fits_the_screen(browser, served, tmp_path, width):  # noqa: F811
    """At a desktop's 1400 px the board shows every column without scrolling; on a 400 px phone the page
    never scrolls sideways and the columns that matter (rank, model, ECov pass %, the paper's pass %, legal
    pass %, verified) stay in view."""
    browser.set_window_size(width, 900)
    browser.get(served + "/index.html")
    inner = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner
    wrap = browser.find_element(By.CSS_SELECTOR, "#ecov-embedded-agentic .table-wrap")
    table = wrap.find_element(By.TAG_NAME, "table")
    shown = [th.text.strip() for th in table.find_elements(By.CSS_SELECTOR, "thead th") if th.is_displayed()]
    if width >= 1400:
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", wrap), \
            browser.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", wrap)
        for col in ("Cost $", "Verified", "Date"):
            assert col in shown
    else:
        assert "Type" not in shown
    for col in ("#", "Model", "ECov pass %", "Pass % (paper def.)", "Legal pass %", "Verified"):
        assert col in shown and _header(table, col).location["x"] + 20 < inner
    # The partial runs (1 task of 16) have no rank and say why; the paper's table is one link away.
    assert "Partial runs, not ranked" in browser.find_element(By.ID, "ecov-embedded-agentic").text
    assert browser.find_element(By.CSS_SELECTOR, "nav.jump a[href='#paper']").is_displayed()
    _save(browser, tmp_path, f"index-{width}")


def test_view_page_screenshot(browser, runs, tmp_path):  # noqa: F811
    from ecov.leaderboard.view import write_view

    index = write_view(runs["good"], tmp_path / "view")
    browser.set_window_size(1400, 900)
    browser.get(index.resolve().as_uri())
    assert "Local view of run folder" in browser.find_element(By.CSS_SELECTOR, "nav.crumbs").text
    browser.find_element(By.LINK_TEXT, "updown_counter").click()
    WebDriverWait(browser, 30).until(lambda d: d.current_url.endswith("/t/updown_counter.html"))
    assert browser.find_element(By.CSS_SELECTOR, "table.targets").is_displayed()
    _save(browser, tmp_path, "view-task-1400")
