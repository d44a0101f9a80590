"""A non-editable install finds the shipped benchmarks: the project's wheel, unpacked as pip installs it,
runs ``ecov-eval --model builtin/random --benchmark cvdp-ecov --limit 2`` with no source checkout around.

(A fresh venv with its own dependencies, as the README's user does, is the same check with an index; here
the wheel is imported with this interpreter's dependencies and any editable ``ecov`` hook removed.)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow

RUN = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path[:] = [p for p in sys.path if "__editable__" not in p]
sys.path.insert(0, {site!r})
for name in [m for m in sys.modules if m == "ecov" or m.startswith("ecov.")]:
    del sys.modules[name]
import ecov.harness
assert ecov.harness.__file__.startswith({site!r}), ecov.harness.__file__
from ecov.harness.cli.eval import main
main(sys.argv[1:])
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")

    def clean() -> None:  # setuptools builds in the tree; a stale build/lib would go into the wheel
        for d in [REPO / "build" / "lib", *(REPO / "build").glob("bdist.*")]:
            shutil.rmtree(d, ignore_errors=True)

    clean()
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                           "-w", str(out), str(REPO)], capture_output=True, text=True, timeout=600, cwd=out)
    clean()
    assert proc.returncode == 0, proc.stderr[-2000:]
    wheel = next(out.glob("ecov-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for bench in ("cvdp-ecov", "autoeval-ecov"):
        assert f"ecov/benchmarks/{bench}/manifest.json" in names
        assert any(n.startswith(f"ecov/benchmarks/{bench}/data/") for n in names)
    assert not any(n.startswith("ecov/benchmarks/perf") for n in names)  # speed scripts stay in the repo
    target = out / "site-packages"
    zipfile.ZipFile(wheel).extractall(target)
    return target


def test_wheel_runs_a_shipped_benchmark(site, tmp_path):
    proc = subprocess.run([sys.executable, "-c", RUN.format(site=str(site)), "--model", "builtin/random",
                           "--benchmark", "cvdp-ecov", "--limit", "2", "--mode", "direct", "--no-progress",
                           "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=900,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "benchmark cvdp-ecov" in proc.stdout
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["tasks"] == 2 and summary["samples"] == 2
