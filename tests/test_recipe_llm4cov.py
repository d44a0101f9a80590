"""The paper's recipe pieces: stage-0 filters, rebalancing and mix; SFT batch/length; rules injected at
generation time through `ecov-eval --instructions-suffix` and absent from every stored row."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from ecov.harness.cli.eval import eval_cmd as eval_main
from ecov.harness.core.records import SourceFile
from ecov.harness.tasks import Task
from ecov.trainers.cli import main as train_main
from ecov.trainers.config import SFTConfig, Stage0Config, config_from_dict
from ecov.trainers.curate import Curation
from ecov.trainers.inject import EXPERT_RULES
from ecov.trainers.pipeline import CONFIGS, Pipeline, load_pipeline
from ecov.trainers.sft import accumulation_steps
from ecov.trainers.stage0_recipe import apply_stage0, keep_reason
from ecov.trainers.synth import Row


def _row(tid: str, rnd: int, cov: float, prev: float = 0.0, gain: float | None = None, i: int = 0) -> Row:
    return Row(tid, 0, [{"role": "user", "content": f"p{i}"}], f"r{i}", {"key": f"{tid}#{i}", "round": rnd,
                                                                           "coverage": prev},
               "run", {"coverage": cov, "gain": cov - prev if gain is None else gain, "status": "ok"})


def _task(tid: str, difficulty: str) -> Task:
    return Task(tid, "t", [SourceFile("d.sv", "module m; endmodule")], [], "m", "dut", "", [], difficulty)


def test_stage0_filters_follow_the_paper_and_the_released_rule():
    # Absolute bound: 50% for every row.
    assert keep_reason(_row("a", -1, 49.99), 1.0, 50.0)[0] == "below_min_coverage"
    assert keep_reason(_row("a", -1, 50.0), 1.0, 50.0) == ("", "")
    # Agentic rows improve by MORE than 1 point (released: curr > prev + 0.01), unless the previous state
    # had no coverage (a fix).
    assert keep_reason(_row("a", 1, 61.0, prev=60.0), 1.0, 50.0)[0] == "below_min_gain"
    assert keep_reason(_row("a", 1, 61.01, prev=60.0), 1.0, 50.0) == ("", "")
    assert keep_reason(_row("a", 1, 55.0, prev=0.0), 1.0, 50.0) == ("", "")


def test_stage0_rebalances_short_designs_and_caps_the_mix():
    tasks = {"s": _task("s", "short"), "l": _task("l", "long")}
    rows = [_row("s", -1, 80, i=i) for i in range(9)] + [_row("l", -1, 80, i=10 + i) for i in range(3)]
    rows += [_row("s", 1, 80, prev=10, i=20 + i) for i in range(4)] + [_row("l", 1, 80, prev=10, i=30 + i)
                                                                       for i in range(2)]
    rows.append(_row("l", 1, 40, prev=10, i=99))  # under 50%
    cur = Curation(kept=list(rows))
    rep = apply_stage0(cur, tasks, Stage0Config(mix={"direct": 5, "agentic": -1}))
    assert rep.after_filters == {"direct": 12, "agentic": 6}
    # 1/3 of 9 short direct rows (3) + 3 long; 1/2 of 4 short agentic rows (2) + 2 long.
    assert rep.after_rebalance == {"direct": 6, "agentic": 4}
    assert rep.after_mix == {"direct": 5, "agentic": 4}
    reasons = [d.reason for d in cur.dropped]
    assert reasons.count("below_min_coverage") == 1 and reasons.count("rebalance_short") == 8
    assert reasons.count("mix_cap") == 1
    assert all(r.task_id == "l" for r in cur.kept if r.state["round"] >= 0 and r.meta["coverage"] < 50) is True
    # Long designs are never thinned by the rebalancing.
    assert sum(1 for r in cur.kept if r.task_id == "l" and r.state["round"] >= 0) == 2
    again = Curation(kept=list(rows))
    apply_stage0(again, tasks, Stage0Config(mix={"direct": 5, "agentic": -1}))
    assert [r.key for r in again.kept] == [r.key for r in cur.kept]  # seeded: the same rows every time


def test_effective_batch_of_24_on_1_4_8_gpus():
    cfg = SFTConfig(per_device_batch_size=1, effective_batch_size=24)
    assert [accumulation_steps(cfg, n) for n in (1, 4, 8)] == [24, 6, 3]
    with pytest.raises(ValueError, match="multiple"):
        accumulation_steps(cfg, 5)
    assert accumulation_steps(SFTConfig(effective_batch_size=0, gradient_accumulation_steps=7)) == 7


def test_rules_reach_the_teacher_and_never_a_row(tmp_path):
    rules = tmp_path / "rules.txt"
    assert CliRunner().invoke(train_main, ["rules", "--out", str(rules)]).exit_code == 0
    assert rules.read_text().strip() == EXPERT_RULES and EXPERT_RULES.count("\n1") >= 3  # items 1, 10, 11, 12
    run = tmp_path / "teacher"
    res = CliRunner().invoke(eval_main, ["--model", "builtin/reference", "--mode", "direct", "--task-id", "alu_flags",
                                         "--instructions-suffix", str(rules), "--out", str(run), "--no-progress"])
    assert res.exit_code == 0, res.output
    sent = [json.loads(line) for line in (run / "rounds.jsonl").read_text().splitlines()]
    assert EXPERT_RULES in sent[0]["messages"][-1]["content"]
    assert json.loads((run / "config.json").read_text())["extra"]["instructions_suffix"]["sha256"]

    cfg = {"stage": 0, "recipe": "llm4cov", "output_dir": str(tmp_path / "s0"), "student": {"base": "x"},
           "tasks": {"benchmark": "ecov-embedded", "split": "test"}, "sources": [str(run)],
           "curation": {"require": "compile"}, "stage0": {"min_coverage": 0.0, "keep_short": {"direct": 1.0}}}
    (tmp_path / "s0.yaml").write_text(yaml.safe_dump(cfg))
    res = CliRunner().invoke(train_main, ["synth", "--config", str(tmp_path / "s0.yaml")])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (tmp_path / "s0" / "rows.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and "generation_rules" not in json.dumps(rows[0])
    synth = json.loads((tmp_path / "s0" / "synth.json").read_text())
    stats = next(iter(synth["runs"].values()))
    # The rebuilt prompt (no rules) equals what was sent once the rules are taken out.
    assert stats["prompt_checked"] == 1 and stats["prompt_mismatch"] == 0


@pytest.mark.parametrize("name", ["pipeline.yaml", "pipeline_tiny_cpu.yaml", "pipeline_gpu_smoke.yaml"])
def test_shipped_pipeline_configs_load_and_stage_configs_resolve(name, tmp_path):
    cfg = load_pipeline(CONFIGS / name)
    assert cfg.stage_list == [0, 1, 2] and cfg.final_eval.n >= 1
    p = Pipeline(cfg)
    for stage in (0, 1, 2):
        c = config_from_dict(p._stage_config(stage, tmp_path, ["runs/x"], "ckpt", "build/t", None))
        assert c.sft.epochs == 1 and (c.sft.learning_rate == 1e-5 or name != "pipeline.yaml")
        if name == "pipeline.yaml":
            assert c.sft.effective_batch_size == 24 and c.sft.max_length == 0
