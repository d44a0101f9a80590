"""Bad input to the command-line tools, as a careless or hostile user gives it: each case ends in one line
naming the input and what is wrong, a documented non-zero exit (docs/scoring.md, docs/evaluation.md),
no traceback, and nothing already recorded lost.

Exit codes: 2 a bad option or input (every CLI); ecov-score 3 compile_error, 4 rejected, 5 timeout /
crashed / no_finish, 6 infra_error, 1 with --task when a target is missed; ecov-eval 6 when the run
folder cannot be written (the samples written stay and resume).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ecov.harness.cli.inputs import verilator_release

SUITE = Path(__file__).resolve().parents[1] / "harness" / "suite" / "updown_counter"
RTL = SUITE / "rtl" / "updown_counter.sv"
REF = SUITE / "ref_tb.sv"
BASE = ["--rtl", str(RTL), "--top", "updown_counter", "--instance", "dut"]


def _cli(module: str, *args: str, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"ecov.harness.cli.{module}", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def _one_line(proc: subprocess.CompletedProcess, code: int, *words: str) -> str:
    """The run exited ``code`` with exactly one error line that holds every word, and no traceback."""
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out[-2000:]
    assert "Traceback" not in out, out[-2000:]
    errors = [line for line in out.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, out[-2000:]
    for w in words:
        assert w in errors[0], errors[0]
    return errors[0]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "empty.sv").write_text("")
    (tmp_path / "blank.sv").write_text("  \n\n\t\n")
    (tmp_path / "binary.sv").write_bytes(bytes(range(256)) * 40)
    with open(tmp_path / "huge.sv", "wb") as f:  # 50 MB: refused before it is read
        f.truncate(50 * 1024 * 1024)
    (tmp_path / "afile").write_text("x")
    return tmp_path


@pytest.mark.parametrize("args, option, words", [
    (["--tb", "empty.sv"], "--tb", ["empty.sv is empty"]),
    (["--tb", "blank.sv"], "--tb", ["blank.sv is empty"]),
    (["--tb", "binary.sv"], "--tb", ["binary.sv is binary"]),
    (["--tb", "huge.sv"], "--tb", ["huge.sv is 52.4 MB", "limit"]),
    (["--tb", "missing.sv"], "--tb", ["missing.sv", "No such file"]),
    (["--tb", str(REF), "--rtl", "empty.sv"], "--rtl", ["empty.sv is empty"]),
    (["--tb", str(REF), "--rtl", "binary.sv"], "--rtl", ["binary.sv is binary"]),
    (["--tb", str(REF), "--top", "nosuch"], "--top", ["no module 'nosuch'", "updown_counter"]),
    (["--tb", str(REF), "--instance", "wrong"], "--instance", ["never names an instance 'wrong'"]),
    (["--tb", str(REF), "--timeout", "0"], "--timeout", ["above 0"]),
    (["--tb", str(REF), "--timeout", "nan"], "--timeout", ["nan", "above 0"]),
    (["--tb", str(REF), "--timeout", "inf"], "--timeout", ["inf", "above 0"]),
    (["--tb", str(REF), "--timeout", "-5"], "--timeout", ["above 0"]),
    (["--tb", str(REF), "--task", "nosuch"], "--task", ["no task 'nosuch'", "uart"]),
])
def test_score_refuses_bad_input_in_one_line(files, args, option, words):
    # Later occurrences of an option win in click: the case's own --rtl/--top/--instance replace BASE's.
    base = [] if "--task" in args else BASE
    if "--rtl" in args:
        base = [a for i, a in enumerate(BASE) if BASE[i - 1:i] != ["--rtl"] and a != "--rtl"]
    proc = _cli("score", *base, *args, cwd=files)
    _one_line(proc, 2, *([option] if option else []), *words)


def test_score_exit_codes_by_status_with_the_users_file_name(tmp_path):
    (tmp_path / "my_tb.sv").write_text("module tb;\n  updown_counter dut(.clk(1b0));\nendmodule\n")
    bad = _cli("score", *BASE, "--tb", "my_tb.sv", cwd=tmp_path)
    assert bad.returncode == 3 and "Traceback" not in bad.stderr  # compile_error
    assert "my_tb.sv:2:" in bad.stdout and "testbench.sv" not in bad.stdout
    if verilator_release():
        assert "?v=0.000" not in bad.stdout and "vUNKNOWN" not in bad.stdout
    assert "status compile_error" in bad.stdout
    (tmp_path / "sneaky.sv").write_text("module tb;\n  updown_counter dut();\n  initial begin force dut.q = 0; "
                                        "$finish; end\nendmodule\n")
    rejected = _cli("score", *BASE, "--tb", "sneaky.sv", cwd=tmp_path)
    assert rejected.returncode == 4 and "status rejected" in rejected.stdout  # a test rule refused it
    ok = _cli("score", *BASE, "--tb", str(REF), "--json", cwd=tmp_path)
    assert ok.returncode == 0 and json.loads(ok.stdout)["status"] == "ok"


def test_score_task_mode_prints_pass_fail_against_the_targets(tmp_path):
    ok = _cli("score", "--task", "updown_counter", "--tb", str(REF), cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "Task updown_counter: PASS" in ok.stdout and "target dut branch >= 95%" in ok.stdout
    weak = tmp_path / "weak.sv"
    weak.write_text("module tb;\n  logic clk = 0, rst_n = 0;\n  updown_counter dut(.clk(clk), .rst_n(rst_n));\n"
                    "  always #5 clk = ~clk;\n  initial begin #20 rst_n = 1; #50 $finish; end\nendmodule\n")
    miss = _cli("score", "--task", "updown_counter", "--tb", str(weak), cwd=tmp_path)
    assert miss.returncode in (1, 3), miss.stdout + miss.stderr  # ran and missed, or did not compile
    assert "Task updown_counter: FAIL" in miss.stdout and "NOT met" in miss.stdout


def test_eval_refuses_bad_options_in_one_line(files):
    common = ["--model", "builtin/random", "--mode", "direct", "--limit", "1", "--no-progress"]
    _one_line(_cli("eval", *common, "--out", "afile/run", cwd=files), 2, "--out", "under afile", "a file")
    _one_line(_cli("eval", *common, "--out", "afile", cwd=files), 2, "--out", "afile")
    _one_line(_cli("eval", *common, "--split", "bogus", cwd=files), 2, "--split", "'bogus'")
    _one_line(_cli("eval", *common, "--benchmark", "cvdp-ecov", "--split", "bogus", cwd=files), 2, "bogus")
    _one_line(_cli("eval", *common, "--benchmark", "nonesuch", cwd=files), 2, "nonesuch")
    _one_line(_cli("data", "list", "nonesuch", cwd=files), 2, "nonesuch")  # the same code as ecov-eval
    assert not (files / "runs").exists()  # nothing was started


def _mount_tmpfs(path: Path, size: str, *opts: str) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join([f"size={size}", *opts]), "tmpfs", str(path)],
                          capture_output=True, timeout=30)
    return proc.returncode == 0


def test_eval_read_only_and_full_disk_fail_cleanly_and_resume(tmp_path):
    ro, small = tmp_path / "ro", tmp_path / "small"
    if not (_mount_tmpfs(ro, "1m", "ro") and _mount_tmpfs(small, "300k")):
        pytest.skip("needs root to mount small tmpfs file systems")
    try:
        common = ["--model", "builtin/random", "--task-id", "uart", "--task-id", "alu_flags", "--no-progress"]
        _one_line(_cli("eval", *common, "--out", str(ro / "run"), cwd=tmp_path), 2, "--out", "read-only")
        full = _cli("eval", *common, "--out", str(small / "run"), cwd=tmp_path)
        _one_line(full, 6, "disk is full", "run the same command again")
        subprocess.run(["mount", "-o", "remount,size=50m", str(small)], check=True, timeout=30)
        again = _cli("eval", *common, "--out", str(small / "run"), cwd=tmp_path)
        assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
        summary = json.loads((small / "run" / "summary.json").read_text())
        assert summary["samples"] == 2 and summary.get("complete", True)
        for line in (small / "run" / "rounds.jsonl").read_text().splitlines():
            json.loads(line)  # every recorded round is whole
    finally:
        for p in (ro, small):
            subprocess.run(["umount", str(p)], capture_output=True, timeout=30)


def test_a_testbench_of_20k_modules_gets_an_answer(tmp_path):
    """Every stage before the compile is linear in the testbench (find_top was quadratic: 20k modules took
    over 5 minutes). The subprocess timeout is a hang guard, not a speed figure."""
    lines = ["module tb; updown_counter dut(); initial $finish; endmodule"]
    lines += [f"module m{i}; endmodule" for i in range(20_000)]
    (tmp_path / "many.sv").write_text("\n".join(lines) + "\n")
    proc = _cli("score", *BASE, "--tb", "many.sv", "--no-cache", cwd=tmp_path, timeout=900)
    assert "Traceback" not in proc.stderr
    assert proc.returncode in (0, 3, 4, 5), proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Overall (dut)" in proc.stdout


def test_eval_config_file_holds_any_option_and_typed_ones_win(tmp_path):
    (tmp_path / "run.yaml").write_text("model: builtin/random\nmode: direct\ntask_id: [uart, alu_flags]\n"
                                       "n: 1\nno-progress: true\nout: cfg-run\n")
    proc = _cli("eval", "--config", "run.yaml", "--task-id", "updown_counter", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    config = json.loads((tmp_path / "cfg-run" / "config.json").read_text())
    assert config["mode"] == "direct" and sorted(config["task_ids"]) == ["alu_flags", "uart", "updown_counter"]
    (tmp_path / "typo.yaml").write_text("modle: x\n")
    _one_line(_cli("eval", "--config", "typo.yaml", cwd=tmp_path), 2, "--config", "unknown option 'modle'")
    (tmp_path / "broken.yaml").write_text("model: [\n")
    _one_line(_cli("eval", "--config", "broken.yaml", cwd=tmp_path), 2, "--config", "not valid YAML")
    _one_line(_cli("eval", "--config", "missing.yaml", cwd=tmp_path), 2, "--config", "cannot read missing.yaml")


@pytest.mark.parametrize("extra", [
    ["--task", "alu_flags"],  # the task's instance (u_alu) is never named by this text
    BASE,  # --instance dut: the quick instance hint waits for a testbench that parses
])
def test_garbled_testbench_is_a_compile_error_with_verilators_message(tmp_path, extra):
    """Diagnosis order (issue 35): what Verilator cannot parse is a compile error (exit 3) quoting its first
    message, never a rule's verdict on a recovered parse tree (it was 'rejected ... dut-output-write') nor an
    --instance complaint (exit 2)."""
    (tmp_path / "g.sv").write_text("module tb ;;; garbage(\n")
    proc = _cli("score", *extra, "--tb", "g.sv", "--no-cache", cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 3, out[-2000:]
    assert "FAILED to compile" in out and "%Error: g.sv:1:" in out and "syntax error" in out, out[-2000:]
    assert "rule '" not in out and "REJECTED" not in out.upper().replace("NOT REJECTED", "")
