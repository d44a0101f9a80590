"""The cocotb track inside the ECov image scores the 16 embedded reference testbenches exactly as this host
does. Debian's python3.11 (the image's) searches ``dist-packages``, not the ``site-packages`` folder of the
sandbox's Python view, so without the view on PYTHONPATH every simulation failed to import pygpi: this
test is what shows that class of break, in the image itself."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_image import image  # noqa: F401 - the module fixture that builds or finds the image

from ecov.harness.sandbox.bwrap import bwrap_available

pytestmark = [pytest.mark.docker, pytest.mark.slow]
HERE = Path(__file__).parent
FIELDS = ("status", "errors", "overall", "coverage", "meets")  # the figures (the cache key names versions)


def test_cocotb_references_score_in_the_image_as_on_the_host(image, tmp_path):  # noqa: F811
    if not bwrap_available():
        pytest.skip("the host side needs bubblewrap (the cocotb track's sandbox)")
    mount = tmp_path / "t"
    mount.mkdir()
    shutil.copy2(HERE / "score_cocotb_refs.py", mount)
    shutil.copytree(HERE / "data" / "cocotb", mount / "refs")
    for p in [mount, *mount.rglob("*")]:
        os.chmod(p, 0o755 if p.is_dir() else 0o644)
    inside = subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--security-opt", "seccomp=unconfined",
         "--security-opt", "systempaths=unconfined", "-v", f"{mount}:/t:ro", image,
         "python3", "/t/score_cocotb_refs.py", "/t/refs"], capture_output=True, text=True, timeout=1500)
    assert inside.returncode == 0, inside.stderr[-3000:]
    got = json.loads(inside.stdout.strip().splitlines()[-1])
    host = subprocess.run([sys.executable, str(mount / "score_cocotb_refs.py"), str(mount / "refs")],
                          capture_output=True, text=True, timeout=1500)
    assert host.returncode == 0, host.stderr[-3000:]
    want = json.loads(host.stdout.strip().splitlines()[-1])
    assert len(want) == 16 and sorted(got) == sorted(want)
    for task_id, w in want.items():
        assert w["status"] == "ok" and w["meets"], (task_id, w["errors"])
        assert {k: got[task_id][k] for k in FIELDS} == {k: w[k] for k in FIELDS}, task_id
