"""The cocotb track: policy, parsing, prompts, the real engine (Verilator + cocotb in bwrap), references,
determinism, adversarial testbenches, the fake OpenAI server answering Python, builtin/random in Python."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.core.records import COMPILE_ERROR, CRASHED, OK, REJECTED, ScoreResult
from ecov.harness.sandbox.bwrap import bwrap_available
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.coverage import parse_coverage_dat
from ecov.harness.sim.integrity import RunOutput
from ecov.harness.sim.replay import rehome
from ecov.harness.sim.verdict import attach_coverage, coverage_problem
from ecov.harness.tracks.base import get_track
from ecov.harness.tracks.cocotb.parse import parse_python_response
from ecov.harness.tracks.cocotb.policy import check_python_testbench
from ecov.harness.tracks.cocotb.prompts import build_messages
from ecov.harness.tracks.cocotb.scorer import (
    CocotbEngine,
    RlimitRefused,
    trim_traceback,
)

sys.path.insert(0, str(Path(__file__).parent))
from fake_openai import FakeOpenAIServer  # noqa: E402

DATA = Path(__file__).parent / "data" / "cocotb"
TASKS = {t.id: t for t in load_suite()}
FAST_REFS = ("prio_encoder", "alu_flags", "sync_fifo")
needs_bwrap = pytest.mark.skipif(not bwrap_available(), reason="the cocotb track needs bubblewrap")

GOOD = '''import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge


@cocotb.test()
async def t(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst_n.value = 0
    dut.wr_en.value = 0
    dut.rd_en.value = 0
    dut.wr_data.value = 0
    dut.clr_err.value = 0
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    for i in range(40):
        dut.wr_en.value = 1
        dut.wr_data.value = i
        await RisingEdge(dut.clk)
'''


def ref(task_id: str) -> str:
    return (DATA / f"{task_id}.py").read_text()


_ENGINE: CocotbEngine | None = None


def engine() -> CocotbEngine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = CocotbEngine(EngineConfig(use_cache=False, run_seconds=60))
    return _ENGINE


# ---------------------------------------------------------------------------------------------- policy


@pytest.mark.parametrize("code, rule", [
    ("import os", "import"),
    ("from subprocess import run", "import"),
    ("import ctypes", "import"),
    ("from cocotb import simulator", "forbidden-attribute"),
    ("x = open('coverage.dat', 'w')", "forbidden-builtin"),
    ("eval('1')", "forbidden-builtin"),
    ("exec('x = 1')", "forbidden-builtin"),
    ("__import__('os')", "forbidden-builtin"),
    ("g = globals()", "forbidden-builtin"),
    ("x = getattr(dut.u_fifo, 'u_' + 'x')", "computed-attribute"),
    ("x = getattr(dut, '_id')", "computed-attribute"),
    ("x = (1).__class__", "dunder-access"),
    ("x = dut._id('count', extended=False)", "private-access"),
    ("x = dut._handle", "private-access"),
    ("dut.u_sub.state.value = 3", "hierarchical-write"),
    ("cocotb.top.u_sub.state.value = 3", "hierarchical-write"),
    ("from cocotb.handle import Force", "force-release"),
    ("x = t.cr_frame.f_globals", "forbidden-attribute"),
    ("x = logging.os.environ", "forbidden-attribute"),  # a module reached through an allowed one
    ("t = logging.threading.Thread(target=print)", "forbidden-attribute"),
    ("def __del__(self):\n        pass", "dunder-access"),
])
def test_policy_rejects(code, rule):
    src = f"import cocotb\n\n\n@cocotb.test()\nasync def t(dut):\n    {code}\n"
    if code.startswith(("import ", "from ")):
        src = f"{code}\n" + src
    check = check_python_testbench(src)
    assert rule in {v.rule for v in check.violations}, check.violations


def test_policy_accepts_an_ordinary_testbench_and_finds_tests():
    src = GOOD + ("\n\nclass Driver:\n    def __init__(self, dut):\n        self._dut = dut\n"
                  "        self.dut = dut\n\n    def drive(self, v):\n        self.dut.wr_data.value = v\n"
                  "        self._count = getattr(self, 'count', 0)\n")
    check = check_python_testbench("from dataclasses import dataclass\nimport random\n" + src)
    assert check.ok and check.tests == ["t"], check.violations


def test_policy_syntax_error_is_a_compile_error_with_the_line():
    check = check_python_testbench("import cocotb\n\n@cocotb.test()\nasync def t(dut)\n    pass\n")
    assert "test_dut.py:4" in check.syntax_error and not check.ok


# ---------------------------------------------------------------------------------------------- parse/prompts


def test_parse_python_block_patch_and_errors():
    full = parse_python_response(f"Here:\n\ntest_dut.py\n```python\n{GOOD}```\n")
    assert full.ok and full.kind == "full" and full.testbench.startswith("import cocotb")
    patch = parse_python_response("```diff\n@@ -18,1 +18,1 @@\n-    for i in range(40):\n+    for i in range(80):\n```",
                                  current=GOOD)
    assert patch.ok and patch.kind == "patch" and "range(80)" in patch.testbench
    assert not parse_python_response("no code at all").ok
    cut = parse_python_response("```python\nimport cocotb\n")
    assert not cut.ok and "not closed" in cut.error


def test_prompt_maps_targets_to_the_toplevel_and_is_stable():
    task = TASKS["sync_fifo"]
    msgs = build_messages(task)
    user = msgs[1]["content"]
    assert "cocotb" in msgs[0]["content"] and "`u_fifo` (the toplevel `dut`) overall coverage >= 95%" in user
    assert "```python" in user and "module sync_fifo" in user and "ref_tb" not in user
    assert build_messages(task) == msgs
    assert get_track("cocotb").build_messages is build_messages and get_track("sv").tb_suffix == ".sv"


def test_trim_traceback_keeps_only_the_testbench_frames():
    block = ['Traceback (most recent call last):',
             '  File "/tmp/x/cocotb/_task.py", line 10, in run', '    coro.send(None)',
             '  File "/tmp/ecov-jobs-0/cocotb-ab/test_dut.py", line 12, in t', '    assert x == 1',
             'AssertionError: assert 0 == 1']
    out = trim_traceback(block)
    assert '"test_dut.py", line 12' in out and "_task.py" not in out and out.endswith("assert 0 == 1")


# ---------------------------------------------------------------------------------------------- coverage integrity


def _dat(points: list[tuple[str, str, str, int]]) -> str:
    lines = ["# SystemC::Coverage-3"]
    for f, h, module, n in points:
        lines.append(f"C '\x01t\x02line\x01page\x02v_line/{module}\x01f\x02{f}\x01l\x0212\x01h\x02{h}"
                     f"\x01S\x0212' {n}")
    return "\n".join(lines) + "\n"


def _judged(points, coverage, task_id="sync_fifo"):
    """What the replay's scoring does with the coverage of the DUT-only model: rename, check, attach."""
    design = TASKS[task_id].design
    got = RunOutput(True, True, rehome(parse_coverage_dat(_dat(points)), design.top, f"tb.{design.instance}"),
                    rehome(parse_coverage_dat(_dat(coverage)), design.top, f"tb.{design.instance}"))
    res = ScoreResult(status=OK, instance=design.instance)
    problem = coverage_problem(got, design)
    if problem is None:
        attach_coverage(res, got.coverage, design, 50)
    return got, problem, res


def test_coverage_hierarchy_is_renamed_and_forged_points_do_not_count():
    own = ("rtl/sync_fifo.sv", "sync_fifo", "sync_fifo")
    got, problem, res = _judged([(*own, 0)], [(*own, 1)])
    assert problem is None and res.coverage["u_fifo"]["line"]["percent"] == 100.0
    assert got.coverage[0].hier == "tb.u_fifo" and "\x01h\x02tb.u_fifo\x01" in got.coverage[0].key
    # a point the model does not instrument (a forged line, a testbench file) is refused outright
    _, problem, res = _judged([(*own, 0)], [(*own, 1), ("test_dut.py", "sync_fifo", "sync_fifo", 1)])
    assert problem.rule == "coverage-integrity" and not res.coverage and res.overall == 0.0
    _, problem, _ = _judged([(*own, 0)], [])
    assert problem.rule == "coverage-integrity"
    # the toplevel must be the DUT module itself, with code from the design's files only
    for bad in ([("rtl/sync_fifo.sv", "sync_fifo", "other", 0)],
                [(*own, 0), ("rtl/forged.sv", "sync_fifo.u_x", "sync_fifo", 0)]):
        _, problem, _ = _judged(bad, [(*p[:3], 1) for p in bad])
        assert problem.rule == "dut-identity", bad


def test_guard_refuses_writes_processes_and_native_code(tmp_path):
    guard = Path(__file__).parents[1] / "harness" / "tracks" / "cocotb" / "guard.py"
    code = (f"import sys; sys.path.insert(0, {str(guard.parent)!r}); import guard; guard.install()\n"
            "import os, subprocess\nout = []\n"
            "for f in (lambda: open('x.txt', 'w'), lambda: os.system('true'), lambda: subprocess.run(['true']),\n"
            "          lambda: __import__('ctypes').CDLL(None), lambda: os.remove('nothing'),\n"
            "          lambda: open('/proc/self/mountinfo').read(), lambda: os.listdir('..'),\n"
            "          lambda: os.listdir('/')):\n"
            "    try:\n        f(); out.append('ran')\n"
            "    except PermissionError as e:\n        out.append('refused' if 'ECov' in str(e) else str(e))\n"
            "print(out, open(__file__ if False else '/dev/null').read() == '', sorted(os.listdir('.')))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == f"{['refused'] * 8} True []", proc.stderr
    assert not (tmp_path / "x.txt").exists()


def test_rlimit_sandbox_is_refused():
    with pytest.raises(RlimitRefused, match="bwrap or docker"):
        CocotbEngine(EngineConfig(sandbox="rlimit"))


# ---------------------------------------------------------------------------------------------- real engine


@needs_bwrap
@pytest.mark.parametrize("task_id", FAST_REFS)
def test_reference_meets_targets(task_id):
    task = TASKS[task_id]
    res = engine().score(task.design, ref(task_id))
    assert res.status == OK and not res.errors, (res.errors, res.log_tail[-1500:])
    assert res.meets(task.targets), {t.metric: res.metric_percent(t.instance, t.metric) for t in task.targets}


@needs_bwrap
def test_two_runs_give_the_same_figures_and_a_cached_design_build():
    task = TASKS["sync_fifo"]
    a = engine().score(task.design, GOOD, seed=3)
    b = engine().score(task.design, GOOD, seed=3)
    assert a.status == OK and a.overall > 0
    assert a.to_dict(timing=False) == b.to_dict(timing=False)
    assert engine().build(task.design).cached  # one build per design, reused by every testbench


ADVERSARIAL = {
    # The internal signals do not exist for VPI: reading or writing them fails inside the test.
    "internal": "    x = dut\n    x.wr_ptr.value = 3\n",
    # Output ports are read-only for VPI: the write is refused and coverage is the design's own.
    "output": "    x = dut\n    x.count.value = 31\n    await Timer(1, unit='ns')\n    assert int(dut.count.value) == 0\n",
}


@needs_bwrap
def test_adversarial_testbenches_cannot_reach_inside_the_design():
    task = TASKS["sync_fifo"]
    head = ("import cocotb\nfrom cocotb.triggers import Timer\n\n\n@cocotb.test()\nasync def t(dut):\n"
            "    dut.rst_n.value = 0\n    dut.clk.value = 0\n    await Timer(1, unit='ns')\n")
    internal = engine().score(task.design, head + ADVERSARIAL["internal"])
    assert internal.status == CRASHED and any("wr_ptr" in e for e in internal.errors), internal.errors
    assert any('File "test_dut.py"' in e for e in internal.errors)  # trimmed to the testbench file
    output = engine().score(task.design, head + ADVERSARIAL["output"])
    assert output.status == OK and not output.errors, (output.errors, output.log_tail[-1500:])
    # The AST rules refuse the rest before anything runs.
    rejected = engine().score(task.design, head + "    open('cov.dat', 'w').write('C 1')\n")
    assert rejected.status == REJECTED and "open" in rejected.errors[0]
    broken = engine().score(task.design, head + "    await Timer(1 unit='ns')\n")
    assert broken.status == COMPILE_ERROR and "test_dut.py:10" in broken.errors[0]
    assert engine().score(task.design, "import cocotb\n").status == COMPILE_ERROR


# Attacks on the coverage files, run with the AST policy bypassed (``_build_and_run``): they test the
# layers below it. Each drives the FIFO exactly as GOOD does, so an honest score is GOOD's score.
FORGE_UNDER_GUARD = """
    import logging
    import os
    seen = {"env": [os.environ.get("ECOV_OUT"), os.environ.get("ECOV_NONCE")]}
    tries = {
        "mountinfo": lambda: open("/proc/self/mountinfo").read(),
        "list_jobs": lambda: os.listdir(".."),
        "cov_here": lambda: open("coverage.dat", "w").write("# SystemC::Coverage-3\\n"),
        "end_here": lambda: open("end", "w").write("ecov-end " + "0" * 32 + " finish=1\\n"),
        "log_file": lambda: logging.basicConfig(filename="coverage.dat", force=True),
    }
    for name, f in tries.items():
        try:
            f()
            seen[name] = "ran"
        except PermissionError:
            seen[name] = "refused"
    print("ECOV-ATTACK", sorted(seen.items()))
"""
# With the guard gone too, Python finds the output folder through the mount table, reads the model's
# point list there, and plants coverage with every point hit plus an end marker; the harness main
# writes the real coverage and marker last, and the marker needs a nonce Python never saw.
FORGE_WITHOUT_GUARD = """
    import os
    if not os.path.exists("/proc/self/mountinfo"):  # the sandbox gives the simulation no /proc at all
        for name in ("coverage.dat", "end"):
            open(name, "w").write("ecov-end " + "0" * 32 + " finish=1\\n")
        print("ECOV-ATTACK no-proc")
        return
    mounts = [line.split()[4] for line in open("/proc/self/mountinfo")]
    out = [m for m in mounts if "/out-" in m]
    points = open(out[0] + "/points.dat").read()
    forged = "".join(ln.rsplit(" ", 1)[0] + " 1\\n" if ln.startswith("C ") else ln + "\\n"
                     for ln in points.splitlines())
    for folder in (out[0], "."):
        open(folder + "/coverage.dat", "w").write(forged)
        open(folder + "/end", "w").write("ecov-end " + "0" * 32 + " finish=1\\n")
    print("ECOV-ATTACK planted", len(out), forged.count("C "))
"""


@needs_bwrap
def test_forged_coverage_files_do_not_raise_the_score(tmp_path):
    task = TASKS["sync_fifo"]
    honest = engine().score(task.design, GOOD)
    assert honest.status == OK and 0 < honest.overall < 100
    eng = engine()
    guarded = eng._build_and_run(task.design, GOOD + FORGE_UNDER_GUARD, 1, eng._base(task.design, 1))
    attack = re.search(r"ECOV-ATTACK (.*)", guarded.log_tail).group(1)
    assert "('env', [None, None])" in attack and "'ran'" not in attack, attack
    assert (guarded.status, guarded.overall, guarded.coverage) == (OK, honest.overall, honest.coverage)
    bare = CocotbEngine(EngineConfig(use_cache=False, run_seconds=60))
    bare.guard_file = tmp_path / "no_guard.py"
    bare.guard_file.write_text("def install():\n    pass\n")
    planted = bare._build_and_run(task.design, GOOD + FORGE_WITHOUT_GUARD, 1, bare._base(task.design, 1))
    # bwrap gives the simulation no /proc (no mount table to find the folder in); elsewhere the files
    # planted in the found folder are overwritten by the harness main and the marker needs the nonce.
    assert re.search(r"ECOV-ATTACK (planted 1|no-proc)", planted.log_tail), (planted.errors, planted.log_tail[-1500:])
    assert (planted.status, planted.overall, planted.coverage) == (OK, honest.overall, honest.coverage)


@needs_bwrap
def test_a_run_that_leaves_without_the_harness_exit_path_crashed():
    task = TASKS["sync_fifo"]
    eng = engine()
    left = eng._build_and_run(task.design, GOOD + "    import os\n    os._exit(0)\n", 1, eng._base(task.design, 1))
    assert left.status == CRASHED and any("exit path" in e for e in left.errors), left.errors
    assert left.overall == 0.0 and not left.coverage


@needs_bwrap
def test_failing_assert_is_reported_and_the_run_still_counts():
    task = TASKS["sync_fifo"]
    res = engine().score(task.design, GOOD + "    assert int(dut.count.value) == 99, 'count is wrong'\n")
    assert res.status == OK and res.overall > 0
    again = engine().score(task.design, GOOD + "    assert int(dut.count.value) == 99, 'count is wrong'\n")
    assert again.to_dict(timing=False) == res.to_dict(timing=False)  # logs name no job or host paths
    assert "ecov-jobs" not in res.log_tail and "test_dut.py" in res.log_tail
    assert any("AssertionError" in e and "count is wrong" in e and "test_dut.py" in e for e in res.errors)


# ---------------------------------------------------------------------------------------------- runs


@needs_bwrap
def test_fake_openai_answers_python_and_feedback_matches_the_sv_track(tmp_path, monkeypatch):
    from ecov.harness.benchmark.store import dataset_hash
    from ecov.harness.core.run_folder import RunConfig, RunFolder
    from ecov.harness.evaluation.runner import run_eval
    from ecov.harness.models import get_model

    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    task = TASKS["sync_fifo"]
    weak = GOOD.replace("range(40)", "range(2)")
    script = [f"test_dut.py\n```python\n{weak}```", "I think it is fine.",
              f"test_dut.py\n```python\n{ref('sync_fifo')}```"]
    config = RunConfig(model="openai/test-model", mode="agentic", agent="memoryless", benchmark="embedded",
                       dataset_hash=dataset_hash([task]), max_rounds=3, tb_lang="cocotb",
                       protocol="ecov")  # the ecov protocol: uncovered-code feedback, unusable answers spend a round
    with FakeOpenAIServer(script) as srv:
        model = get_model("openai/test-model", api_base=srv.url, cache_dir=tmp_path / "c", max_retries=0)
        run_eval([task], model, config, tmp_path / "run", scorer=engine().score, workers=1, progress=False)
        sent = [b["messages"] for b in srv.requests]
    rounds = RunFolder(tmp_path / "run").rounds()
    assert [r.passed for r in rounds] == [False, False, True]
    assert "Uncovered code" in rounds[0].feedback and "target u_fifo overall >= 95%" in rounds[0].feedback
    assert "no Python code block" in rounds[1].feedback and "Uncovered code" in rounds[1].feedback
    assert "## Current testbench" in sent[1][1]["content"] and "```python" in sent[1][1]["content"]
    assert json.loads((tmp_path / "run" / "config.json").read_text())["tb_lang"] == "cocotb"
    assert (tmp_path / "run" / "logs" / "sync_fifo" / "s0_r0_tb.py").exists()


@needs_bwrap
def test_builtin_random_answers_in_python_through_the_cli(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", "--model", "builtin/random", "--tb-lang",
                           "cocotb", "--mode", "agentic", "--max-rounds", "2", "--task-id", "prio_encoder",
                           "--out", str(out), "--no-progress", "--workers", "1"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "pass %" in proc.stdout and "prio_encoder" in proc.stdout
    tb = (out / "logs" / "prio_encoder" / "s0_r0_tb.py").read_text()
    assert tb.startswith("# ecov-random-plan: ") and "@cocotb.test()" in tb
    rounds = [json.loads(x) for x in (out / "rounds.jsonl").read_text().splitlines()]
    assert rounds[0]["result"]["status"] == OK and rounds[0]["result"]["overall"] > 50
    mismatch = subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", "--model", "builtin/random",
                               "--max-rounds", "2", "--task-id", "prio_encoder", "--out", str(out),
                               "--no-progress"], capture_output=True, text=True, env=env, timeout=120)
    assert mismatch.returncode == 2 and "tb_lang" in mismatch.stderr  # never mixed with an SV run


@needs_bwrap
@pytest.mark.slow
def test_every_reference_meets_every_target():
    missing = [t for t in TASKS if not (DATA / f"{t}.py").exists()]
    assert not missing, f"no cocotb reference for {missing}"
    for task_id, task in TASKS.items():
        if task_id in FAST_REFS:
            continue  # checked by test_reference_meets_targets
        res = engine().score(task.design, ref(task_id))
        assert res.status == OK and res.meets(task.targets), (task_id, res.errors)
