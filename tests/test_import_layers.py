"""The import layers of docs/architecture.md hold: `lint-imports` (import-linter, the [dev] extra) checks the
layers contract in pyproject.toml, imports inside functions included, so a cycle between layers or an
upward import fails CI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> list[str]:
    pytest.importorskip("importlinter", reason="import-linter is in the [dev] extra: pip install -e '.[dev]'")
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    return [exe, "--config", str(ROOT / "pyproject.toml"), "--no-cache"]


def test_layers_contract_is_kept():
    res = subprocess.run(_lint_imports(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0 and "1 kept, 0 broken" in res.stdout, res.stdout[-3000:] + res.stderr[-2000:]


def test_an_upward_import_breaks_the_contract(tmp_path):
    """The check is not vacuous: the same contract with core placed above the tracks is broken."""
    cfg = (ROOT / "pyproject.toml").read_text()
    swapped = cfg.replace('    "ecov.harness.tracks",\n    "ecov.harness.core",\n',
                          '    "ecov.harness.core",\n    "ecov.harness.tracks",\n')
    assert swapped != cfg
    (tmp_path / "pyproject.toml").write_text(swapped)
    cmd = _lint_imports()
    cmd[cmd.index("--config") + 1] = str(tmp_path / "pyproject.toml")
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode != 0 and "ecov.harness.tracks is not allowed to import ecov.harness.core" in res.stdout
