"""Every synthesized dataset as a Hugging Face dataset folder with a card, ready for ``ecov-data publish``.

    OUTPUT_DIR/dataset/
      data/train.parquet   datasets.Dataset.to_parquet: prompt, completion (trl's conversational
                           prompt-completion columns), task_id, stage, source, state and meta (JSON text)
      manifest.json        {"kind": "ecov-train-rows", ...}: what publish needs to upload it as is
      README.md            the card: sources, recipe and every rule with its source file, counts per
                           step, dropped rows and why
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ecov.harness.core.atomic import write_text_atomic
from ecov.trainers.config import StageConfig
from ecov.trainers.synth import Row

KIND = "ecov-train-rows"
DATA_FILE = "data/train.parquet"
RELEASED = "HejiaZ2023/llm4cov_oss"


def rules(cfg: StageConfig) -> list[tuple[str, str, str]]:
    """(step, rule with this config's values, where it comes from) for every rule the stage applied."""
    c, r, sel, ro = cfg.curation, cfg.rejection, cfg.selection, cfg.rollouts
    out: list[tuple[str, str, str]] = []
    if cfg.stage == 0:
        out.append(("rows", "every recorded round of the teacher's runs, prompt = the chat the agent sent",
                    "ECov (trainers/synth.py)"))
    elif cfg.recipe == "llm4cov":
        if sel.strategy == "released":
            order = ("worst always, median when median - worst > {s:g}" if sel.prioritize_worst
                     else "median always, worst when median - worst > {s:g}").format(s=sel.spread)
            out += [
                ("selection", "states come from the student's direct-inference samples (ecov-eval --mode direct)",
                 f"{RELEASED} scripts/select_direct_infer_samples.py"),
                ("selection", "per task: the first sample that failed to compile or run (xrun_fail)",
                 f"{RELEASED} scripts/select_direct_infer_samples.py _select_xrun_fail"),
                ("selection", f"per task, among samples that ran with overall < 100%: {order} "
                              "(fraction of overall coverage; median = lower median of distinct values)",
                 f"{RELEASED} scripts/select_direct_infer_samples.py "
                 + ("--prioritize-worst" if sel.prioritize_worst else "(CLI default)")),
            ]
        else:
            out.append(("selection", f"ablation: {sel.strategy}, {sel.per_task} per task among samples "
                                     "below 100% overall" + (f", seed {sel.seed}" if sel.strategy == "random" else ""),
                        f"{RELEASED} scripts/select_direct_infer_samples_ablation.py"))
        out += [
            ("rollouts", f"{ro.repetitions} rollouts per state, {ro.rounds} model rounds after the state, through "
                         f"ecov.harness.loop.agent.run_sample (agent options {json.dumps({'agent': 'memoryless', **ro.agent})})",
             f"{RELEASED} scripts/batch_query_agentic_round.py (--agentic-rounds 3, --gen-repetitions 2)"),
            ("rollouts", "expert rules " + ("injected into the task text" if ro.inject_rules else "not injected")
             + " during rollouts", f"{RELEASED} src/llm4cov/syn_data_gen/prompt_inject.py (SYN_PROMPT_INJECTION)"),
            ("rejection", "a round whose answer gave no running testbench with coverage is dropped",
             f"{RELEASED} scripts/synthetic_data_filter.py filter_invalid_rows"),
            ("rejection", "a round that follows a compile/run failure and runs is kept at any gain (a fix)",
             f"{RELEASED} scripts/synthetic_data_filter.py has_absolute_improvement"),
            ("rejection", f"otherwise overall coverage must rise by more than {r.threshold:g} (a fraction; "
                          f"{100 * r.threshold:g} on ECov's % scale) over the previous round",
             f"{RELEASED} scripts/synthetic_data_filter.py has_absolute_improvement (threshold 0.01)"),
            ("rejection", "and no DUT metric may decrease" if r.per_metric else "per-metric check OFF (not as released)",
             f"{RELEASED} scripts/synthetic_data_filter.py has_absolute_improvement (misc)"),
            ("rejection", f"the largest gain is kept per {r.keep_per}",
             f"{RELEASED} scripts/synthetic_data_filter.py parse_dataframe (groupby context_id, idxmax)"),
        ]
    else:
        out += [
            ("sampling", f"worst-state sampling: {cfg.sampling.strategy}, budget {cfg.sampling.budget} "
                         f"{cfg.sampling.scope}, from every agentic-round state", "ECov (trainers/sampling.py)"),
            ("rejection", f"K = {r.k} single-step revisions per state; kept: status ok, gain >= {r.tau:g} points, "
                          "the best per state", "ECov (trainers/rejection.py)"),
        ]
    out.append(("curation", f"the answer parses and {'compiles' if c.require == 'compile' else 'runs to $finish'}"
                + ("; exact duplicates dropped" if c.dedupe else ""), "ECov (trainers/curate.py)"))
    if c.strip_rules:
        out.append(("curation", "injected expert rules are removed from every prompt",
                    f"{RELEASED} scripts/synthetic_data_parse.py _strip_prompt_injection_messages"))
    ct = c.contamination
    if ct.eval_benchmark or ct.eval_path:
        out.append(("contamination", f"drop rows whose design reaches ROUGE-L F1 >= {ct.threshold:g} with any "
                                     f"evaluation task ({ct.files} files, whitespace tokens, rouge-score) in "
                                     f"{ct.eval_benchmark or ct.eval_path}",
                    f"{RELEASED} scripts/data_contamination_detect.py (threshold 0.5)"))
        out.append(("contamination", f"drop rows whose task id is an evaluation task id or listed ({len(ct.ids)} listed)",
                    f"{RELEASED} scripts/synthetic_data_filter.py CONTAMINATION_IDS"))
    ln = c.length
    if ln.rtl_max_tokens or ln.rtl_min_tokens:
        out.append(("length", f"designs kept with {ln.rtl_min_tokens} < RTL tokens"
                              + (f" <= {ln.rtl_max_tokens}" if ln.rtl_max_tokens else ""),
                    f"{RELEASED} src/llm4cov/datasets/filter.py filter_data_by_length (1000)"))
    if ln.max_tokens:
        out.append(("length", f"rows longer than {ln.max_tokens} tokens (chat template) are dropped",
                    "ECov; the released scripts/synthetic_data_filter.py only measures (check_max_length_context)"))
    rs = c.resample
    if rs.total != -1:
        out.append(("resample", f"resized to {rs.total} rows across sources ({rs.mode}, seed {rs.seed}), shuffled",
                    f"{RELEASED} scripts/upload_to_hub.py resize_dataframes" if rs.mode == "proportional"
                    else "ECov (equal share per source; the released resize is proportional)"))
    return out


def to_records(rows: list[Row]) -> list[dict[str, Any]]:
    return [{"prompt": r.prompt, "completion": [{"role": "assistant", "content": r.response}],
             "task_id": r.task_id, "stage": r.stage, "source": r.source,
             "state": json.dumps(r.state, sort_keys=True), "meta": json.dumps(r.meta, sort_keys=True)} for r in rows]


def render_card(cfg: StageConfig, counts: dict[str, Any], dropped_by_reason: dict[str, int],
                dropped_rows: list[dict[str, str]], sources: list[dict[str, Any]], n_rows: int,
                rejected: dict[str, int] | None = None) -> str:
    name = cfg.name or f"stage{cfg.stage}"
    lines = [
        "---", "license: other", f'pretty_name: "ECov trainer rows: {name}"', "language:\n- en",
        "tags:\n- verilog\n- systemverilog\n- testbench-generation\n- code-coverage\n- sft",
        f"configs:\n- config_name: default\n  data_files:\n  - split: train\n    path: {DATA_FILE}", "---", "",
        f"# ECov trainer rows: {name}", "",
        f"{n_rows} supervised rows (stage {cfg.stage}, recipe `{cfg.recipe if cfg.stage else 'stage0'}`) for "
        "testbench generation, written by `ecov-train` (ECov's reference trainers for the LLM4Cov recipe). "
        "`prompt` is the exact chat ECov's evaluation agent sends; `completion` is the answer to learn. "
        "Every answer was scored by Verilator 5.048 through the ECov engine.", "",
        "License: the rows quote the training designs (RTL and specs); their licenses apply.", "",
        "## Sources", "",
    ]
    for s in sources:
        lines.append(f"- `{s.get('path', '')}`: model `{s.get('model', '')}`, mode {s.get('mode', '')}, "
                     f"{s.get('samples', '')} samples, benchmark `{s.get('benchmark', '')}`")
    if cfg.stage:
        lines.append(f"- rollouts / revisions by `{cfg.rejection.reviser.model}`")
    lines += ["", "## Rules", "", "| step | rule | source |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rules(cfg)]
    lines += ["", "## Counts per step", "", "| step | count |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in counts.items()]
    lines += ["", "## Dropped rows and why", ""]
    if rejected:
        lines += ["Candidates not kept by rejection (each is listed in rejection.jsonl with its detail): "
                  + ", ".join(f"{k} {v}" for k, v in rejected.items()) + ".", "",
                  "Rows dropped after rejection:", ""]
    if dropped_by_reason:
        lines += ["| reason | rows |", "|---|---|"] + [f"| {k} | {v} |" for k, v in dropped_by_reason.items()]
        lines += [""] + [f"- `{d['key']}`: {d['reason']}" + (f" ({d['detail']})" if d.get("detail") else "")
                         for d in dropped_rows[:200]]
        if len(dropped_rows) > 200:
            lines.append(f"- ... and {len(dropped_rows) - 200} more (curation.json)")
    else:
        lines.append("None.")
    lines += ["", "## Fields", "",
              "`prompt` [{role, content}], `completion` [{role: assistant, content}], `task_id`, `stage`, "
              "`source` (the model that wrote the answer, or the run folder), `state` (JSON: the state the prompt "
              "shows), `meta` (JSON: status, coverage, gain, ...).", ""]
    return "\n".join(lines)


def write_dataset(folder: Path, rows: list[Row], card: str, manifest: dict[str, Any]) -> Path:
    """data/train.parquet + manifest.json + README.md under ``folder``."""
    from datasets import Dataset

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "data").mkdir(exist_ok=True)
    records = to_records(rows)
    if records:
        Dataset.from_list(records).to_parquet(str(folder / DATA_FILE))
    elif (folder / DATA_FILE).exists():
        (folder / DATA_FILE).unlink()
    write_text_atomic(folder / "manifest.json", json.dumps({"kind": KIND, **manifest}, indent=2, sort_keys=True))
    write_text_atomic(folder / "README.md", card)
    return folder
