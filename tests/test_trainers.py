"""trainers/: synthesis from a real recorded run, curation, worst-state sampling, coverage-guided rejection.

The "student" run is a real ecov-eval run (harness.run.run_eval) against a scripted OpenAI-compatible
server on 127.0.0.1 and the real engine. The scripted answers are chosen so that the engine compiles
only four distinct testbenches (WEAK, MID, GOOD, SYNTAX_BAD); every other score is a cache hit.
tests/test_train_stage1.py imports the design and the run builder from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer

from harness.engine import Engine, EngineConfig
from harness.models import get_model
from harness.prompts import build_messages
from harness.records import COMPILE_ERROR, OK, SourceFile, Target
from harness.results import RunConfig, RunFolder
from harness.run import run_eval
from harness.tasks import Task
from trainers.cli import main
from trainers.config import ConfigError, config_from_dict, load_config
from trainers.curate import curate, validate_rows
from trainers.rejection import BELOW_TAU, KEPT, NOT_BEST, PARSE_ERROR, rejection_rows
from trainers.sampling import select_states
from trainers.synth import Row, State, states_from_run, trajectory_rows, write_tasks

CONFIGS = Path(__file__).resolve().parents[1] / "trainers" / "configs"

CNT = """module cnt (
  input  logic       clk,
  input  logic       rst_n,
  input  logic       en,
  input  logic       load,
  input  logic [3:0] d,
  output logic [3:0] q,
  output logic       wrap
);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      q <= 4'd0;
      wrap <= 1'b0;
    end else begin
      wrap <= 1'b0;
      if (load) begin
        q <= d;
      end else if (en) begin
        if (q == 4'hF) wrap <= 1'b1;
        q <= q + 4'd1;
      end
    end
  end
endmodule
"""

_TB = """module tb;
  logic clk = 0, rst_n = 0, en = 0, load = 0;
  logic [3:0] d = 4'd0;
  logic [3:0] q;
  logic wrap;
  cnt uut (.clk(clk), .rst_n(rst_n), .en(en), .load(load), .d(d), .q(q), .wrap(wrap));
  always #5 clk = ~clk;
  initial begin
    #12 rst_n = 1;
{body}
    $finish;
  end
endmodule
"""

WEAK = _TB.format(body="    repeat (3) @(posedge clk);")  # reset only: load/enable lines never run
MID = _TB.format(body="    en = 1;\n    repeat (5) @(posedge clk);")  # counts, never loads or wraps
GOOD = _TB.format(body="""    load = 1; d = 4'hA; @(posedge clk);
    load = 0; d = 4'h5; en = 1;
    repeat (20) @(posedge clk);
    load = 1; @(posedge clk);
    load = 0; en = 0; repeat (2) @(posedge clk);""")
SYNTAX_BAD = _TB.format(body="    en = 1\n    repeat (5) @(posedge clk);")  # missing semicolon

PATCH_WEAK_TO_MID = """The counter is never enabled. Enable it:

tb.sv
```diff
@@ -9,3 +9,4 @@
     #12 rst_n = 1;
-    repeat (3) @(posedge clk);
+    en = 1;
+    repeat (5) @(posedge clk);
     $finish;
```"""

NO_CODE = "First I would read the specification and list the corner cases of the counter."


def full(tb: str, prose: str = "Here is the testbench.") -> str:
    return f"{prose}\n\ntb.sv\n```systemverilog\n{tb}```\n"


# The student's recorded run: workers=1 so the scripted answers are consumed in (sample, round) order.
STUDENT_SCRIPT = [full(WEAK), NO_CODE, full(MID), full(GOOD)]
# K=5 revisions of the WEAK state: one of each outcome.
TEACHER_SCRIPT = [NO_CODE, full(SYNTAX_BAD), full(WEAK, "Same again."), PATCH_WEAK_TO_MID, full(GOOD)]


def make_task() -> Task:
    return Task(
        id="trainertest/cnt",
        benchmark="trainertest",
        rtl_files=[SourceFile("cnt.sv", CNT)],
        spec_files=[SourceFile("spec.md", "# cnt\nA 4-bit counter with load, enable and a wrap pulse.\n")],
        dut_module="cnt",
        dut_instance="uut",
        instructions="Verify the counter.",
        targets=[Target("uut", "line", 100.0)],
    )


def record_student_run(root: Path, monkeypatch) -> tuple[Task, RunFolder, Path]:
    """A real ecov-eval run (2 samples x 2 rounds, memoryless agent) plus the task file it ran on."""
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    task = make_task()
    tasks_path = root / "tasks.jsonl"
    write_tasks(tasks_path, [task])
    with FakeOpenAIServer(list(STUDENT_SCRIPT)) as srv:
        model = get_model("openai/student", api_base=srv.url, max_retries=0, extra={"cache": False})
        cfg = RunConfig(model="openai/student", mode="agentic", agent="memoryless", benchmark="trainertest",
                        dataset_hash="test", n_samples=2, max_rounds=2, protocol="ecov")  # unusable answers spend a round
        run_eval([task], model, cfg, root / "student_run", workers=1, progress=False)
        assert srv.remaining == 0
    return task, RunFolder(root / "student_run"), tasks_path


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    try:
        yield record_student_run(tmp_path_factory.mktemp("trainers"), mp)
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def engine():
    return Engine(EngineConfig())


# -- synthesis ---------------------------------------------------------------------------------------

def test_trajectory_rows_use_the_evaluation_prompts(student):
    task, run, _ = student
    rows, stats = trajectory_rows(run, {task.id: task})
    # 4 rounds recorded -> 4 rows, each prompt rebuilt by harness.prompts equal to the chat that was sent.
    assert stats.rounds == 4 and stats.rows == 4
    assert stats.prompt_checked == 4 and stats.prompt_mismatch == 0, stats.mismatch_keys
    by = {(r.state["sample"], r.meta["round"]): r for r in rows}
    assert by[(0, 0)].prompt == build_messages(task, protocol="ecov") and by[(0, 0)].response == full(WEAK)
    # Round 1 of sample 0 answers the state (WEAK, its feedback): the prompt shows WEAK.
    s01 = by[(0, 1)]
    assert s01.prompt == build_messages(task, WEAK, run.rounds()[0].feedback, protocol="ecov")
    assert s01.response == NO_CODE and s01.meta["parse_error"]
    assert s01.state["coverage"] == by[(0, 0)].meta["coverage"]
    # The GOOD answer raised coverage over MID's state and met the target.
    s11 = by[(1, 1)]
    assert s11.meta["passed"] and s11.meta["gain"] > 0 and s11.meta["status"] == OK
    assert s11.to_dict()["completion"] == [{"role": "assistant", "content": full(GOOD)}]


def test_curation_drops_what_does_not_parse_or_compile(student, engine):
    task, run, _ = student
    rows, _ = trajectory_rows(run, {task.id: task})
    cur = curate(rows)
    assert len(cur.kept) == 3 and cur.counts() == {"parse_error": 1}
    assert all(r.meta["parse_error"] == "" for r in cur.kept)
    # A response that does not compile, scored for real by validate_rows, is dropped as compile_error.
    bad = Row(task.id, 0, build_messages(task, protocol="ecov"), full(SYNTAX_BAD), {"key": "x"}, "hand", {})
    dup = Row(task.id, 0, build_messages(task, protocol="ecov"), full(WEAK), {"key": "y"}, "hand", {})
    validate_rows([bad, dup], {task.id: task}, engine)
    assert bad.meta["status"] == COMPILE_ERROR and dup.meta["status"] == OK
    cur2 = curate(cur.kept + [bad, dup])
    assert cur2.counts() == {"compile_error": 1, "duplicate": 1}
    assert "compile_error" in json.dumps(cur2.to_dict())


def test_curation_require_run_drops_unfinished_runs():
    row = Row("t", 0, [{"role": "user", "content": "p"}], "r", {"key": "k"}, "s", {"status": "timeout"})
    assert curate([row], require="compile").kept == [row]
    assert curate([row], require="run").counts() == {"timeout": 1}
    assert curate([Row("t", 0, [], "  ", {}, "s", {"status": OK})]).counts() == {"empty_response": 1}
    assert curate([Row("t", 0, [], "x", {}, "s", {})]).counts() == {"unvalidated": 1}


# -- sampling ----------------------------------------------------------------------------------------

def test_states_from_run_and_worst_state_selection(student):
    task, run, _ = student
    states = states_from_run(run, {task.id: task})
    # The round that gave no testbench is no new state; the passing state is left out of selection.
    assert sorted((s.sample, s.round) for s in states) == [(0, 0), (1, 0), (1, 1)]
    cov = {(s.sample, s.round): s.coverage for s in states}
    assert cov[(0, 0)] < cov[(1, 0)] < cov[(1, 1)]
    picked = select_states(states, budget=1)
    assert [(s.sample, s.round) for s in picked] == [(0, 0)]
    assert [(s.sample, s.round) for s in select_states(states, budget=0)] == [(0, 0), (1, 0)]
    assert len(select_states(states, budget=0, include_passed=True)) == 3


def _state(task: str, sample: int, rnd: int, cov: float, tb: str | None = None) -> State:
    return State(task, sample, rnd, tb or f"tb {task} {sample} {rnd}", "fb", cov, OK, False)


def test_selection_budget_scope_uniform_and_dedupe():
    states = [_state("a", 0, 0, 50), _state("a", 0, 1, 10), _state("a", 1, 0, 30),
              _state("b", 0, 0, 90), _state("b", 1, 0, 70),
              _state("c", 0, 0, 5), _state("c", 1, 0, 5, tb="tb c 0 0")]  # c/1/0 repeats c/0/0's testbench
    key = lambda ss: [(s.task_id, s.sample, s.round) for s in ss]  # noqa: E731
    assert key(select_states(states, 2)) == [("a", 0, 1), ("a", 1, 0), ("b", 1, 0), ("b", 0, 0), ("c", 0, 0)]
    # Global budget: every task's worst state first (lowest first), then the second worst.
    assert key(select_states(states, 4, scope="global")) == [("c", 0, 0), ("a", 0, 1), ("b", 1, 0), ("a", 1, 0)]
    u1 = select_states(states, 1, strategy="uniform", seed=3)
    assert len(u1) == 3 and {s.task_id for s in u1} == {"a", "b", "c"}
    assert key(u1) == key(select_states(states, 1, strategy="uniform", seed=3))  # seeded
    draws = {tuple(key(select_states(states, 1, strategy="uniform", seed=s))) for s in range(20)}
    assert len(draws) > 1  # uniform is not worst-first in disguise
    assert len(select_states(states, 3, strategy="uniform", scope="global", seed=1)) == 3
    with pytest.raises(ValueError, match="strategy"):
        select_states(states, 1, strategy="best")


# -- rejection ---------------------------------------------------------------------------------------

def test_rejection_keeps_the_best_revision_above_tau(student, engine, tmp_path, monkeypatch):
    task, run, _ = student
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    weak = select_states(states_from_run(run, {task.id: task}), budget=1)
    with FakeOpenAIServer(list(TEACHER_SCRIPT)) as srv:
        teacher = get_model("openai/teacher", api_base=srv.url, max_retries=0, extra={"cache": False})
        rows, cands = rejection_rows(weak, {task.id: task}, teacher, engine, k=5, tau=5.0, stage=1,
                                     source="openai/teacher", report=tmp_path / "rejection.jsonl")
        # Every revision request is the evaluation prompt of the WEAK state.
        assert all(r["messages"] == build_messages(task, WEAK, weak[0].feedback) for r in srv.requests)
    reasons = [c.reason for c in cands]
    assert reasons == [PARSE_ERROR, COMPILE_ERROR, BELOW_TAU, NOT_BEST, KEPT]
    assert cands[2].gain == 0.0 and cands[3].kind == "patch" and 5.0 <= cands[3].gain < cands[4].gain
    assert len(rows) == 1 and rows[0].response == full(GOOD) and rows[0].stage == 1
    assert rows[0].meta["gain"] == cands[4].gain and rows[0].prompt == build_messages(task, WEAK, weak[0].feedback)
    report = [json.loads(line) for line in (tmp_path / "rejection.jsonl").read_text().splitlines()]
    assert [r["reason"] for r in report] == reasons and all("gain" in r for r in report)
    # A tau above every gain keeps nothing.
    from trainers.rejection import judge

    for c in cands:
        c.reason = c.reason if c.reason in (PARSE_ERROR,) else ""
    assert judge(cands, tau=1000.0) is None


def test_rejection_concurrent_requests_and_model_errors(student, engine, monkeypatch):
    """K requests in flight at once: answers are matched to their sample by seed, outcomes stay in k order."""
    task, run, _ = student
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    weak = select_states(states_from_run(run, {task.id: task}), budget=1)
    from harness.models.litellm_model import api_seed

    answers = [full(GOOD), {"status": 400}, PATCH_WEAK_TO_MID, full(GOOD, "Again.")]
    by_seed = {api_seed(11 + k, k): a for k, a in enumerate(answers)}  # revision k asks with seed 11 + k
    with FakeOpenAIServer(lambda body: by_seed[body["seed"]]) as srv:
        teacher = get_model("openai/teacher", api_base=srv.url, max_retries=0, extra={"cache": False})
        rows, cands = rejection_rows(weak, {task.id: task}, teacher, engine, k=4, tau=5.0, stage=2,
                                     source="openai/teacher", seed=11, concurrency=4)
        assert sorted(r["seed"] for r in srv.requests) == sorted(by_seed)
    assert [c.reason for c in cands] == [KEPT, "model_error", NOT_BEST, NOT_BEST]
    assert cands[0].gain == cands[3].gain  # a tie on gain keeps the earliest sample
    assert len(rows) == 1 and rows[0].meta["candidate"] == "k0" and rows[0].stage == 2


# -- config and CLI ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["stage0.yaml", "stage1.yaml", "stage2.yaml", "tiny_cpu.yaml"])
def test_shipped_configs_load(name):
    cfg = load_config(CONFIGS / name)
    assert cfg.stage in (0, 1, 2) and cfg.output_dir
    if cfg.stage:
        assert cfg.student.init and cfg.rejection.reviser.model


def test_config_errors_name_the_key(tmp_path):
    base = yaml.safe_load((CONFIGS / "stage1.yaml").read_text())
    with pytest.raises(ConfigError, match="unknown key.*learning_rat"):
        config_from_dict({**base, "sft": {"learning_rat": 1e-5}})
    with pytest.raises(ConfigError, match="strategy"):
        config_from_dict({**base, "sampling": {"strategy": "best"}})
    with pytest.raises(ConfigError, match="student.init"):
        config_from_dict({**base, "student": {"base": "Qwen/Qwen3-4B-Instruct-2507"}})
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({**base, "rejection": {"k": 0}}))
    res = CliRunner().invoke(main, ["synth", "--config", str(bad)])
    assert res.exit_code == 2 and "rejection.k" in res.output
    res = CliRunner().invoke(main, ["stage", "--config", str(tmp_path / "missing.yaml")])
    assert res.exit_code == 2 and "not found" in res.output


def test_cli_synth_stage0_from_a_run_folder(student, tmp_path):
    task, run, tasks_path = student
    cfg = yaml.safe_load((CONFIGS / "stage0.yaml").read_text())
    cfg.update(output_dir=str(tmp_path / "stage0"), sources=[str(run.root)], tasks={"path": str(tasks_path)})
    path = tmp_path / "stage0.yaml"
    path.write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(main, ["synth", "--config", str(path)])
    assert res.exit_code == 0, res.output
    out = tmp_path / "stage0"
    assert len((out / "rows.jsonl").read_text().splitlines()) == 3
    assert json.loads((out / "curation.json").read_text())["dropped_by_reason"] == {"parse_error": 1}
    # A missing source run folder is a usage error.
    cfg["sources"] = [str(tmp_path / "nope")]
    path.write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(main, ["synth", "--config", str(path)])
    assert res.exit_code == 2 and "nope" in res.output
    # So is a task file with no tasks in it.
    (tmp_path / "empty.jsonl").write_text("")
    cfg.update(sources=[str(run.root)], tasks={"path": str(tmp_path / "empty.jsonl")})
    path.write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(main, ["synth", "--config", str(path)])
    assert res.exit_code == 2 and "no tasks" in res.output
