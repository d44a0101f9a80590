"""Commands spawn without a preexec_fn (util-linux's prlimit and setpriv apply the limits in the exec chain,
so Popen can vfork): the command sees the very limits, user, groups and session the preexec_fn path gave
it, a missing program is still FileNotFoundError, and Verilator run without its Perl wrapper still gets
the wrapper's unlimited stack."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ecov.harness.sandbox import base
from ecov.harness.sandbox.base import Limits, clean_env, run_limited
from ecov.harness.sandbox.bwrap import BwrapSandbox, bwrap_available
from ecov.harness.sandbox.rlimit import RlimitSandbox
from ecov.harness.sim.verilator import verilator_command, verilator_root

pytestmark = pytest.mark.skipif(not (base.PRLIMIT and base.SETPRIV), reason="util-linux's prlimit/setpriv missing")

LIMITS = Limits(wall_seconds=20, cpu_seconds=17, memory_mb=1500, file_mb=3, processes=41)
# What a process knows of its own confinement: uid, groups, every limit _limiter sets (soft and hard),
# and whether it leads its own session.
PROBE = ("id -u; id -G; for r in t v f c u; do echo $r $(ulimit -S -$r) $(ulimit -H -$r); done; "
         "echo session $(($(ps -o sid= -p $$) == $$))")


def _probe(tmp_path: Path, drop: bool, wrapped: bool, monkeypatch) -> list[str]:
    with monkeypatch.context() as m:
        if not wrapped:
            m.setattr(base, "PRLIMIT", None)
        assert (base.limited_argv(["/bin/true"], LIMITS, drop) is not None) == wrapped
        res = run_limited(["/bin/bash", "-c", PROBE], tmp_path, LIMITS, clean_env(), drop_to_nobody=drop)
    assert res.returncode == 0, res.output
    return res.output.splitlines()


@pytest.mark.parametrize("drop", [True, False])
def test_wrapped_spawn_confines_as_the_preexec_fn_did(tmp_path, monkeypatch, drop):
    if shutil.which("ps") is None:
        pytest.skip("ps is not installed")
    os.chmod(tmp_path, 0o777)
    wrapped = _probe(tmp_path, drop, True, monkeypatch)
    assert wrapped == _probe(tmp_path, drop, False, monkeypatch)
    lines = dict(line.split(" ", 1) for line in wrapped[2:])
    assert lines["t"] == "17 22" and lines["v"] == f"{1500 * 1024} {1500 * 1024}"
    assert lines["f"] == f"{3 * 1024} {3 * 1024}" and lines["c"] == "0 0"
    assert lines["session"] == "1"
    if drop and os.geteuid() == 0:
        assert wrapped[0] == "65534" and wrapped[1] == "65534"  # nobody, no supplementary groups
        assert lines["u"] == "41 41"


def test_wrapped_spawn_keeps_popens_errors_and_exit_codes(tmp_path):
    with pytest.raises(FileNotFoundError):
        run_limited(["ecov-no-such-program"], tmp_path, LIMITS, clean_env(), drop_to_nobody=False)
    with pytest.raises(FileNotFoundError):
        run_limited(["./missing"], tmp_path, LIMITS, clean_env(), drop_to_nobody=False)
    res = run_limited(["/bin/sh", "-c", "exit 7"], tmp_path, LIMITS, clean_env(), drop_to_nobody=False)
    assert res.returncode == 7
    res = run_limited(["/bin/sh", "-c", "kill -9 $$"], tmp_path, LIMITS, clean_env(), drop_to_nobody=False)
    assert res.returncode == -9 and res.signal == 9


def test_cpu_limit_still_stops_a_spinning_command(tmp_path):
    res = run_limited(["/bin/sh", "-c", "while :; do :; done"], tmp_path,
                      Limits(wall_seconds=30, cpu_seconds=1), clean_env(), drop_to_nobody=False)
    assert not res.timed_out and res.signal in (9, 24)  # SIGXCPU at the soft limit (or SIGKILL at the hard)


@pytest.mark.parametrize("sandbox", ["rlimit", "bwrap"])
def test_verilator_runs_without_its_wrapper_with_an_unlimited_stack(tmp_path, sandbox):
    if sandbox == "bwrap" and not bwrap_available():
        pytest.skip("bubblewrap cannot create namespaces here")
    box = BwrapSandbox() if sandbox == "bwrap" else RlimitSandbox()
    root = verilator_root()
    cmd = verilator_command(root)
    assert cmd[-1].endswith("verilator_bin") and "--stack=unlimited" in cmd
    res = box.run([*cmd[:-1], "/bin/sh", "-c", "ulimit -s"], tmp_path, Limits(), untrusted=False,
                  ro_paths=(str(root),))
    assert res.output.split() == ["unlimited"], res.output
    (tmp_path / "t.sv").write_text("`define W 7\nmodule m; logic [`W:0] q; endmodule\n")
    os.chmod(tmp_path / "t.sv", 0o644)
    res = box.run([*cmd, "-E", "-P", "t.sv"], tmp_path, Limits(), untrusted=False, ro_paths=(str(root),),
                  env={"VERILATOR_ROOT": str(root)})
    assert res.returncode == 0 and "logic [7:0] q;" in res.output, res.output
