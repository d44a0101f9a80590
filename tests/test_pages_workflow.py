"""The GitHub Pages workflow builds the site with exactly the command this test runs, on the real
submissions in leaderboard/submissions/, and that site has the floor and ceiling rows, pass % on
random-hard tasks and the heat map."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"
SITE_BUILD_COMMAND = "ecov-leaderboard build --submissions leaderboard/submissions --out site"


def _steps(text: str) -> dict[str, str]:
    """name -> run command of the workflow's named steps (one-line run: values)."""
    return dict(re.findall(r"- name: (.+)\n\s+run: (.+)", text))


def test_workflow_builds_and_deploys_on_push_to_main():
    text = WORKFLOW.read_text()
    assert _steps(text)["Build the site"] == SITE_BUILD_COMMAND
    assert re.search(r"on:\n\s+push:\n\s+branches: \[main\]", text)
    assert "actions/upload-pages-artifact" in text and "path: site" in text and "actions/deploy-pages" in text
    assert "pages: write" in text and "id-token: write" in text
    readme = (REPO / "README.md").read_text()
    assert ".github/workflows/pages.yml" in readme and "github.io" in readme


def test_site_build_command_on_the_real_submissions(tmp_path):
    exe = shutil.which("ecov-leaderboard")
    if exe is None:
        pytest.skip("ecov-leaderboard is not installed (pip install -e .)")
    (tmp_path / "leaderboard").mkdir()
    (tmp_path / "leaderboard" / "submissions").symlink_to(REPO / "leaderboard" / "submissions")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    argv = shlex.split(SITE_BUILD_COMMAND)
    r = subprocess.run([exe, *argv[1:]], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "site" / "index.html").read_text()
    for mode in ("agentic", "direct"):
        board = html.split(f'id="ecov-embedded-{mode}"')[1].split("</section>")[0]
        rows = re.findall(r'data-name="([^"]+)"', board.split("</table>")[0])
        assert rows[0] == f"builtin-reference-{mode}" and f"builtin-random-{mode}" in rows  # ceiling first
        ref = board.split(f'data-name="builtin-reference-{mode}"')[1].split("</tr>")[0]
        nums = re.findall(r'<td class="num[^"]*" data-sort="([^"]*)"', ref)
        assert nums[2:4] == ["100.0", "100.0"]  # pass %, pass % on random-hard tasks
        rand = board.split(f'data-name="builtin-random-{mode}"')[1].split("</tr>")[0]
        assert re.findall(r'<td class="num hard" data-sort="([^"]*)"', rand) == ["0.0"]
        assert 'class="heatmap"' in board and "Random-hard tasks: 14 of 16" in board
        assert (tmp_path / "site" / "tables" / f"ecov-embedded-{mode}-tasks.parquet").is_file()
