"""Issue 25: a cocotb-track submission verifies with 0 differences (verify re-scores with the run's own
track), and the llm4cov protocol's cocotb prompts offer whole files only (no patch hunk to copy)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.cli.eval import eval_cmd
from ecov.harness.core.protocol import get_protocol
from ecov.harness.sandbox.bwrap import bwrap_available
from ecov.harness.tracks.base import tb_io
from ecov.leaderboard.cli import main as cli
from ecov.leaderboard.submission import SubmissionMeta, add_submission
from ecov.leaderboard.verify import read_verification


@pytest.mark.skipif(not bwrap_available(), reason="the cocotb track needs bubblewrap")
def test_a_cocotb_run_verifies_with_no_differences(tmp_path):
    r = CliRunner().invoke(eval_cmd, ["--model", "builtin/random", "--tb-lang", "cocotb", "--task-id", "alu_flags",
                                      "--task-id", "updown_counter", "--max-rounds", "2", "--no-progress",
                                      "--out", str(tmp_path / "run")])
    assert r.exit_code == 0, r.output
    dest = add_submission(tmp_path / "run", tmp_path / "subs", "cocotb-random",
                          SubmissionMeta(model="builtin/random", type="baseline", date="2026-12-01"))
    r = CliRunner().invoke(cli, ["verify", str(dest), "-q"])
    ver = read_verification(dest / "verification.json")
    assert r.exit_code == 0 and ver.verdict == "verified" and not ver.differences, r.output
    assert ver.tb_lang == "cocotb" and ver.checked_rounds >= 2


def test_llm4cov_cocotb_prompts_offer_whole_files_only():
    task = next(t for t in load_benchmark() if t.id == "alu_flags")
    io = tb_io(get_protocol("llm4cov"), "cocotb")
    for messages in (io.messages(task, None, None), io.messages(task, "import cocotb\n", "coverage 50%")):
        text = messages[-1]["content"]
        assert "```diff" not in text and "@@ " not in text and "hunk" not in text.lower()
    parsed = io.parse("test_dut.py\n```diff\n@@ -1 +1 @@\n-import cocotb\n+import random\n```", "stop",
                      "import cocotb\n", task, set())
    assert not parsed.ok
    ecov_round1 = tb_io(get_protocol("ecov"), "cocotb").messages(task, "import cocotb\n", "fb")[-1]["content"]
    assert "```diff" in ecov_round1  # the ecov protocol still offers patches
