"""The three stages of the recipe, each run from one config into its own output folder.

stage 0  rows = the teacher's own trajectories (every recorded response, paired with the state it
         answered), curated; SFT from the base student.
stage 1  recipe llm4cov (default, the released pipeline): states = the stage-0 student's direct-inference
         samples, selected (xrun-fail / worst / median); multi-round rollouts by the teacher through the
         evaluation's agent; the released rejection rule; curated; SFT from stage0/final.
         recipe ecov: every agentic-round state, worst first; K single-step revisions; gain >= tau.
stage 2  as stage 1, with the stage-1 student's states and the stage-1 student as reviser; SFT from
         stage1/final.

A stage trains on its own rows only, starting from the checkpoint in ``student.init``: stages are
never mixed. Files written under ``output_dir``:

    stage_config.json  the config as read          states.jsonl     every state, with selected/rank
    synth.json         stage 0: rows per run        rejection.jsonl  every candidate, gain, reason
    rollouts/          llm4cov: the rollouts, an ecov-eval run folder
    rows.raw.jsonl     rows before curation         curation.json    dropped rows and why
    rows.jsonl         the training rows            dataset/         HF dataset + card (ecov-data publish)
    final/, checkpoints/, train_log.jsonl (SFT)     stage.json       counts and paths of all the above
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecov.harness.core.run_folder import RunFolder, write_json_atomic
from ecov.harness.tracks.base import get_track
from ecov.trainers.canonical import canonicalize
from ecov.trainers.config import ModelConfig, StageConfig
from ecov.trainers.curate import Curation, curate, drop_contaminated, drop_too_long, validate_rows
from ecov.trainers.direct_rows import best_direct_rows
from ecov.trainers.rejection import Candidate, rejection_rows
from ecov.trainers.runview import RunView, read_run
from ecov.trainers.sampling import select_states
from ecov.trainers.scoring import as_executor, make_engine, sources_track
from ecov.trainers.stage0_recipe import apply_stage0
from ecov.trainers.synth import (
    Row,
    State,
    load_tasks,
    read_rows,
    states_from_run,
    trajectory_rows,
    write_rows,
)

__all__ = ["make_engine", "make_reviser", "run_stage", "sft_stage", "sources_track", "synth_stage"]


def make_reviser(cfg: ModelConfig):
    """The LiteLLM model that writes revisions (``hosted_vllm/...`` or ``openai/...`` + api_base for vLLM)."""
    from ecov.harness.models import get_model

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


def _warn_unknown(view: RunView, tasks, log) -> None:
    unknown = sorted(view.task_ids - set(tasks))
    if unknown:
        log(f"synth: warning: {view.root} has rounds of {len(unknown)} task(s) not in the task set, "
            f"skipped: {', '.join(unknown[:5])}")


def synth_stage(cfg: StageConfig, *, engine=None, reviser=None, log=print, workers: int = 2) -> SynthOutcome:
    """Everything before SFT: rows (stage 0) or states -> selection -> rollouts/revisions -> rejection,
    then curation, contamination, length limits, resampling, and the dataset with its card.

    Each source run folder is read once, a line at a time (ecov.trainers.runview). Every score goes
    through ``engine`` when it is an Executor (the CLI's ``--executor local|ray``), else through a local
    executor with ``workers`` jobs at once around it (default: the sources' track's engine)."""
    out = cfg.out
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out / "stage_config.json", cfg.to_dict())
    tasks = load_tasks(cfg.tasks.benchmark, cfg.tasks.split, cfg.tasks.path)
    runs = _runs(cfg)
    track = sources_track(cfg.sources)
    scorer = as_executor(engine, track, workers)
    cov = cfg.sampling.coverage
    result = SynthOutcome(rows=[], curation=Curation())
    counts: dict[str, Any] = {}

    if cfg.stage == 0:
        per_run = {}
        for run in runs:  # one run folder in memory at a time
            view = read_run(run, tasks, cov)
            _warn_unknown(view, tasks, log)
            rows, stats = trajectory_rows(view, tasks, stage=0, coverage=cov)
            del view
            result.rows.extend(rows)
            per_run[str(run.root)] = stats.to_dict()
            log(f"synth: {run.root}: {stats.rounds} rounds -> {stats.rows} rows "
                f"(prompt = recorded chat: {stats.prompt_checked - stats.prompt_mismatch}/{stats.prompt_checked})")
            if stats.prompt_mismatch:
                log(f"synth: warning: {stats.prompt_mismatch} rebuilt prompts differ from the chat the run sent "
                    f"(injected rules removed), e.g. {stats.mismatch_keys[0]}; the rows hold the rebuilt "
                    "prompt, the evaluation's (a run made with another agent or prompt version differs)")
        if cfg.curation.rescore:
            validate_rows(result.rows, tasks, scorer, cfg.rejection.seed, cov)
        result.stats = {"runs": per_run}
        counts["recorded rounds (rows before curation)"] = len(result.rows)
        write_json_atomic(out / "synth.json", result.stats)
    elif cfg.recipe == "llm4cov":
        _llm4cov(cfg, tasks, runs, result, counts, scorer, reviser, log)
    else:
        _ecov(cfg, tasks, runs, result, counts, scorer, reviser, log, track)

    write_rows(out / "rows.raw.jsonl", result.rows)
    _curate(cfg, tasks, runs, result, counts, log)
    return result


def _llm4cov(cfg, tasks, runs, result, counts, scorer, reviser, log) -> None:
    from ecov.trainers.improvement import keep_best, rows_from, transitions, write_report
    from ecov.trainers.rollouts import run_rollouts
    from ecov.trainers.selection import direct_states, require_direct, select_states_llm4cov

    per_run = {}
    views = []
    for run in runs:
        require_direct(run)  # an agentic source is refused before its rounds are read
        views.append(read_run(run, tasks, "overall", keep_result=True))
        _warn_unknown(views[-1], tasks, log)
        states, stats = direct_states(views[-1], tasks)
        result.states.extend(states)
        per_run[str(run.root)] = stats.to_dict()
    direct: list[Row] = []
    if cfg.direct_rows.enabled:
        d = cfg.direct_rows
        direct = best_direct_rows(views, tasks, cfg.stage, d.min_coverage, d.per_task)
    del views
    sel = cfg.selection
    result.selected = select_states_llm4cov(result.states, sel.strategy, sel.prioritize_worst, sel.spread,
                                            sel.per_task, sel.seed)
    chosen = {st.key: st for st in result.selected}
    with open(cfg.out / "states.jsonl", "w") as f:
        for st in result.states:
            d = st.to_dict()
            d["selected"] = st.key in chosen
            d["selected_as"] = chosen[st.key].selected_as if st.key in chosen else ""
            f.write(json.dumps(d, sort_keys=True) + "\n")
    by_kind: dict[str, int] = {}
    for st in result.selected:
        by_kind[st.selected_as] = by_kind.get(st.selected_as, 0) + 1
    log(f"selection ({sel.strategy}): {len(result.selected)} of {len(result.states)} direct-inference states "
        f"of {len({s.task_id for s in result.states})} tasks: {by_kind}")
    r, ro = cfg.rejection, cfg.rollouts
    rollouts = run_rollouts(result.selected, tasks, reviser or make_reviser(r.reviser), scorer, ro,
                            cfg.out / "rollouts", model_name=r.reviser.model, log=log)
    trans = transitions(rollouts, r.threshold, r.per_metric)
    kept = keep_best(trans, r.keep_per)
    write_report(cfg.out / "rejection.jsonl", trans)
    result.rows, stripped = rows_from(kept, cfg.stage, r.reviser.model, cfg.curation.strip_rules)
    n_direct = len(direct)
    if cfg.direct_rows.enabled:
        result.rows.extend(direct)
        log(f"direct rows: {n_direct} (best answer per task of the direct runs, coverage >= "
            f"{cfg.direct_rows.min_coverage:g})")
    reasons: dict[str, int] = {}
    for t in trans:
        reasons[t.reason] = reasons.get(t.reason, 0) + 1
    result.stats = {"direct_runs": per_run, "states": len(result.states), "selected": len(result.selected),
                    "selected_by_kind": by_kind, "rollouts": len(rollouts),
                    "rollout_errors": sum(1 for x in rollouts if x.error), "transitions": len(trans),
                    "transitions_by_reason": dict(sorted(reasons.items())), "fixes_kept": sum(t.fixed for t in kept),
                    "rows": len(result.rows), "direct_rows": n_direct, "prompts_with_rules_stripped": stripped}
    counts.update({"direct-inference samples": sum(v["samples"] for v in per_run.values()),
                   "states (samples with a testbench)": len(result.states),
                   "states selected": f"{len(result.selected)} ({', '.join(f'{k} {v}' for k, v in by_kind.items())})",
                   "rollouts (state x repetition)": len(rollouts),
                   "rollout rounds judged": len(trans),
                   **{f"rounds {k}": v for k, v in sorted(reasons.items())},
                   "rows after rejection (one per task)" if r.keep_per == "task" else "rows after rejection": len(result.rows)})
    log(f"rejection (threshold {r.threshold:g}, per-metric {r.per_metric}, best per {r.keep_per}): "
        f"{len(result.rows)} rows from {len(trans)} rounds; {result.stats['transitions_by_reason']}")


def _ecov(cfg, tasks, runs, result, counts, scorer, reviser, log, track=None) -> None:
    cov = cfg.sampling.coverage
    for run in runs:  # one run folder in memory at a time
        view = read_run(run, tasks, cov, keep_result=True)
        _warn_unknown(view, tasks, log)
        result.states.extend(states_from_run(view, tasks, cov))
        del view
    s = cfg.sampling
    result.selected = select_states(result.states, s.budget, s.strategy, s.scope, s.seed, s.include_passed)
    rank = {st.key: i for i, st in enumerate(result.selected)}
    with open(cfg.out / "states.jsonl", "w") as f:
        for st in result.states:
            d = st.to_dict()
            d["selected"] = st.key in rank
            d["rank"] = rank.get(st.key)
            f.write(json.dumps(d, sort_keys=True) + "\n")
    log(f"sampling ({s.strategy}, budget {s.budget} {s.scope}): {len(result.selected)} of "
        f"{len(result.states)} states")
    r = cfg.rejection
    rows, cands = rejection_rows(
        result.selected, tasks, reviser or make_reviser(r.reviser), scorer,
        k=r.k, tau=r.tau, stage=cfg.stage, source=r.reviser.model, seed=r.seed, coverage=cov,
        concurrency=r.concurrency, tb_lang=track, report=cfg.out / "rejection.jsonl", log=log)
    result.rows, result.candidates = rows, cands
    reasons: dict[str, int] = {}
    for c in cands:
        reasons[c.reason] = reasons.get(c.reason, 0) + 1
    result.stats = {"states": len(result.states), "selected": len(result.selected),
                    "candidates": len(cands), "candidates_by_reason": dict(sorted(reasons.items())),
                    "states_with_row": len(rows)}
    counts.update({"states": len(result.states), "states selected": len(result.selected),
                   "revisions": len(cands), **{f"revisions {k}": v for k, v in sorted(reasons.items())},
                   "rows after rejection": len(rows)})
    log(f"rejection (K={r.k}, tau={r.tau:g}): {len(rows)} of {len(result.selected)} states kept a "
        f"revision; candidates: {result.stats['candidates_by_reason']}")


def _eval_tasks(cfg: StageConfig):
    ct = cfg.curation.contamination
    if ct.eval_path:
        return list(load_tasks(path=ct.eval_path).values())
    from ecov.harness.benchmark.store import load_benchmark

    return list(load_benchmark(ct.eval_benchmark, ct.eval_split))


def _source_info(runs: list[RunFolder]) -> list[dict[str, Any]]:
    out = []
    for run in runs:
        d: dict[str, Any] = {"path": str(run.root)}
        if run.config_path.exists():
            rc = run.read_config()
            d.update(model=rc.model, mode=rc.mode, samples=rc.n_samples, benchmark=rc.benchmark,
                     dataset_hash=rc.dataset_hash, agent=rc.agent, max_rounds=rc.max_rounds)
        out.append(d)
    return out


def _curate(cfg: StageConfig, tasks, runs, result: SynthOutcome, counts: dict[str, Any], log) -> None:
    """Execution-validated curation, contamination, length limits, resampling; rows.jsonl and dataset/."""
    from ecov.trainers.dataset import render_card, write_dataset
    from ecov.trainers.resample import resample

    c, out = cfg.curation, cfg.out
    cur = curate(result.rows, c.require, c.dedupe)
    counts["rows kept by curation (parse/compile/dedupe)"] = len(cur.kept)
    extra: dict[str, Any] = {}
    if c.canonical_targets and get_track(sources_track(cfg.sources)).llm4cov_answers:  # the released format
        extra["canonical_targets"] = canonicalize(cur.kept, tasks)
        counts["targets rewritten to `filename:` + one code block"] = extra["canonical_targets"]
    ct = c.contamination
    if ct.eval_benchmark or ct.eval_path or ct.ids:
        from ecov.trainers.contamination import ContaminationIndex

        index = ContaminationIndex(_eval_tasks(cfg) if (ct.eval_benchmark or ct.eval_path) else [],
                                   ct.threshold, ct.files, ct.ids)
        drop_contaminated(cur, tasks, index)
        extra["contamination"] = {"eval": ct.eval_benchmark or ct.eval_path, "eval_tasks": index.eval_count,
                                  "threshold": ct.threshold, "files": ct.files}
        counts[f"rows kept after contamination filter ({index.eval_count} evaluation tasks)"] = len(cur.kept)
    ln = c.length
    if ln.max_tokens or ln.rtl_max_tokens or ln.rtl_min_tokens:
        from ecov.trainers.length import load_tokenizer

        name = ln.tokenizer or cfg.student.start
        extra["length"] = {"tokenizer": name, **drop_too_long(cur, tasks, load_tokenizer(name), ln.max_tokens,
                                                               ln.rtl_max_tokens, ln.rtl_min_tokens)}
        counts["rows kept after length limits"] = len(cur.kept)
        counts["longest row (tokens)"] = extra["length"]["longest_row_tokens"]
    if cfg.stage == 0 and cfg.recipe == "llm4cov" and cfg.stage0.enabled:
        rep = apply_stage0(cur, tasks, cfg.stage0, (extra.get("length") or {}).get("rtl_tokens"))
        extra["stage0"] = rep.to_dict()
        counts["rows after the stage-0 coverage filters (direct, agentic)"] = \
            f"{rep.after_filters['direct']}, {rep.after_filters['agentic']}"
        counts["rows after short-design rebalancing (direct, agentic)"] = \
            f"{rep.after_rebalance['direct']}, {rep.after_rebalance['agentic']}"
        counts["rows after the direct/agentic mix (direct, agentic)"] = \
            f"{rep.after_mix['direct']}, {rep.after_mix['agentic']}"
        log(f"stage 0 (llm4cov): {rep.to_dict()}")
    rs = resample(cur.kept, c.resample.total, c.resample.mode, c.resample.seed)
    if c.resample.total != -1:
        cur.kept = rs.rows
        counts[f"rows after resampling to {c.resample.total} ({c.resample.mode})"] = len(cur.kept)
    extra["resample"] = {"total": c.resample.total, "mode": c.resample.mode, "before": rs.before, "after": rs.after}
    result.curation = cur
    cur_d = cur.to_dict()
    cur_d.update(extra)
    write_json_atomic(out / "curation.json", cur_d)
    write_rows(out / "rows.jsonl", cur.kept)
    counts["rows in the dataset"] = len(cur.kept)
    rejected = {k: v for k, v in (result.stats.get("transitions_by_reason") or result.stats.get("candidates_by_reason")
                                  or {}).items() if k != "kept"}
    card = render_card(cfg, counts, cur.counts(), [d.to_dict() for d in cur.dropped], _source_info(runs),
                       len(cur.kept), rejected)
    try:
        write_dataset(out / "dataset", cur.kept, card, {"stage": cfg.stage, "recipe": cfg.recipe, "name": cfg.name,
                                                        "rows": len(cur.kept), "counts": counts})
        result.stats["dataset"] = str(out / "dataset")
    except ImportError:
        (out / "dataset").mkdir(exist_ok=True)
        (out / "dataset" / "README.md").write_text(card)
        log("synth: dataset/: the `datasets` package is missing (pip install 'ecov[train]'); wrote the card only")
    result.stats["counts"] = counts
    log(cur.summary())


def sft_stage(cfg: StageConfig, rows: list[Row] | None = None, log=print):
    from ecov.trainers.sft import train

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
