"""A summary a newcomer reads at once (issue 35): plain labels, rounds numbered from 1, --limit reports on
what it ran, --no-progress still says something per finished sample. Real engine, builtin/reference."""

from __future__ import annotations

import dataclasses
import re

import pytest
from click.testing import CliRunner
from test_eval_e2e import make_task

from ecov.harness.benchmark.store import save_tasks
from ecov.harness.cli.eval import eval_cmd
from ecov.harness.evaluation.metrics import summarize
from ecov.harness.evaluation.report import format_summary


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    tasks = [dataclasses.replace(make_task(t), instructions=f"Verify the 2-bit counter ({t}).") for t in "abc"]
    save_tasks(tasks, folder, fmt="jsonl")
    return folder


def _eval(bench, out, *extra):
    return CliRunner().invoke(eval_cmd, ["--model", "builtin/reference", "--benchmark", str(bench), "--mode",
                                         "agentic", "--max-rounds", "2", "--no-progress", "--out", str(out),
                                         *extra])


def test_no_progress_prints_a_line_per_sample_and_limit_reports_what_it_ran(bench, tmp_path):
    out = tmp_path / "run"
    first = _eval(bench, out)
    assert first.exit_code == 0, first.output
    lines = re.findall(r"^\[(\d)/3\] ([abc]) sample 0: passed, coverage [\d.]+% after \d rounds?$", first.output, re.M)
    assert sorted(t for _, t in lines) == ["a", "b", "c"] and sorted(n for n, _ in lines) == ["1", "2", "3"]
    assert "3/3 tasks" in first.output and "the folder holds" not in first.output

    again = _eval(bench, out, "--limit", "1")  # nothing left to run: the summary is of task a alone
    assert again.exit_code == 0, again.output
    assert "1/1 tasks, 1/1 samples" in again.output and "3/3 tasks" not in again.output
    assert "The 1 tasks this command selected; the folder holds 3" in again.output
    assert re.search(r"^  a +1/1 ", again.output, re.M) and not re.search(r"^  [bc] +1/1 ", again.output, re.M)


def _sample(task, overall, passed_round=None):
    from ecov.harness.core.run_folder import SampleRecord

    return SampleRecord(task_id=task, sample=0, rounds=2, passed=passed_round is not None,
                        passed_round=passed_round, syntax_ok=True, final_overall=overall[-1],
                        best_overall=max(overall), overall_by_round=overall)


def test_rounds_are_numbered_from_one_and_no_bracket_nests():
    s = summarize([_sample("a", [40.0, 90.0], 1), _sample("b", [10.0, 20.0])], 2, protocol="llm4cov")
    s["run"] = {"model": "m", "mode": "agentic", "agent": "memoryless", "n_samples": 1, "max_rounds": 2}
    text = format_summary(s)
    assert "pass % by round       1: 0.0  2: 50.0" in text and "r0" not in text
    cov = next(line for line in text.splitlines() if line.strip().startswith("avg coverage %"))
    depth = 0
    for ch in cov:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        assert depth <= 1, cov


def test_a_cocotb_summary_says_why_it_has_no_legal_line():
    s = summarize([_sample("a", [40.0, 90.0], 1)], 2, protocol="llm4cov")
    s["run"] = {"model": "m", "mode": "agentic", "agent": "memoryless", "n_samples": 1, "max_rounds": 2,
                "tb_lang": "cocotb"}
    legal = [line for line in format_summary(s).splitlines() if line.strip().startswith("legal pass %")]
    assert len(legal) == 1 and "cocotb track binds no interface contract" in legal[0]
    s["run"]["tb_lang"] = "sv"  # an SV run without contract tasks has nothing to explain
    assert "legal pass %" not in format_summary(s)


def test_site_prose_quotes_the_tables_own_random_figure(tmp_path):
    """The prose above a table reads builtin/random's figure from that table (it said 93% above a 91.0)."""
    import shutil
    from pathlib import Path

    from ecov.leaderboard.site import build_site

    subs = tmp_path / "subs"
    subs.mkdir()
    shipped = Path(__file__).resolve().parents[1] / "leaderboard" / "submissions" / "builtin-random-agentic"
    shutil.copytree(shipped, subs / shipped.name)
    build_site(subs, tmp_path / "site", repo_url="")
    index = (tmp_path / "site" / "index.html").read_text()
    prose = re.search(r"builtin/random's pass % here is ([\d.]+) \(its row below\)", index)
    page = (tmp_path / "site" / "s" / shipped.name / "index.html").read_text()
    row = re.search(r'id="summary-pass">([\d.]+)<', page)
    assert prose and row and prose.group(1) == row.group(1), (prose, row)
