"""The summary table printed at the end of a run and by ``ecov-eval report RUN_DIR``."""

from __future__ import annotations

from typing import Any

from ecov.harness.core.protocol import AVG_COV_TEXT
from ecov.harness.core.run_folder import RunFolder
from ecov.harness.evaluation.bughunt_report import bughunt_lines, bughunt_task_lines
from ecov.harness.tracks.base import get_track, track_names


def _row(label: str, value: str) -> str:
    return f"  {label:<22}{value}"


def format_summary(summary: dict[str, Any], per_task: bool = True) -> str:
    run = summary.get("run", {})
    mode = run.get("mode", "?")
    if mode == "agentic":
        mode += f"/{run.get('agent', '?')}"
    direct = run.get("mode") == "direct"
    lines = [
        f"ECov evaluation: {run.get('model', '?')}  mode {mode}  track {run.get('tb_lang') or 'sv'}  "
        f"protocol {summary.get('protocol', '?')}  "
        f"benchmark {run.get('benchmark', '?')} ({run.get('split', 'test')})",
        f"  {summary['tasks']}/{summary.get('tasks_expected', summary['tasks'])} tasks, "
        f"{summary['samples']}/{summary.get('samples_expected', summary['samples'])} samples, "
        f"n={run.get('n_samples', '?')}, max rounds {run.get('max_rounds', '?')}, seed {run.get('seed', '?')}"
        + ("" if summary.get("complete", True) else "  [INCOMPLETE: run again with the same --out to resume]"),
        "",
    ]
    if not summary["samples"]:  # every sample faulted (or none ran): no figure is a result
        return "\n".join([*lines, _row("results", "none: no sample finished with a result"), *fault_lines(summary)])
    lines += [
        *headline_lines(summary),
        *([_row("pass % random-hard", (f"{hard['pass_rate']:.1f}" if hard["pass_rate"] is not None else "–")
                + f"   (on the {hard['tasks']} of {hard['of']} tasks builtin/random fails; random_baseline.json)")]
          if (hard := summary.get("random_hard")) else []),
        *legal_lines(summary),
        *([_row("pass % by difficulty", "  ".join(f"{d} {v['pass_rate']:.1f} ({v['tasks']})" for d, v in by.items())
                + "   (tasks in brackets)")] if (by := summary.get("by_difficulty")) else []),
        _row("avg coverage %", f"{summary['avg_overall']:.1f}   (DUT overall of "
                               + ("the one round a direct sample has" if direct
                                  else AVG_COV_WORDS.get(summary.get("avg_cov_definition", ""), "the final round"))
                               + f"; best per task {summary['best_overall']:.1f})"),
        # One round per sample in direct mode: best and final are the same number.
        *([] if direct else [_row("  best / final", f"{summary.get('avg_overall_best', 0.0):.1f} / "
                                  f"{summary.get('avg_overall_final', summary['avg_overall']):.1f}   "
                                  "(best state over rounds / final round)")]),
        _row("syntax %", f"{summary['syntax_rate']:.1f}   (the scored testbench compiled and ran)"),
        *bughunt_lines(summary),
    ]
    if summary.get("pass_at_k"):
        lines.append(_row("pass@k", "  ".join(f"{k} {v:.1f}" for k, v in summary["pass_at_k"].items())
                          + "   (unbiased)"))
    if summary.get("pass_at_k_any"):
        lines.append(_row("pass@n any-of-n", "  ".join(f"{k} {v:.1f}" for k, v in summary["pass_at_k_any"].items())
                          + "   (as the paper reports)"))
    if "reasks" in summary:
        lines.append(_row("format re-asks", f"{summary['reasks']} ({summary.get('samples_reasked', 0)} samples; "
                                            f"{summary.get('format_failures', 0)} ended unusable)"))
    if len(summary.get("per_round", [])) > 1:
        if "ecov_pass_rate" in summary["per_round"][0]:
            lines.append(_row("ECov pass % by round", "  ".join(
                f"{r['round'] + 1}: {r['ecov_pass_rate']:.1f}" for r in summary["per_round"])))
        lines.append(_row("pass % by round", "  ".join(
            f"{r['round'] + 1}: {r['pass_rate']:.1f}" for r in summary["per_round"])))
        if (lg := summary.get("legal")) and lg.get("tasks") and lg.get("per_round"):
            lines.append(_row("legal pass % by round", "  ".join(
                f"{r['round'] + 1}: {r['pass_rate']:.1f}" for r in lg["per_round"])))
        lines.append(_row("avg cov % by round", "  ".join(
            f"{r['round'] + 1}: {r['avg_overall']:.1f}" for r in summary["per_round"])))
    lines.append(_row("avg rounds", f"{summary.get('avg_rounds', 0):.2f}"))
    lines.append(_row("tokens", f"{summary['prompt_tokens']:,} prompt + {summary['completion_tokens']:,} "
                                "completion"))
    lines.append(_row("cost", f"${summary['cost']:.4f}"))
    lines += fault_lines(summary)
    if "seconds" in summary:
        lines.append(_row("wall time", f"{summary['seconds']:.1f} s"))
    if per_task and summary.get("per_task"):
        width = max(12, *(len(t) for t in summary["per_task"]))
        lines += ["", f"  {'task':<{width}}  passed  best %  mean %  syntax  legal  legal cov %  bins"]
        for t, d in summary["per_task"].items():
            lines.append(f"  {t:<{width}}  {d['passed']:>2}/{d['samples']:<3}  {d['best_overall']:>6.1f}  "
                         f"{d['mean_overall']:>6.1f}  {d['syntax_ok']:>2}/{d['samples']:<3}" + _task_legal(d))
        lines += bughunt_task_lines(summary)
    return "\n".join(lines)


# summary.json's avg_cov_definition, said in the report without nested brackets.
AVG_COV_WORDS = {AVG_COV_TEXT["best"]: "each sample's best state over rounds", AVG_COV_TEXT["final"]: "the final round"}


def fault_lines(summary: dict[str, Any]) -> list[str]:
    """The samples that ended on a fault (model server, harness): left out of every figure, named with
    their cause, and what to do (a resume retries them)."""
    faults = summary.get("faults") or summary.get("model_errors") or 0
    if not faults:
        return []
    lines = [_row("INCOMPLETE", f"{faults} sample{'s' if faults != 1 else ''} ended on a fault, not a result: "
                                "left out of every figure above")]
    lines += [_row("", f"- {line}") for line in summary.get("fault_examples") or []]
    if faults > len(summary.get("fault_examples") or []):
        lines.append(_row("", f"(+{faults - len(summary.get('fault_examples') or [])} more: ecov-eval view RUN_DIR)"))
    lines.append(_row("", "run the same command again (same --out) to retry them"))
    return lines


# What a sample's last status means when it did not pass, in words a newcomer reads at once.
STATUS_WORDS = {"ok": "coverage below target", "no_finish": "coverage below target (no $finish)",
                "compile_error": "compile error", "rejected": "refused by a rule", "timeout": "timed out",
                "crashed": "crashed", "infra_error": "harness fault"}


def _task_legal(d: dict[str, Any]) -> str:
    """A task row's legal cells: legal passes, best legal coverage, bins; blank without a contract."""
    if not d.get("contract"):
        return ""
    bins = f"{d['legal_bins_hit']:g}/{d['legal_bins']}" if d.get("legal_bins") else "–"
    return (f"  {d.get('legal_passed', 0):>2}/{d['samples']:<3}  {d.get('legal_best_overall', 0.0):>11.1f}  {bins}")


def headline_lines(summary: dict[str, Any]) -> list[str]:
    """The ECov headline (issue 32) first, then the LLM4Cov paper's pass % beside it, labelled so that
    it is not read as the paper's own figure. Summaries from before the headline show the paper's only."""
    paper = _row("pass % (paper def.)" if "ecov_pass_rate" in summary else "pass %",
                 f"{summary['pass_rate']:.1f}   ({summary['samples_passed']} of {summary['samples']} samples met every "
                 "target; the LLM4Cov paper's definition measured here, input rules not checked)")
    if "ecov_pass_rate" not in summary:
        return [paper]
    n, tasks = summary.get("contract_tasks", 0), summary["tasks"]
    nothing = summary.get("measures_nothing") or []
    scope = (f"{tasks - len(nothing)} of {tasks} tasks: {len(nothing)} whose targets a testbench that drives nothing "
             f"meets are left out ({', '.join(nothing[:4])}{', ...' if len(nothing) > 4 else ''})"
             if nothing else "every task")
    return [_row("ECov pass %", f"{summary['ecov_pass_rate']:.1f}   (the headline: {scope}; the {n} of {tasks} "
                                "tasks with an interface contract count only their legal pass)"), paper]


def legal_lines(summary: dict[str, Any]) -> list[str]:
    """Legal pass % and coverage over the contract tasks, and the contract bins reached (part of the legal
    pass). A run on a track that binds no contract (cocotb) says why it has none."""
    lg = summary.get("legal") or {}
    if not lg.get("tasks"):
        lang = (summary.get("run") or {}).get("tb_lang")
        if lang and lang in track_names() and not get_track(lang).binds_contracts:
            return [_row("legal pass %", f"–   (the {lang} track binds no interface contract, docs/scoring.md: "
                                         "its ECov pass % is its paper pass %)")]
        return []
    lines = [_row("legal pass %", f"{lg['pass_rate']:.1f}   (on the {lg['tasks']} tasks with an interface contract: "
                  f"targets met before the first broken input rule; {lg['paper_pass_rate']:.1f} on them if broken "
                  f"rules were ignored; legal cov % {lg['avg_overall_best']:.1f})")]
    if lg.get("bins"):
        unknown = lg.get("bins_unknown_tasks") or 0
        lines.append(_row("contract bins", f"{lg['bins_hit']:g} of {lg['bins']} hit ({lg['bins_pct']:.1f}%)   "
                          "(before the first broken rule, best round, mean over samples; a legal pass needs every "
                          "bin" + (f"; {unknown} tasks recorded none" if unknown else "") + ")"))
    elif lg.get("bins_unknown_tasks"):
        lines.append(_row("contract bins", "–   (the samples predate bin records)"))
    return lines


def _first_sentence(text: str) -> str:
    first = (text or "").strip().split(". ")[0].strip().rstrip(".")
    return (first[:117] + "...") if len(first) > 120 else first


def _reason(text: str, max_tokens: int | None) -> str:
    """A re-ask or parse error in a few words; a cut-off answer names the --max-tokens it hit."""
    if "cut off at the length limit" in (text or ""):
        return "cut off at --max-tokens" + (f" {max_tokens}" if max_tokens else "")
    first = _first_sentence(text)
    if len(first) > 60 and ": " in first:  # "Your patch could not be applied, ...: hunk 1 of 1 (...) ..."
        first = first.split(": ")[0]
    if first.startswith("Your answer"):
        return "answer" + first[len("Your answer"):]
    return first[len("Your "):] if first.startswith("Your ") else (first or "empty answer")


def outcome_lines(rounds: list[Any], done: set[tuple[str, int]] | None = None,
                  max_tokens: int | None = None) -> list[str]:
    """Why the samples that did not pass ended as they did, from the round records: the last round's
    status per sample (an answer without a usable testbench is an "unusable answer", with its reason,
    not a rule rejection), and the reasons of the format re-asks, so a 0% reads as something to act on."""
    last: dict[tuple[str, int], Any] = {}
    reasks: dict[str, int] = {}
    for r in sorted(rounds, key=lambda r: (r.task_id, r.sample, r.round)):
        key = (r.task_id, r.sample)
        if done is not None and key not in done:
            continue
        last[key] = r
        for why in r.reask_reasons:
            k = _reason(why, max_tokens)
            reasks[k] = reasks.get(k, 0) + 1
    outcomes: dict[str, list[str]] = {}
    for (task, _), r in last.items():
        if r.passed:
            continue
        if r.parse_error and not r.testbench:
            why = "cut off at the length limit" if r.finish_reason == "length" else r.parse_error
            what = f"unusable answer ({_reason(why, max_tokens)})"
        else:
            status = (r.result or {}).get("status") or ""
            what = STATUS_WORDS.get(status, status or "no result")
        outcomes.setdefault(what, []).append(task)
    lines = []
    if outcomes:
        parts = []
        for what, tasks in sorted(outcomes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            names = sorted(set(tasks))
            shown = ", ".join(names[:3]) + (f", +{len(names) - 3} more" if len(names) > 3 else "")
            parts.append(f"{what} ({len(tasks)}): {shown}")
        lines += ["", _row("not passed", parts[0] + "   (each sample's last round)")]
        lines += [_row("", p) for p in parts[1:]]
    if reasks:
        lines.append(_row("re-ask reasons", " · ".join(f"{k}: {n}" for k, n in
                                                      sorted(reasks.items(), key=lambda kv: (-kv[1], kv[0])))))
    if any("cut off at --max-tokens" in k for k in [*reasks, *outcomes]):
        lines.append(_row("", "answers hit the token limit: raise --max-tokens (or ask for shorter testbenches)"))
    if outcomes:
        lines.append(_row("", "each round's errors and feedback: ecov-eval view RUN_DIR, or rounds.jsonl"))
    return lines


def folder_outcome_lines(run_dir: Any, only: set[str] | None = None) -> list[str]:
    """``outcome_lines`` of a run folder's finished samples (of the ``only`` tasks; [] when it cannot be
    read)."""
    folder = RunFolder(run_dir)
    try:
        scored = {(s.task_id, s.sample) for s in folder.samples()  # faults are no outcome
                  if not s.error and (only is None or s.task_id in only)}
        return outcome_lines(folder.rounds(), scored, folder.read_config().max_tokens)
    except (OSError, ValueError, TypeError, KeyError):
        return []
