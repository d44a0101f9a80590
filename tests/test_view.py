"""``ecov-eval view RUN_DIR``: a run as local pages on the site's templates; round logs that keep the spec's
markdown literal; the rule that ranks only runs over a benchmark's whole task set."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

from test_leaderboard import runs, scorer, scores, task, write_run  # noqa: F401 - shared session fixtures

from ecov.harness.benchmark.store import save_tasks, write_manifest
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder, SampleRecord
from ecov.harness.evaluation.round_log import fence, render_round_log
from ecov.harness.evaluation.runner import build_summary
from ecov.leaderboard.ranking import standing
from ecov.leaderboard.site import build_site
from ecov.leaderboard.submission import SubmissionMeta, add_submission
from ecov.leaderboard.view import write_view


def test_view_pages_show_targets_rounds_and_why_not_ranked(runs, task, scores, tmp_path):  # noqa: F811
    index = write_view(runs["good"], tmp_path / "view")
    html = index.read_text()
    assert "scripted/good" in html and "Local view of run folder" in html
    assert "Not ranked on the leaderboard: covers 1 of the benchmark&#39;s 16 tasks" in html
    assert 'href="t/updown_counter.html"' in html and "static/site.css" in html
    assert (tmp_path / "view" / "static" / "site.css").is_file()
    assert (tmp_path / "view" / "data" / "rounds.jsonl").read_bytes() == (runs["good"] / "rounds.jsonl").read_bytes()
    page = (tmp_path / "view" / "t" / "updown_counter.html").read_text()
    # Targets beside what the last scored round reached: sample 0 ends on the reference (met), 1 on weak.
    rows = re.findall(r'<tr><td class="inst">([^<]+)</td><td>(\w+)</td><td class="num">([\d.]+)</td>\s*'
                      r'<td class="num">([\d.–]+)</td><td class="(met|missed)">', page)
    assert len(rows) == 2 * len(task.targets)
    assert [r[4] for r in rows[:len(task.targets)]] == ["met"] * len(task.targets)
    assert "missed" in [r[4] for r in rows[len(task.targets):]]
    for t, r in zip(task.targets, rows, strict=False):
        assert (r[0], r[1], float(r[2])) == (t.instance, t.metric, t.percent)
    # Each round: its testbench, the diff to the previous one, the feedback, the raw response.
    assert "Change from the previous testbench" in page and "Feedback given to the model" in page
    assert "Model response" in page and 'href="../index.html"' in page and "Leaderboard</a>" not in page


def test_view_cli_writes_and_refuses_a_non_run_folder(runs, tmp_path):  # noqa: F811
    env_cmd = [sys.executable, "-m", "ecov.harness.cli.eval", "view"]
    ok = subprocess.run([*env_cmd, str(runs["weak"]), "--out", str(tmp_path / "v")], capture_output=True,
                        text=True, timeout=300)
    assert ok.returncode == 0 and (tmp_path / "v" / "index.html").is_file(), ok.stderr
    bad = subprocess.run([*env_cmd, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "not an ecov-eval run folder" in bad.stderr and "Traceback" not in bad.stderr


def test_round_log_keeps_spec_markdown_literal():
    spec = "# Spec\n\n## Ports\n\n```systemverilog\nmodule m; endmodule\n```\n\n````\nfour\n````\n"
    assert fence(spec).startswith("`````text\n") and fence(spec).endswith("\n`````")
    rec = RoundRecord("t", 0, 0, "h", "```systemverilog\nmodule tb; endmodule\n```", "module tb; endmodule", "",
                      "## not a heading", {}, False, 1, 1, 0.0, messages=[{"role": "user", "content": spec}])

    class Res:
        status, overall, log_tail = "ok", 50.0, "# log line"

    text = render_round_log(rec, Res())
    # Outside the fences only the log's own headings remain.
    outside, bar = [], None
    for line in text.splitlines():
        m = re.match(r"^(`{3,})", line)
        if bar is None and m:
            bar = m.group(1)
        elif bar is not None and line == bar:
            bar = None
        elif bar is None:
            outside.append(line)
    heads = [x for x in outside if x.startswith("#")]
    assert heads == ["# t · sample 0 · round 1", "## message 1: user", "## response", "## feedback",
                     "## simulator log (tail)"]


def _sample(task_id: str, i: int = 0) -> SampleRecord:
    return SampleRecord(task_id=task_id, sample=i, passed=False, passed_round=None, rounds=1,
                        final_overall=0.0, best_overall=0.0, syntax_ok=True, overall_by_round=[0.0])


def test_standing_ranks_only_the_whole_task_set():
    cfg = RunConfig(model="m", mode="agentic", agent="memoryless", benchmark="b", dataset_hash="x",
                    n_samples=2, max_rounds=4)
    full = frozenset({"a", "b"})
    whole = [_sample(t, i) for t in "ab" for i in (0, 1)]
    assert standing(cfg, whole, full, verdict="verified").ranked
    # Only what this build verified is ranked: any other verdict (or none) is listed apart with the reason.
    for verdict, why in [(None, "not verified by this build"), ("differs", "do not reproduce"),
                         ("error", "could not be verified"), ("failed", "refused by the test rules")]:
        st = standing(cfg, whole, full, verdict=verdict)
        assert not st.ranked and why in st.reason, (verdict, st)
    one = standing(cfg, [_sample("a", 0), _sample("a", 1)], full, verdict="verified")
    assert not one.ranked and "covers 1 of the benchmark's 2 tasks" in one.reason
    short = standing(cfg, [_sample("a"), _sample("a", 1), _sample("b")], full, verdict="verified")
    assert not short.ranked and "fewer than n=2" in short.reason
    extra = standing(cfg, [_sample(t, i) for t in "abz" for i in (0, 1)], full, verdict="verified")
    assert not extra.ranked and "not in the benchmark" in extra.reason
    cfg.max_rounds = 9
    assert "9 rounds where protocol llm4cov sets 4" in standing(cfg, whole, full, verdict="verified").reason
    assert not standing(cfg, [], None, verdict="verified").ranked


def test_a_one_task_run_is_never_ranked(runs, task, scorer, tmp_path):  # noqa: F811
    """A run over a 1-task benchmark folder is not ranked (no benchmark ECov knows); the same run's records
    over the 16-task embedded suite are listed apart as partial, with no rank, whatever their pass %."""
    bench = tmp_path / "one-task"
    save_tasks([task], bench)
    write_manifest(bench, {"name": "one-task"})
    subs = tmp_path / "subs"
    meta = SubmissionMeta(model="Full Model", type="baseline", date="2026-12-01")
    full_run = tmp_path / "full"
    shutil.copytree(runs["good"], full_run)
    cfg = json.loads((full_run / "config.json").read_text())
    cfg.update(benchmark=str(bench), max_rounds=4)
    (full_run / "config.json").write_text(json.dumps(cfg))
    RunFolder(full_run).write_summary(build_summary(RunFolder(full_run)))
    add_submission(full_run, subs, "full", meta)
    add_submission(runs["good"], subs, "subset",
                   SubmissionMeta(model="Subset Model", type="baseline", date="2026-12-01"))
    out = tmp_path / "site"
    build_site(subs, out, repo_url="https://example.org/ecov")
    html = (out / "index.html").read_text()
    # A benchmark folder a submission names is not one ECov knows (issue 24): listed apart, never ranked.
    one = next(sec for sec in html.split('<section class="board"')[1:] if 'data-name="full"' in sec)
    one = one.split("</section>")[0]
    assert "unknown benchmark (one-task)" in one and "Partial runs, not ranked" in one
    assert "names a benchmark ECov does not know" in one
    emb = html.split('<section class="board" id="ecov-embedded-agentic">')[1].split("</section>")[0]
    assert "Partial runs, not ranked" in emb and 'class="sortable leaderboard partial"' in emb
    row = emb.split('data-name="subset"')[1].split("</tr>")[0]
    assert '<td class="num" data-sort="">–</td>' in row and "covers 1 of the benchmark&#39;s 16 tasks" in row
    assert 'href="https://example.org/ecov"' in html and 'id="submit"' in html and 'href="#paper"' in html
