# ruff: noqa: F811 - the fixtures imported from test_leaderboard are used by name
"""The GitHub Pages workflow builds the site with exactly the command these tests run: verbatim (the
build verifying every submission itself, its cache reused on a second build) on small real submissions,
and without its --verify options on the real submissions in leaderboard/submissions/ (verifying all of
them takes about 20 minutes), whose site has the floor and ceiling rows, pass % on random-hard tasks and
the heat map."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from test_build_verify import _forge, _marks
from test_leaderboard import _meta, runs, scorer, scores, task  # noqa: F401 - fixtures

from ecov.leaderboard.submission import add_submission

REPO = Path(__file__).resolve().parents[1]
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"
SITE_BUILD_COMMAND = ("ecov-leaderboard build --submissions leaderboard/submissions --out site --verify "
                      "--verify-cache .verify-cache --jobs 4")
VERIFY_OPTIONS = ["--verify", "--verify-cache", ".verify-cache", "--jobs", "4"]


def _steps(text: str) -> dict[str, str]:
    """name -> run command of the workflow's named steps (one-line run: values)."""
    return dict(re.findall(r"- name: (.+)\n\s+run: (.+)", text))


def test_workflow_builds_and_deploys_on_push_to_main():
    text = WORKFLOW.read_text()
    assert _steps(text)["Build the site"] == SITE_BUILD_COMMAND
    assert re.search(r"on:\n\s+push:\n\s+branches: \[main\]", text)
    assert "actions/upload-pages-artifact" in text and "path: site" in text and "actions/deploy-pages" in text
    assert "pages: write" in text and "id-token: write" in text
    build, deploy = text.split("\n  deploy:\n")
    # Submitted testbenches run in the build job: no token there that can deploy or push.
    assert "id-token" not in build and "pages: write" not in build and "persist-credentials: false" in build
    assert "pages: write" in deploy and "id-token: write" in deploy
    # The build's verify cache is kept between runs, outside the submissions tree.
    assert re.search(r"uses: actions/cache@v\d+\n\s+with:\n\s+path: \.verify-cache\n", build)
    # ... and so is ECov's build cache, at its default place outside the checkout (no ECOV_CACHE_DIR set).
    assert re.search(r"uses: actions/cache@v\d+\n\s+with:\n\s+path: ~/\.cache/ecov\n", build)
    assert "ECOV_CACHE_DIR" not in build
    readme = (REPO / "README.md").read_text()
    assert ".github/workflows/pages.yml" in readme and "github.io" in readme


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("ecov-leaderboard")
    if exe is None:
        pytest.skip("ecov-leaderboard is not installed (pip install -e .)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([exe, *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r


def test_site_build_command_verifies_and_reuses_its_cache(tmp_path, runs):
    """The command verbatim, with a fresh engine of its own (disk cache off): an honest submission earns
    the badge, one with a forged verification.json does not; the second build simulates nothing."""
    subs = tmp_path / "leaderboard" / "submissions"
    add_submission(runs["direct"], subs, "honest", _meta())
    _forge(add_submission(runs["direct"], subs, "forged", _meta()))
    argv = shlex.split(SITE_BUILD_COMMAND)
    r = _run(argv, tmp_path)
    assert "verified by this build: honest: verified, re-scored now" in r.stderr, r.stderr
    assert "verified by this build: forged: differs, re-scored now" in r.stderr
    assert _marks(tmp_path / "site") == {"honest": "verified", "forged": "differs"}
    assert len(list((tmp_path / ".verify-cache").glob("*.json"))) == 2
    r = _run(argv, tmp_path)
    assert "honest: verified, reused from the verify cache" in r.stderr
    assert "forged: differs, reused from the verify cache" in r.stderr and "re-scoring" not in r.stderr
    assert _marks(tmp_path / "site") == {"honest": "verified", "forged": "differs"}


def test_site_build_command_on_the_real_submissions(tmp_path):
    (tmp_path / "leaderboard").mkdir()
    (tmp_path / "leaderboard" / "submissions").symlink_to(REPO / "leaderboard" / "submissions")
    argv = shlex.split(SITE_BUILD_COMMAND)
    assert argv[-len(VERIFY_OPTIONS):] == VERIFY_OPTIONS
    _run(argv[:-len(VERIFY_OPTIONS)], tmp_path)  # the same build, the committed verifications as claims
    html = (tmp_path / "site" / "index.html").read_text()
    marks = set(_marks(tmp_path / "site").values())
    assert "verified" not in marks and "claimed" in marks, marks  # committed ones are claims: no badge
    for mode in ("agentic", "direct"):
        board = html.split(f'id="ecov-embedded-{mode}"')[1].split("</section>")[0]
        # Only a run this build verified is ranked (issue 33): here every row is listed apart, with its reason.
        assert 'class="sortable leaderboard partial"' in board and "Partial runs, not ranked" in board
        rows = re.findall(r'data-name="([^"]+)"', board)
        assert f"builtin-reference-{mode}" in rows and f"builtin-random-{mode}" in rows
        ref = board.split(f'data-name="builtin-reference-{mode}"')[1].split("</tr>")[0]
        assert "not verified by this build" in ref
        nums = re.findall(r'<td class="num[^"]*" data-sort="([^"]*)"', ref)
        assert nums[2:5] == ["100.0", "100.0", "100.0"], nums  # ECov pass %, the paper's pass %, legal pass %
        assert re.findall(r'<td class="num hard opt" data-sort="([^"]*)"', ref) == ["100.0"]  # random-hard
        rand = board.split(f'data-name="builtin-random-{mode}"')[1].split("</tr>")[0]
        assert re.findall(r'<td class="num hard opt" data-sort="([^"]*)"', rand) == ["0.0"]
        assert 'class="heatmap"' in board and "Random-hard tasks: 14 of 16" in board
        assert "16 of 16 tasks carry an interface contract" in board
        assert (tmp_path / "site" / "tables" / f"ecov-embedded-{mode}-tasks.parquet").is_file()
    _headline_on_cvdp(html, tmp_path / "site")


def _headline_on_cvdp(html: str, site: Path) -> None:
    """On cvdp-ecov the headline and the paper's pass % part: builtin/random breaks the contract tasks'
    rules, so its ECov pass % is below its paper pass %; the reference's are equal. The rows are ordered
    by ECov pass %, and nothing is ranked in a build that verified nothing."""
    import pandas as pd

    from ecov.harness.benchmark.store import load_benchmark

    board = pd.read_csv(site / "tables" / "cvdp-ecov-agentic.csv")
    by = board.set_index("submission")
    rand, ref = by.loc["cvdp-builtin-random-agentic"], by.loc["cvdp-builtin-reference-agentic"]
    assert rand["ecov_pass_rate"] < rand["pass_rate"] and ref["ecov_pass_rate"] == ref["pass_rate"] == 100.0
    assert list(board["ecov_pass_rate"]) == sorted(board["ecov_pass_rate"], reverse=True)
    assert board["rank"].isna().all() and not board["ranked"].any()
    # Unverified, every row is listed apart (issue 33); none is drawn as a line until a build verifies it.
    assert (ref["reference_line"], rand["reference_line"]) == ("none", "none")
    contracts = sum(t.contract is not None for t in load_benchmark("cvdp-ecov"))
    section = html.split('id="cvdp-ecov-agentic"')[1].split("</section>")[0]
    assert f"{contracts} of 59 tasks carry an interface contract" in section
    # The task an empty testbench passes is named, and marked in its row: out of the headline (issue 32).
    page = (site / "s" / "cvdp-builtin-random-agentic" / "index.html").read_text()
    assert "ECov pass % leaves out 1 task whose targets a testbench that drives nothing meets" in page
    row = page.split('data-sort="cvdp_copilot_asyc_reset_0004"')[1].split("</tr>")[0]
    assert "not in ECov pass %: measures nothing" in row
    assert (board["contract_tasks"] == contracts).all()
