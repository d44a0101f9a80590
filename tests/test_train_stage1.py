"""Stage 1 end to end on the CPU with the released LLM4Cov rules, through `ecov-train stage --config
trainers/configs/stage1_tiny_cpu.yaml`:

a recorded `ecov-eval --mode direct -n 4` run of a scripted "student" -> selection (xrun_fail, worst;
no median: the spread is 0.0994, not > 0.1) -> 2 rollouts x 2 rounds per state by a scripted
OpenAI-compatible "teacher" on 127.0.0.1, through ecov.harness.loop.agent.run_sample and the real engine -> the
released rejection rule (fix kept, per-metric decrease rejected, one row per task) -> curation,
contamination against the embedded suite, token-length limit -> dataset/ (parquet + card) -> a few real
SFT steps (trl SFTTrainer) on a tiny random model whose tokenizer is trained here on the task's text.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fake_openai import FakeOpenAIServer
from test_trainers import (
    CONFIGS,
    GOOD,
    MID,
    ROLLOUT_SCRIPT,
    SYNTAX_BAD,
    WEAK,
    eval_prompt,
    full,
    make_task,
    record_direct_run,
)

from ecov.harness.tracks.sv.prompts import build_messages
from ecov.trainers.canonical import canonical_text
from ecov.trainers.cli import main

pytest.importorskip("trl")
pytest.importorskip("peft")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

pytestmark = pytest.mark.train

SPECIALS = ["<|pad|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_tiny_model(path: Path, texts: list[str]) -> None:
    """A 2-layer, 32-wide Llama with random weights and a byte-level BPE tokenizer trained on ``texts``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(
        vocab_size=600, special_tokens=SPECIALS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<|pad|>", eos_token="<|im_end|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(path)
    config = LlamaConfig(vocab_size=len(fast), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=8192,
                         pad_token_id=fast.pad_token_id, eos_token_id=fast.eos_token_id, bos_token_id=None,
                         tie_word_embeddings=True)
    torch.manual_seed(0)
    LlamaForCausalLM(config).save_pretrained(path)


@pytest.fixture(scope="module")
def stage1(tmp_path_factory):
    root = tmp_path_factory.mktemp("stage1")
    mp = pytest.MonkeyPatch()
    try:
        task, run, tasks_path = record_direct_run(root, mp)
        texts = [m["content"] for m in build_messages(task, WEAK, "feedback")] + [full(t) for t in (GOOD, MID)]
        build_tiny_model(root / "tiny-model", texts)
        cfg = yaml.safe_load((CONFIGS / "stage1_tiny_cpu.yaml").read_text())
        assert cfg["recipe"] == "llm4cov"
        cfg["tasks"] = {"path": str(tasks_path)}
        cfg["sources"] = [str(run.root)]
        cfg["student"]["init"] = str(root / "tiny-model")
        cfg["output_dir"] = str(root / "out")
        with FakeOpenAIServer(list(ROLLOUT_SCRIPT)) as srv:
            cfg["rejection"]["reviser"]["api_base"] = srv.url
            (root / "stage1.yaml").write_text(yaml.safe_dump(cfg))
            res = CliRunner().invoke(main, ["stage", "--config", str(root / "stage1.yaml")])
            teacher_requests = list(srv.requests)
        yield root, cfg, res, teacher_requests, task, run
    finally:
        mp.undo()


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_stage1_end_to_end(stage1):
    root, cfg, res, teacher_requests, task, run = stage1
    assert res.exit_code == 0, res.output + repr(res.exception)
    out = root / "out"

    # Selection from the direct-inference run: the compile failure and the worst; MID is only 0.0994
    # (a fraction, as released) above WEAK, not > 0.1, so no median.
    states = _jsonl(out / "states.jsonl")
    assert [(s["sample"], s["status"], s["coverage"]) for s in states][:2] == [(0, "compile_error", 0.0),
                                                                               (1, "ok", 52.88)]
    assert [(s["sample"], s["selected_as"]) for s in states if s["selected"]] == [(0, "xrun_fail"), (1, "worst")]

    # Rollouts: 2 states x 2 repetitions x up to 2 teacher rounds, through the evaluation's agent. The
    # first request of a rollout is the evaluation prompt of the selected state with the feedback the
    # direct run rendered for it.
    assert len(teacher_requests) == 8
    direct = {r.sample: r for r in run.rounds()}
    assert teacher_requests[0]["messages"] == eval_prompt(task, SYNTAX_BAD, direct[0].feedback)
    assert teacher_requests[4]["messages"] == eval_prompt(task, WEAK, direct[1].feedback)
    from ecov.harness.core.run_folder import RunFolder

    rollouts = RunFolder(out / "rollouts")
    assert rollouts.read_config().max_rounds == 3 and len(rollouts.samples()) == 4
    recorded = [r for r in rollouts.rounds() if r.round > 0]
    assert [r.messages for r in recorded] == [r["messages"] for r in teacher_requests]

    # The released rejection rule, round by round (rejection.jsonl), and one row for the task.
    trans = _jsonl(out / "rejection.jsonl")
    assert [(t["rep"], t["round"], t["reason"]) for t in trans] == [
        (0, 1, "not_best"), (0, 2, "not_best"),  # a fix (+0.5288), then +0.0994
        (1, 1, "no_coverage"), (1, 2, "kept"),  # still failing, then a fix to GOOD: the largest gain
        (0, 1, "not_best"), (0, 2, "metric_decreased"),  # +0.0994, then +0.0256 with branch 66.67 -> 50
        (1, 1, "parse_error"), (1, 2, "gain_not_above_threshold"),  # no code, then no gain
    ]
    assert "branch 66.67 -> 50.00" in trans[5]["detail"] and trans[5]["overall"] > trans[4]["overall"]
    assert trans[3]["fixed"] and trans[3]["gain"] == 0.9711
    rows = _jsonl(out / "rows.jsonl")
    assert len(rows) == 1 and rows[0]["stage"] == 1
    # The target is canonical, as the released code trains: the `filename:` line and one code block.
    assert rows[0]["completion"] == [{"role": "assistant", "content": canonical_text("tb.sv", GOOD)}]
    assert rows[0]["meta"]["canonical"] is True
    assert rows[0]["prompt"] == recorded[3].messages and SYNTAX_BAD in rows[0]["prompt"][-1]["content"]

    # The dataset: parquet that datasets loads, a manifest publish recognizes, a card with every rule.
    from datasets import load_dataset

    ds = load_dataset("parquet", data_files=str(out / "dataset" / "data" / "train.parquet"), split="train")
    assert ds.num_rows == 1 and ds[0]["prompt"] == rows[0]["prompt"]
    assert json.loads((out / "dataset" / "manifest.json").read_text())["kind"] == "ecov-train-rows"
    card = (out / "dataset" / "README.md").read_text()
    for source_file in ("select_direct_infer_samples.py", "batch_query_agentic_round.py", "prompt_inject.py",
                        "filter_invalid_rows", "has_absolute_improvement", "parse_dataframe",
                        "_strip_prompt_injection_messages", "data_contamination_detect.py", "CONTAMINATION_IDS"):
        assert source_file in card, source_file
    assert "| rows in the dataset | 1 |" in card and "metric_decreased 1" in card
    assert "rows kept after contamination filter (16 evaluation tasks) | 1 |" in card
    from ecov.harness.cli.data import main as data_main

    pub = CliRunner().invoke(data_main, ["publish", str(out / "dataset"), "--repo-id", "me/rows", "--dry-run"])
    assert pub.exit_code == 0 and pub.output.strip() == card.strip()
    from test_dataset import FakeHub  # a local stand-in for the hub's create/preupload/commit endpoints

    hub = FakeHub()
    try:
        pub = CliRunner().invoke(data_main, ["publish", str(out / "dataset"), "--repo-id", "me/rows",
                                             "--endpoint", hub.url, "--token", "hf_test"])
    finally:
        hub.shutdown()
    assert pub.exit_code == 0, pub.output
    assert sorted(hub.files) == ["README.md", "data/train.parquet", "manifest.json"]
    assert hub.files["README.md"].decode() == card

    # SFT: every step's loss recorded and finite, a loadable checkpoint that differs from the start.
    log = _jsonl(out / "train_log.jsonl")
    assert [e["step"] for e in log] == [1, 2, 3]
    assert all(math.isfinite(e["loss"]) and e["loss"] > 0 for e in log)
    summary = json.loads((out / "stage.json").read_text())
    assert summary["rows"] == 1 and summary["sft"]["steps"] == 3
    assert summary["sft"]["final_loss"] == log[-1]["loss"]
    from transformers import AutoModelForCausalLM

    start = AutoModelForCausalLM.from_pretrained(cfg["student"]["init"])
    trained = AutoModelForCausalLM.from_pretrained(out / "final")
    assert any(not torch.equal(a, b) for a, b in zip(start.parameters(), trained.parameters(), strict=True))

    # A rerun resumes: every rollout is in rollouts/, so the teacher is not asked again.
    with FakeOpenAIServer([]) as srv:
        again = yaml.safe_load((root / "stage1.yaml").read_text())
        again["rejection"]["reviser"]["api_base"] = srv.url
        (root / "again.yaml").write_text(yaml.safe_dump(again))
        r2 = CliRunner().invoke(main, ["synth", "--config", str(root / "again.yaml")])
        assert r2.exit_code == 0, r2.output
        assert not srv.requests
    assert _jsonl(out / "rows.jsonl") == rows


def test_completion_only_loss_masks_the_prompt(stage1):
    """The loss covers the response only: trl's completion mask is 0 over the whole prompt."""
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    root, cfg, res, *_ = stage1
    assert res.exit_code == 0, res.output
    rows = _jsonl(root / "out" / "rows.jsonl")
    tok = AutoTokenizer.from_pretrained(cfg["student"]["init"])
    ds = Dataset.from_list([{"prompt": rows[0]["prompt"], "completion": rows[0]["completion"]}])
    trainer = SFTTrainer(model=cfg["student"]["init"], processing_class=tok, train_dataset=ds,
                         args=SFTConfig(output_dir=str(root / "mask"), max_length=8192, report_to="none",
                                        completion_only_loss=True, use_cpu=True))
    ex = trainer.train_dataset[0]
    prompt_ids = tok.apply_chat_template(rows[0]["prompt"], add_generation_prompt=True, tokenize=True)
    if hasattr(prompt_ids, "keys"):
        prompt_ids = prompt_ids["input_ids"]
    n_prompt = len(prompt_ids)
    assert ex["input_ids"][:n_prompt] == prompt_ids
    # trl builds -100 labels from its completion mask (older trl keeps the mask itself).
    mask = [int(v != -100) for v in ex["labels"]] if "labels" in ex else ex["completion_mask"]
    assert set(mask[:n_prompt]) == {0} and set(mask[n_prompt:]) == {1}
    response_ids = ex["input_ids"][n_prompt:]
    assert tok.decode(response_ids).startswith(canonical_text("tb.sv", GOOD)[:40])


def test_sft_lora_and_stage_guard(stage1, tmp_path):
    root, cfg, res, *_ = stage1
    assert res.exit_code == 0, res.output
    # Stage-1 rows given to a stage-2 SFT: refused (stages are never mixed).
    cfg2 = json.loads(json.dumps(cfg))
    cfg2.update(stage=2, output_dir=str(tmp_path / "s2"))
    (tmp_path / "s2.yaml").write_text(yaml.safe_dump(cfg2))
    r = CliRunner().invoke(main, ["sft", "--config", str(tmp_path / "s2.yaml"),
                                  "--rows", str(root / "out" / "rows.jsonl")])
    assert r.exit_code == 2 and "stage" in r.output
    # LoRA through peft: adapter saved, merged model saved as final/.
    cfg1 = json.loads(json.dumps(cfg))
    cfg1["output_dir"] = str(tmp_path / "lora")
    cfg1["sft"].update(max_steps=2, lora={"enabled": True, "r": 4, "alpha": 8, "dropout": 0.0})
    (tmp_path / "lora.yaml").write_text(yaml.safe_dump(cfg1))
    r = CliRunner().invoke(main, ["sft", "--config", str(tmp_path / "lora.yaml"),
                                  "--rows", str(root / "out" / "rows.jsonl")])
    assert r.exit_code == 0, r.output + repr(r.exception)
    out = tmp_path / "lora"
    assert (out / "adapter" / "adapter_config.json").is_file()
    assert (out / "final" / "config.json").is_file() and not (out / "final" / "adapter_config.json").exists()
    log = _jsonl(out / "train_log.jsonl")
    assert [e["step"] for e in log] == [1, 2] and all(math.isfinite(e["loss"]) for e in log)
    from transformers import AutoModelForCausalLM

    AutoModelForCausalLM.from_pretrained(out / "final")
    assert make_task().id in json.dumps(_jsonl(root / "out" / "rows.jsonl"))
