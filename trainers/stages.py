"""The three stages of the recipe, each run from one config into its own output folder.

stage 0  rows = the teacher's own trajectories (every recorded response, paired with the state it
         answered), curated; SFT from the base student.
stage 1  states = the stage-0 student's states (an ecov-eval run of stage0/final on the train split),
         worst first; revisions by the teacher; coverage-guided rejection; curated; SFT from stage0/final.
stage 2  as stage 1, with the stage-1 student's states and the stage-1 student as reviser; SFT from
         stage1/final.

A stage trains on its own rows only, starting from the checkpoint in ``student.init``: stages are
never mixed. Files written under ``output_dir``:

    stage_config.json  the config as read          states.jsonl     every state, with selected/rank
    synth.json         stage 0: rows per run        rejection.jsonl  every candidate, gain, reason
    rows.raw.jsonl     rows before curation         curation.json    dropped rows and why
    rows.jsonl         the training rows            final/, checkpoints/, train_log.jsonl (SFT)
    stage.json         counts and paths of all the above
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.results import RunFolder, write_json_atomic
from trainers.config import ModelConfig, StageConfig
from trainers.curate import Curation, curate, validate_rows
from trainers.rejection import Candidate, rejection_rows
from trainers.sampling import select_states
from trainers.synth import Row, State, load_tasks, read_rows, states_from_run, trajectory_rows, write_rows


def make_engine():
    from harness.engine import Engine, EngineConfig

    return Engine(EngineConfig())


def make_reviser(cfg: ModelConfig):
    """The LiteLLM model that writes revisions (``hosted_vllm/...`` or ``openai/...`` + api_base for vLLM)."""
    from harness.models import get_model

    return get_model(cfg.model, api_base=cfg.api_base, temperature=cfg.temperature, top_p=cfg.top_p,
                     max_tokens=cfg.max_tokens, timeout=cfg.timeout, extra=None if cfg.cache else {"cache": False})


@dataclass
class SynthOutcome:
    rows: list[Row]
    curation: Curation
    states: list[State] = field(default_factory=list)
    selected: list[State] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


def _runs(cfg: StageConfig) -> list[RunFolder]:
    runs = [RunFolder(s) for s in cfg.sources]
    for r in runs:
        if not r.rounds_path.exists():
            raise FileNotFoundError(f"source {r.root} is not an ecov-eval run folder (no rounds.jsonl)")
    return runs


def synth_stage(cfg: StageConfig, *, engine=None, reviser=None, log=print) -> SynthOutcome:
    """Everything before SFT: rows (stage 0) or states -> selection -> rejection (stages 1, 2), curated."""
    out = cfg.out
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out / "stage_config.json", cfg.to_dict())
    tasks = load_tasks(cfg.tasks.benchmark, cfg.tasks.split, cfg.tasks.path)
    runs = _runs(cfg)
    for run in runs:
        unknown = sorted({r.task_id for r in run.rounds()} - set(tasks))
        if unknown:
            log(f"synth: warning: {run.root} has rounds of {len(unknown)} task(s) not in the task set, "
                f"skipped: {', '.join(unknown[:5])}")
    cov = cfg.sampling.coverage
    result = SynthOutcome(rows=[], curation=Curation())

    if cfg.stage == 0:
        per_run = {}
        for run in runs:
            rows, stats = trajectory_rows(run, tasks, stage=0, coverage=cov)
            result.rows.extend(rows)
            per_run[str(run.root)] = stats.to_dict()
            log(f"synth: {run.root}: {stats.rounds} rounds -> {stats.rows} rows "
                f"(prompt = recorded chat: {stats.prompt_checked - stats.prompt_mismatch}/{stats.prompt_checked})")
            if stats.prompt_mismatch:
                log(f"synth: warning: {stats.prompt_mismatch} rebuilt prompts differ from the chat the run sent "
                    f"(a run made with --agent history?), e.g. {stats.mismatch_keys[0]}")
        if cfg.curation.rescore:
            validate_rows(result.rows, tasks, engine or make_engine(), cfg.rejection.seed, cov)
        result.stats = {"runs": per_run}
        write_json_atomic(out / "synth.json", result.stats)
    else:
        for run in runs:
            result.states.extend(states_from_run(run, tasks, cov))
        s = cfg.sampling
        result.selected = select_states(result.states, s.budget, s.strategy, s.scope, s.seed, s.include_passed)
        rank = {st.key: i for i, st in enumerate(result.selected)}
        with open(out / "states.jsonl", "w") as f:
            for st in result.states:
                d = st.to_dict()
                d["selected"] = st.key in rank
                d["rank"] = rank.get(st.key)
                f.write(json.dumps(d, sort_keys=True) + "\n")
        log(f"sampling ({s.strategy}, budget {s.budget} {s.scope}): {len(result.selected)} of "
            f"{len(result.states)} states")
        r = cfg.rejection
        rows, cands = rejection_rows(
            result.selected, tasks, reviser or make_reviser(r.reviser), engine or make_engine(),
            k=r.k, tau=r.tau, stage=cfg.stage, source=r.reviser.model, seed=r.seed, coverage=cov,
            concurrency=r.concurrency, report=out / "rejection.jsonl", log=log)
        result.rows, result.candidates = rows, cands
        reasons: dict[str, int] = {}
        for c in cands:
            reasons[c.reason] = reasons.get(c.reason, 0) + 1
        result.stats = {"states": len(result.states), "selected": len(result.selected),
                        "candidates": len(cands), "candidates_by_reason": dict(sorted(reasons.items())),
                        "states_with_row": len(rows)}
        log(f"rejection (K={r.k}, tau={r.tau:g}): {len(rows)} of {len(result.selected)} states kept a "
            f"revision; candidates: {result.stats['candidates_by_reason']}")

    write_rows(out / "rows.raw.jsonl", result.rows)
    result.curation = curate(result.rows, cfg.curation.require, cfg.curation.dedupe)
    write_json_atomic(out / "curation.json", result.curation.to_dict())
    write_rows(out / "rows.jsonl", result.curation.kept)
    log(result.curation.summary())
    return result


def sft_stage(cfg: StageConfig, rows: list[Row] | None = None, log=print):
    from trainers.sft import train

    if rows is None:
        rows = read_rows(cfg.out / "rows.jsonl")
    return train(rows, cfg.sft, cfg.student.start, cfg.out, cfg.stage, log=log)


def run_stage(cfg: StageConfig, *, engine=None, reviser=None, log=print) -> dict[str, Any]:
    """synth -> (select -> reject) -> curate -> SFT; stage.json says what came out."""
    syn = synth_stage(cfg, engine=engine, reviser=reviser, log=log)
    summary: dict[str, Any] = {
        "stage": cfg.stage, "name": cfg.name, "output_dir": str(cfg.out), "start_from": cfg.student.start,
        "synth": syn.stats, "curation": {k: v for k, v in syn.curation.to_dict().items() if k != "dropped_rows"},
        "rows": len(syn.curation.kept), "sft": None,
    }
    if cfg.sft.enabled:
        summary["sft"] = sft_stage(cfg, syn.curation.kept, log=log).to_dict()
        summary["sft"].pop("losses", None)
    write_json_atomic(Path(cfg.out) / "stage.json", summary)
    return summary
