"""trainers/: synthesis from a real recorded run, curation, worst-state sampling, coverage-guided rejection.

The "student" run is a real ecov-eval run (ecov.harness.evaluation.runner.run_eval) against a scripted OpenAI-compatible
server on 127.0.0.1 and the real engine. The scripted answers are chosen so that the engine compiles
only four distinct testbenches (WEAK, MID, GOOD, SYNTAX_BAD); every other score is a cache hit.
tests/test_train_stage1.py imports the design and the run builder from here.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer

from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.records import COMPILE_ERROR, OK, SourceFile, Target
from ecov.harness.core.run_folder import RunConfig, RunFolder
from ecov.harness.evaluation.runner import run_eval
from ecov.harness.models import get_model
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import tb_io
from ecov.harness.tracks.sv.prompts import build_messages
from ecov.harness.tracks.sv.scorer import Engine
from ecov.trainers.cli import main
from ecov.trainers.config import ConfigError, config_from_dict, load_config
from ecov.trainers.curate import curate, validate_rows
from ecov.trainers.rejection import BELOW_TAU, KEPT, NOT_BEST, PARSE_ERROR, rejection_rows
from ecov.trainers.sampling import select_states
from ecov.trainers.synth import Row, State, states_from_run, trajectory_rows, write_tasks

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
# Reset pulsed again, inputs toggled: from MID, overall rises (62.82 -> 65.38) but branch falls (66.67 -> 50).
TOGGLY = _TB.replace("#12 rst_n = 1;", "#12 rst_n = 1; #10 rst_n = 0;").format(body="""    d = 4'hF; en = 1; load = 1; repeat (2) @(posedge clk);
    d = 4'h0; en = 0; load = 0; repeat (2) @(posedge clk);""")

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


# Where runs carry an evaluation protocol (ecov.harness.core.protocol), the scripted runs here use "ecov": an
# unusable answer spends its round instead of being asked again, so the scripts stay in step.
PROTOCOL = {"protocol": "ecov"} if "protocol" in RunConfig.__dataclass_fields__ else {}


def eval_prompt(task: Task, testbench: str | None = None, feedback: str | None = None) -> list[dict[str, str]]:
    """The evaluation prompt of a state under the protocol of the scripted runs."""
    import inspect

    kw = PROTOCOL if "protocol" in inspect.signature(build_messages).parameters else {}
    return build_messages(task, testbench, feedback, **kw)


def full(tb: str, prose: str = "Here is the testbench.") -> str:
    return f"{prose}\n\ntb.sv\n```systemverilog\n{tb}```\n"


# The student's recorded run: workers=1 so the scripted answers are consumed in (sample, round) order.
STUDENT_SCRIPT = [full(WEAK), NO_CODE, full(MID), full(GOOD)]
# K=5 revisions of the WEAK state: one of each outcome.
TEACHER_SCRIPT = [NO_CODE, full(SYNTAX_BAD), full(WEAK, "Same again."), PATCH_WEAK_TO_MID, full(GOOD)]


# The student's direct-inference run (n = 4): a compile failure, WEAK (52.88), MID (62.82), GOOD (97.11).
DIRECT_SCRIPT = [full(SYNTAX_BAD), full(WEAK), full(MID), full(GOOD)]
# Released selection: xrun_fail = s0, worst = s1 (WEAK); median MID is 0.0994 above worst, not > 0.1.
# Rollouts (2 rounds x 2 repetitions) from s0 then s1, asked in this order:
ROLLOUT_SCRIPT = [
    full(WEAK), full(MID),  # s0 rep 0: a fix (+0.5288), then +0.0994
    full(SYNTAX_BAD, "Try this."), full(GOOD),  # s0 rep 1: still failing (no coverage), then a fix to GOOD (+0.9711)
    full(MID), full(TOGGLY),  # s1 rep 0: +0.0994, then overall +0.0256 but branch falls: rejected
    NO_CODE, full(WEAK, "Same again."),  # s1 rep 1: no testbench, then no gain
]


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


def record_direct_run(root: Path, monkeypatch) -> tuple[Task, RunFolder, Path]:
    """A real `ecov-eval --mode direct -n 4` run of the scripted student, plus the task file."""
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    task = make_task()
    tasks_path = root / "tasks.jsonl"
    write_tasks(tasks_path, [task])
    with FakeOpenAIServer(list(DIRECT_SCRIPT)) as srv:
        model = get_model("openai/student", api_base=srv.url, max_retries=0, extra={"cache": False})
        cfg = RunConfig(model="openai/student", mode="direct", agent="direct", benchmark="trainertest",
                        dataset_hash="test", n_samples=4, max_rounds=1, **PROTOCOL)
        run_eval([task], model, cfg, root / "student_direct", workers=1, progress=False)
        assert srv.remaining == 0
    return task, RunFolder(root / "student_direct"), tasks_path


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
    # 4 rounds recorded -> 4 rows, each prompt rebuilt by ecov.harness.tracks.sv.prompts equal to the chat that was sent.
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
        assert all(r["messages"] == eval_prompt(task, WEAK, weak[0].feedback) for r in srv.requests)
    reasons = [c.reason for c in cands]
    assert reasons == [PARSE_ERROR, COMPILE_ERROR, BELOW_TAU, NOT_BEST, KEPT]
    assert cands[2].gain == 0.0 and cands[3].kind == "patch" and 5.0 <= cands[3].gain < cands[4].gain
    assert len(rows) == 1 and rows[0].response == full(GOOD) and rows[0].stage == 1
    assert rows[0].meta["gain"] == cands[4].gain and rows[0].prompt == eval_prompt(task, WEAK, weak[0].feedback)
    report = [json.loads(line) for line in (tmp_path / "rejection.jsonl").read_text().splitlines()]
    assert [r["reason"] for r in report] == reasons and all("gain" in r for r in report)
    # A tau above every gain keeps nothing.
    from ecov.trainers.rejection import judge

    for c in cands:
        c.reason = c.reason if c.reason in (PARSE_ERROR,) else ""
    assert judge(cands, tau=1000.0) is None


def test_rejection_concurrent_requests_and_model_errors(student, engine, monkeypatch):
    """K requests in flight at once: answers are matched to their sample by seed, outcomes stay in k order."""
    task, run, _ = student
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    weak = select_states(states_from_run(run, {task.id: task}), budget=1)
    from ecov.harness.models.litellm_model import api_seed

    answers = [full(GOOD), {"status": 400}, PATCH_WEAK_TO_MID, full(GOOD, "Again.")]
    # revision k asks with seed 11 + k, sample k, in the round after the state's (seeds vary per round)
    by_seed = {api_seed(11 + k, k, 0, weak[0].round + 1): a for k, a in enumerate(answers)}
    with FakeOpenAIServer(lambda body: by_seed[body["seed"]]) as srv:
        teacher = get_model("openai/teacher", api_base=srv.url, max_retries=0, extra={"cache": False})
        rows, cands = rejection_rows(weak, {task.id: task}, teacher, engine, k=4, tau=5.0, stage=2,
                                     source="openai/teacher", seed=11, concurrency=4)
        assert sorted(r["seed"] for r in srv.requests) == sorted(by_seed)
    assert [c.reason for c in cands] == [KEPT, "model_error", NOT_BEST, NOT_BEST]
    assert cands[0].gain == cands[3].gain  # a tie on gain keeps the earliest sample
    assert len(rows) == 1 and rows[0].meta["candidate"] == "k0" and rows[0].stage == 2


# -- config and CLI ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["stage0.yaml", "stage1.yaml", "stage2.yaml", "stage1_tiny_cpu.yaml",
                                  "tiny_cpu_ecov.yaml"])
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
    with pytest.raises(ConfigError, match="recipe"):
        config_from_dict({**base, "recipe": "paper"})
    with pytest.raises(ConfigError, match="fraction"):  # 10 points must be written 0.1
        config_from_dict({**base, "selection": {"spread": 10}})
    with pytest.raises(ConfigError, match="rollouts.agent"):
        config_from_dict({**base, "rollouts": {"agent": {"max_rounds": 9}}})
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
    cfg["curation"].update(contamination={}, length={})  # no evaluation set or Qwen tokenizer offline
    path = tmp_path / "stage0.yaml"
    path.write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(main, ["synth", "--config", str(path)])
    assert res.exit_code == 0, res.output
    out = tmp_path / "stage0"
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    cur = json.loads((out / "curation.json").read_text())
    # The paper's stage 0 (on by default): every answer here reaches 50% and improves, the design is short,
    # so 1/3 of the 2 direct rows (1) and 1/2 of the 1 agentic row (1, half up) are kept.
    assert cur["dropped_by_reason"] == {"parse_error": 1, "rebalance_short": 1}
    assert cur["stage0"]["after_filters"] == {"direct": 2, "agentic": 1}
    assert cur["stage0"]["after_rebalance"] == {"direct": 1, "agentic": 1} == cur["stage0"]["after_mix"]
    assert len(rows) == 2
    # Targets are canonical: one `filename:` line and one code block, the prose gone.
    for r in rows:
        text = r["completion"][0]["content"]
        assert text.startswith("filename: ") and text.count("```") == 2 and text.endswith("```")
    # Without the stage-0 recipe every compiled round is a row (as before the paper's filters).
    cfg["stage0"] = {"enabled": False}
    path.write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(main, ["synth", "--config", str(path)])
    assert res.exit_code == 0, res.output
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


# -- the released recipe (recipe: llm4cov): each rule on constructed cases ------------------------------

def _direct(task: str, sample: int, cov: float, status: str = OK, passed: bool = False) -> State:
    return State(task, sample, 0, f"tb {task} {sample}", "fb", cov, status, passed, "runs/direct")


def test_released_selection_fail_worst_median():
    from ecov.trainers.selection import select_released, select_states_llm4cov

    def pick(entries, **kw):
        return [(s.sample, s.selected_as) for s in select_released(entries, **kw)]

    # a: two failures (the first is taken), spread 70 - 20 = 0.5 > 0.1: worst and the median of {20, 50, 70, 90}.
    a = [_direct("a", 0, 50), _direct("a", 1, 0, COMPILE_ERROR), _direct("a", 2, 20), _direct("a", 3, 0, "timeout"),
         _direct("a", 4, 90), _direct("a", 5, 70), _direct("a", 6, 100)]  # 100% is never a candidate
    assert pick(a) == [(1, "xrun_fail"), (2, "worst"), (0, "median")]
    # Without --prioritize-worst the median comes first (the script's CLI default).
    assert pick(a, prioritize_worst=False) == [(1, "xrun_fail"), (0, "median"), (2, "worst")]
    # b: spread 59.9 - 50 = 0.099 is not > 0.1 (coverage is a fraction there): worst only.
    b = [_direct("b", 0, 50.0), _direct("b", 1, 59.9), _direct("b", 2, 80.0)]
    assert pick(b) == [(0, "worst")] and pick(b, spread=0.05) == [(0, "worst"), (1, "median")]
    # Ties on coverage go to the lowest sample; the median is over DISTINCT coverages.
    c = [_direct("c", 3, 10), _direct("c", 1, 10), _direct("c", 2, 40), _direct("c", 0, 40), _direct("c", 4, 80)]
    assert pick(c) == [(1, "worst"), (0, "median")]
    # Only failures, or only 100%: the failure alone, or nothing.
    assert pick([_direct("d", 0, 0, COMPILE_ERROR), _direct("d", 1, 100)]) == [(0, "xrun_fail")]
    # Ablations: best = highest (ran, passed, overall) below 100%; random is seeded.
    every = a + b + c
    best = select_states_llm4cov(every, "best")
    assert [(s.task_id, s.sample) for s in best] == [("a", 4), ("b", 2), ("c", 4)]
    r1 = select_states_llm4cov(every, "random", per_task=2, seed=3)
    assert len(r1) == 6 and all(s.coverage < 100 for s in r1) and {s.selected_as for s in r1} == {"random"}
    assert [s.key for s in r1] == [s.key for s in select_states_llm4cov(every, "random", per_task=2, seed=3)]


def _res(status: str = OK, line: float = 50, branch: float = 50, toggle: float = 50, expr: float = 100):
    from ecov.harness.core.records import ScoreResult

    if status not in (OK, "no_finish"):
        return ScoreResult(status=status, instance="uut", errors=["%Error: boom"])
    figs = {"line": line, "branch": branch, "toggle": toggle, "expr": expr}
    overall = round(sum(figs.values()) / 4, 2)
    cov = {m: {"covered": int(v), "total": 100, "percent": v} for m, v in {**figs, "overall": overall}.items()}
    return ScoreResult(status=status, instance="uut", coverage={"uut": cov}, overall=overall)


def _rollout(task: str, sample: int, results: list, rep: int = 0):
    from ecov.harness.core.run_folder import RoundRecord
    from ecov.trainers.rollouts import Rollout

    rounds = []
    for r, res in enumerate(results):
        tb = "" if res is None else f"tb {task} {sample} {r}"
        res = res or (rounds[-1].score() if rounds else _res(COMPILE_ERROR))
        rounds.append(RoundRecord(task, sample, r, "h", f"answer {r}", tb, "" if tb else "no code", "fb", res.to_dict(),
                                  False, messages=[{"role": "user", "content": f"state before round {r}"}]))
    return Rollout(_direct(task, sample, rounds[0].score().overall), rep, sample, rounds)


def test_released_rejection_rules_and_one_row_per_task():
    from ecov.trainers.improvement import keep_best, rows_from, transitions

    ros = [
        # a, rollout 0: overall +2.5 points but branch falls 60 -> 50: rejected though overall rose.
        _rollout("a", 0, [_res(line=50, branch=60, toggle=40), _res(line=50, branch=50, toggle=60)]),
        # a, rollout 1: a compile failure fixed with a tiny coverage (0.25% overall): kept at any gain ...
        # ... then +0.5 points (not above 0.01), then +6.25 points with no metric down.
        _rollout("a", 1, [_res(COMPILE_ERROR), _res(line=0, branch=0, toggle=1, expr=0),
                          _res(line=0, branch=0, toggle=3, expr=0), _res(line=25, branch=0, toggle=3, expr=0)]),
        # b: a parse failure, a run that does not compile, then a fix after it (prev = the failed round).
        _rollout("b", 2, [_res(line=10), None, _res(COMPILE_ERROR), _res(line=30)]),
    ]
    trans = transitions(ros, threshold=0.01)
    got = [(t.task_id, t.sample, t.round, t.reason, t.fixed) for t in trans]
    assert got == [("a", 0, 1, "metric_decreased", False),
                   ("a", 1, 1, "", True), ("a", 1, 2, "gain_not_above_threshold", False), ("a", 1, 3, "", False),
                   ("b", 2, 1, "parse_error", False), ("b", 2, 2, "no_coverage", False), ("b", 2, 3, "", True)]
    assert "branch 60.00 -> 50.00" in trans[0].detail and trans[0].overall > ros[0].rounds[0].score().overall
    assert trans[1].gain == 0.0025  # the fix: gain counted from 0
    kept = keep_best(trans, per="task")
    # One row per task: the largest gain (a: the +6.25 round beats the +0.25 fix; b: its only candidate).
    assert [(t.task_id, t.round) for t in kept] == [("a", 3), ("b", 3)]
    assert [t.reason for t in trans if t.task_id == "a"] == ["metric_decreased", "not_best",
                                                             "gain_not_above_threshold", "kept"]
    assert len(keep_best(transitions(ros), per="state")) == 2  # per state: one for each rollout start with a pass
    rows, _ = rows_from(kept, stage=1, source="teacher")
    assert [r.prompt for r in rows] == [[{"role": "user", "content": "state before round 3"}]] * 2
    assert rows[1].meta["fixed"] and rows[1].state["status"] == COMPILE_ERROR
    # threshold is a fraction: 0.0625 gain passes 0.06 but not 0.07.
    assert keep_best(transitions(ros[1:2], threshold=0.06))[0].round == 3
    assert [t.round for t in keep_best(transitions(ros[1:2], threshold=0.07))] == [1]  # only the fix is left


def test_contamination_drops_an_overlapping_design():
    from ecov.harness.benchmark.store import load_benchmark
    from ecov.trainers.contamination import ContaminationIndex
    from ecov.trainers.curate import Curation, drop_contaminated

    suite = {t.id: t for t in load_benchmark("ecov-embedded")}
    fifo = next(t for t in suite.values() if t.id.endswith("sync_fifo"))
    clean = next(t for t in suite.values() if t.id.endswith("prio_encoder"))  # small: the test stays cheap
    eval_tasks = [t for t in suite.values() if t is not clean]
    # A training design that is the FIFO lightly edited (renamed module, a comment): ROUGE-L well above 0.5.
    from dataclasses import replace

    edited = [replace(f, name="fifo_copy.sv", content="// a copy\n" + f.content.replace(fifo.dut_module, "fifo_copy"))
              for f in fifo.rtl_files]
    copy = replace(fifo, id="train/fifo_copy", rtl_files=edited, spec_files=[], dut_module="fifo_copy")
    listed = replace(clean, id="train/listed")
    train = {t.id: t for t in (copy, clean, make_task(), listed)}
    index = ContaminationIndex(eval_tasks, threshold=0.6, files="rtl", ids=["train/listed"])
    cur = Curation(kept=[Row(t, 1, [], "x", {"key": t}, "s", {}) for t in train])
    drop_contaminated(cur, train, index)
    assert sorted(r.task_id for r in cur.kept) == sorted([clean.id, "trainertest/cnt"])
    why = {d.task_id: d for d in cur.dropped}
    assert why["train/fifo_copy"].reason == "contamination_rouge" and fifo.id in why["train/fifo_copy"].detail
    assert why["train/listed"].reason == "contamination_id"
    hit = index.match(copy)
    assert hit.by == "rougeL" and 0.9 < hit.score <= 1.0
    # An evaluation task's own id is contamination by id, whatever its text.
    assert index.match(replace(make_task(), id=fifo.id)).by == "id"


def test_resample_proportional_as_released_and_equal():
    from ecov.trainers.resample import resample

    rows = [Row("t", 1, [], f"{src}{i}", {"source": src}, "m", {}) for src, n in (("a", 6), ("b", 2)) for i in range(n)]
    assert resample(rows).rows == rows  # total -1: as is
    down = resample(rows, total=4)
    assert down.after == {"a": 3, "b": 1} and len(down.rows) == 4  # shares kept: 6:2 -> 3:1
    up = resample(rows, total=12)
    assert up.after == {"a": 9, "b": 3}
    assert sorted(r.response for r in up.rows if r.state["source"] == "b").count("b0") >= 1
    assert [r.response for r in resample(rows, total=4).rows] == [r.response for r in down.rows]  # seeded
    assert resample(rows, total=4, mode="equal").after == {"a": 2, "b": 2}


def test_rules_injection_is_stripped_from_rows():
    from ecov.trainers.inject import EXPERT_RULES, inject_rules, strip_rules

    task = inject_rules(make_task())
    msgs = eval_prompt(task)
    assert any(EXPERT_RULES in m["content"] for m in msgs)
    clean, n = strip_rules(msgs)
    assert n == 1 and clean == eval_prompt(make_task())
    # Instructions ending in a newline (the ecov-train corpus's) are stripped by the prompt; the rules,
    # appended after that newline, must go with the blank line they leave (every stage-0 row warned).
    for proto in ("llm4cov", "ecov"):
        ended = replace(make_task(), instructions=make_task().instructions + "\n")
        io = tb_io(get_protocol(proto), None)
        clean, n = strip_rules(io.messages(inject_rules(ended), None, None))
        assert n == 1 and clean == io.messages(ended, None, None), proto


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    try:
        yield record_direct_run(tmp_path_factory.mktemp("direct"), mp)
    finally:
        mp.undo()


def test_direct_states_and_agentic_runs_refused(direct, student):
    from ecov.trainers.selection import NotDirectRun, direct_states, select_states_llm4cov

    task, run, _ = direct
    states, stats = direct_states(run, {task.id: task})
    assert stats.samples == 4 and [s.status for s in states] == [COMPILE_ERROR, OK, OK, OK]
    assert [s.response for s in states] == DIRECT_SCRIPT
    picked = select_states_llm4cov(states)
    # MID is 0.0994 above WEAK: not > 0.1, so no median.
    assert [(s.sample, s.selected_as) for s in picked] == [(0, "xrun_fail"), (1, "worst")]
    with pytest.raises(NotDirectRun, match="--mode direct"):
        direct_states(student[1], {task.id: task})


def test_cli_stage_ecov_recipe_without_sft(student, tmp_path, monkeypatch):
    """recipe: ecov (worst-state sampling, K revisions, tau) still runs end to end through the CLI."""
    task, run, tasks_path = student
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    cfg = yaml.safe_load((CONFIGS / "tiny_cpu_ecov.yaml").read_text())
    cfg.update(output_dir=str(tmp_path / "out"), sources=[str(run.root)], tasks={"path": str(tasks_path)})
    with FakeOpenAIServer(list(TEACHER_SCRIPT)) as srv:
        cfg["rejection"]["reviser"]["api_base"] = srv.url
        (tmp_path / "c.yaml").write_text(yaml.safe_dump(cfg))
        res = CliRunner().invoke(main, ["stage", "--config", str(tmp_path / "c.yaml"), "--no-sft"])
    assert res.exit_code == 0, res.output + repr(res.exception)
    cands = [json.loads(x) for x in (tmp_path / "out" / "rejection.jsonl").read_text().splitlines()]
    assert [c["reason"] for c in cands] == [PARSE_ERROR, COMPILE_ERROR, BELOW_TAU, NOT_BEST, KEPT]
    card = (tmp_path / "out" / "dataset" / "README.md").read_text()
    assert "K = 5 single-step revisions" in card and "| rows in the dataset | 1 |" in card
    # The llm4cov recipe refuses an agentic run as its source, with a usage error.
    cfg.update(recipe="llm4cov")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(main, ["synth", "--config", str(tmp_path / "c.yaml")])
    assert res.exit_code == 2 and "--mode direct" in res.output
