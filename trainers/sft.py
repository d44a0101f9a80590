"""Supervised fine-tuning on curated rows with trl's SFTTrainer, loss on the response only.

Rows are conversational prompt-completion pairs (``prompt`` = the evaluation chat, ``completion`` =
the assistant answer). trl renders both with the model's chat template and masks the prompt tokens
(``completion_only_loss``), which needs no generation tags in the template, unlike
``assistant_only_loss``. Rows longer than ``max_length`` are dropped and counted rather than
truncated: truncation keeps the start, which is the prompt, and would cut the answer being learned.

torch, transformers, trl and peft are imported inside functions: they are the ``[train]`` extra, and
the rest of trainers/ (synthesis, sampling, rejection, curation) runs without them.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ecov.trainers.config import SFTConfig
from ecov.trainers.synth import Row


class MixedStagesError(ValueError):
    """Rows of another stage were given to a stage's SFT: each stage trains on its own data only."""


@dataclass
class TrainSummary:
    start_from: str
    checkpoint: str
    rows: int
    rows_too_long: int
    steps: int
    losses: list[dict[str, float]] = field(default_factory=list)  # {"step", "loss", ...} per logged step
    device: str = "cpu"
    train_seconds: float = 0.0  # trainer.train(), model loading and saving excluded
    save_seconds: float = 0.0  # writing final/ (the FSDP gather included)
    peak_gpu_gib: float = 0.0  # torch.cuda.max_memory_allocated on rank 0 (0 on CPU)
    max_length: int = 0  # the context trained at (the longest row when sft.max_length is 0)
    processes: int = 1
    distributed: str = ""  # accelerate's distributed type, and FSDP's sharding as the wrapped model has it
    parameters: int = 0

    @property
    def final_loss(self) -> float | None:
        return self.losses[-1]["loss"] if self.losses else None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["final_loss"] = self.final_loss
        return d


def check_single_stage(rows: list[Row], stage: int) -> None:
    other = sorted({r.stage for r in rows} - {stage})
    if other:
        raise MixedStagesError(f"stage {stage} SFT got rows of stage(s) {other}: each stage trains only on "
                               "its own rows, starting from the previous stage's checkpoint")


def to_records(rows: list[Row]) -> list[dict[str, Any]]:
    return [{"prompt": r.prompt, "completion": [{"role": "assistant", "content": r.response}]} for r in rows]


def token_lengths(records: list[dict[str, Any]], tokenizer) -> list[int]:
    out = []
    for rec in records:
        ids = tokenizer.apply_chat_template(rec["prompt"] + rec["completion"], tokenize=True)
        if isinstance(ids, dict) or hasattr(ids, "keys"):
            ids = ids["input_ids"]
        out.append(len(ids))
    return out


def _renamed(config_cls, new: str, old: str, value: Any) -> dict[str, Any]:
    """The option under its new name where this transformers has it, else the old one."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(config_cls)}
    return {new if new in names else old: value}


def _warmup(config_cls, ratio: float) -> dict[str, float]:
    """transformers 5 folded ``warmup_ratio`` into ``warmup_steps`` (a float < 1 is a ratio)."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(config_cls)}
    if "warmup_ratio" in names:
        return {"warmup_ratio": ratio}
    if ratio >= 1:
        raise ValueError(f"sft.warmup_ratio must be < 1, got {ratio}")
    return {"warmup_steps": ratio}


def _loss_logger(path: Path):
    from transformers import TrainerCallback

    class LossLog(TrainerCallback):
        """Append every logged training loss to train_log.jsonl as it happens."""

        def __init__(self):
            self.records: list[dict[str, float]] = []
            self.t0 = time.monotonic()
            if int(os.environ.get("RANK", "0")) == 0:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("")

        def on_train_begin(self, args, state, control, **kwargs):
            self.t0 = time.monotonic()

        def on_log(self, args, state, control, logs=None, **kwargs):
            if not logs or "loss" not in logs or not state.is_world_process_zero:
                return
            # elapsed: seconds since training began, so a step's time is the difference of two lines
            rec = {"step": int(state.global_step), "loss": float(logs["loss"]),
                   "epoch": float(logs.get("epoch") or 0.0), "elapsed": round(time.monotonic() - self.t0, 3)}
            for k in ("learning_rate", "grad_norm", "num_tokens", "mean_token_accuracy"):
                if k in logs:
                    rec[k] = float(logs[k])
            self.records.append(rec)
            with open(path, "a") as f:
                f.write(json.dumps(rec) + "\n")

    return LossLog()


def world_size() -> int:
    """Processes taking part in training (accelerate/torchrun set WORLD_SIZE; 1 when run plainly)."""
    return max(1, int(os.environ.get("WORLD_SIZE", "1")))


def accumulation_steps(cfg: SFTConfig, processes: int | None = None) -> int:
    """Gradient accumulation that makes ``effective_batch_size`` rows per optimizer step on this many
    processes (paper: 24 = 1 row x 6 steps x 4 GPUs); ``gradient_accumulation_steps`` when it is 0."""
    if not cfg.effective_batch_size:
        return cfg.gradient_accumulation_steps
    per_step = cfg.per_device_batch_size * (processes or world_size())
    if cfg.effective_batch_size % per_step:
        raise ValueError(f"sft.effective_batch_size {cfg.effective_batch_size} is not a multiple of "
                         f"per_device_batch_size x processes = {per_step}")
    return cfg.effective_batch_size // per_step


def train(rows: list[Row], cfg: SFTConfig, start_from: str, out_dir: str | Path, stage: int,
          log=print) -> TrainSummary:
    """Fine-tune ``start_from`` (a model id or checkpoint folder) on ``rows``; write under ``out_dir``:
    checkpoints/ (trainer checkpoints), final/ (model + tokenizer; merged when LoRA), adapter/ (LoRA
    only), train_log.jsonl (loss per logged step) and train_summary.json."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig as TrlSFTConfig
    from trl import SFTTrainer

    check_single_stage(rows, stage)
    if not rows:
        raise ValueError("no rows to train on (did curation or rejection keep nothing?)")
    out = Path(out_dir)
    tokenizer = AutoTokenizer.from_pretrained(start_from)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if not getattr(tokenizer, "chat_template", None):
        raise ValueError(f"{start_from}: the tokenizer has no chat template, so prompts cannot be rendered "
                         "the way evaluation renders them")

    records = to_records(rows)
    lengths = token_lengths(records, tokenizer)
    # max_length 0: grow the context to the longest row so every row is trained on (paper, Appendix B:
    # "total context length is adapted ... to ensure all data are included, peaking at 40,960").
    max_length = cfg.max_length or max(lengths, default=1)
    kept = [r for r, n in zip(records, lengths, strict=True) if n <= max_length]
    too_long = len(records) - len(kept)
    if too_long:
        log(f"sft: dropped {too_long} of {len(records)} rows longer than max_length {max_length} tokens "
            f"(longest {max(lengths)})")
    if not kept:
        raise ValueError(f"every row is longer than sft.max_length={cfg.max_length} tokens")

    log(f"sft: {len(kept)} rows, max_length {max_length} tokens (longest row {max(lengths)}), "
        f"{cfg.per_device_batch_size} row(s) x accumulation {accumulation_steps(cfg)} x {world_size()} process(es)")
    cuda = torch.cuda.is_available()
    bf16 = bool(cfg.bf16 and cuda and torch.cuda.is_bf16_supported())
    dtype_name = cfg.model_dtype
    if dtype_name == "auto":
        dtype_name = "bfloat16" if (bf16 and cfg.lora.enabled) else "float32"
    model = AutoModelForCausalLM.from_pretrained(start_from, dtype=getattr(torch, dtype_name))

    peft_config = None
    if cfg.lora.enabled:
        from peft import LoraConfig

        peft_config = LoraConfig(r=cfg.lora.r, lora_alpha=cfg.lora.alpha, lora_dropout=cfg.lora.dropout,
                                 target_modules=cfg.lora.target_modules, task_type="CAUSAL_LM")

    args = TrlSFTConfig(
        output_dir=str(out / "checkpoints"),
        num_train_epochs=float(cfg.epochs),
        max_steps=int(cfg.max_steps),
        learning_rate=float(cfg.learning_rate),
        lr_scheduler_type=cfg.lr_scheduler,
        **_warmup(TrlSFTConfig, float(cfg.warmup_ratio)),
        weight_decay=float(cfg.weight_decay),
        per_device_train_batch_size=cfg.per_device_batch_size,
        gradient_accumulation_steps=accumulation_steps(cfg),
        **_renamed(TrlSFTConfig, "activation_checkpointing", "gradient_checkpointing",
                   bool(cfg.gradient_checkpointing)),
        bf16=bf16,
        max_length=max_length,
        completion_only_loss=True,
        packing=False,
        logging_steps=cfg.logging_steps,
        logging_first_step=True,
        save_strategy="steps" if cfg.save_steps > 0 else "no",
        save_steps=cfg.save_steps if cfg.save_steps > 0 else 500,
        report_to="none",
        seed=cfg.seed,
        use_cpu=not cuda,
        dataloader_num_workers=0,
    )
    losses = _loss_logger(out / "train_log.jsonl")
    trainer = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list(kept),
                         processing_class=tokenizer, peft_config=peft_config, callbacks=[losses])
    parameters = sum(p.numel() for p in model.parameters())
    t0 = time.monotonic()
    result = trainer.train()
    train_seconds = time.monotonic() - t0
    distributed = _distributed(trainer)
    log(f"sft: trained {int(result.global_step)} steps in {train_seconds:.1f} s ({distributed})")
    final = out / "final"
    # save_model runs on every rank (FSDP/ZeRO-3 gather the weights); the rest is rank 0's.
    if peft_config is not None:
        # Keep the adapter, and save the merged model as final/: the next stage and a vLLM server load
        # final/ like any checkpoint, and the next stage's LoRA starts from it.
        trainer.save_model(str(out / "adapter"))
        if trainer.is_world_process_zero():
            trainer.model.merge_and_unload().save_pretrained(str(final))
    else:
        trainer.save_model(str(final))
    save_seconds = time.monotonic() - t0 - train_seconds
    if not trainer.is_world_process_zero():
        _end_distributed()
        return TrainSummary(start_from, str(final), len(kept), too_long, int(result.global_step), device="cuda")
    tokenizer.save_pretrained(str(final))
    for f in final.rglob("*"):  # readable by the server that loads it, whatever mode the writer chose
        if f.is_file():
            f.chmod(0o644)
    bad = [r for r in losses.records if not math.isfinite(r["loss"])]
    if bad:
        log(f"sft: warning: {len(bad)} logged losses are not finite (first at step {bad[0]['step']})")
    summary = TrainSummary(start_from=start_from, checkpoint=str(final), rows=len(kept), rows_too_long=too_long,
                           steps=int(result.global_step), losses=losses.records, device="cuda" if cuda else "cpu",
                           train_seconds=round(train_seconds, 2), save_seconds=round(save_seconds, 2),
                           peak_gpu_gib=round(torch.cuda.max_memory_allocated() / 2**30, 2) if cuda else 0.0,
                           max_length=max_length, processes=world_size(), distributed=distributed,
                           parameters=parameters)
    (out / "train_summary.json").write_text(json.dumps(summary.to_dict(), indent=2))
    _end_distributed()
    return summary


def _distributed(trainer) -> str:
    """How the model was trained: "NO" (one plain process), "MULTI_GPU" (DDP), "FSDP FULL_SHARD" (as the
    wrapped model reports it: FSDP runs one process as NO_SHARD, there being nothing to shard across)."""
    kind = str(getattr(trainer.accelerator.state.distributed_type, "value", trainer.accelerator.state.distributed_type))
    strategy = getattr(getattr(trainer, "model_wrapped", None), "sharding_strategy", None)
    return f"{kind} {strategy.name}" if strategy is not None else kind


def _end_distributed() -> None:
    """Close the process group accelerate opened (torch warns at exit when it is left open)."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()
