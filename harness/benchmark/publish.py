"""Publish a built benchmark folder to the Hugging Face hub with a dataset card.

The card states provenance (upstream dataset, commit, source path), licenses and attribution (CVDP:
CC BY 4.0 non-code / Apache-2.0 code; VerilogEval: MIT; ECov designs: Apache-2.0), the target rule and
the calibration summary from manifest.json, and the tasks left out with their reasons.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ecov.harness.benchmark.bughunt_refs import REFERENCES as BUGHUNT_REFERENCES
from ecov.harness.benchmark.bughunt_refs import TARGETS as BUGHUNT_TARGETS
from ecov.harness.benchmark.mutantfiles import FOLDER as MUTANTS
from ecov.harness.benchmark.spec import target_rule
from ecov.harness.benchmark.store import MANIFEST, find_data_file, load_folder, read_manifest

CARDS: dict[str, dict[str, str]] = {
    "cvdp-ecov": {
        "pretty": "CVDP-ECov: CVDP cid012 testbench-stimulus problems as coverage tasks",
        "license_yaml": "license: other\nlicense_name: cc-by-4.0-and-apache-2.0\n"
                        "license_link: https://creativecommons.org/licenses/by/4.0/",
        "attribution": (
            "Derived from the Comprehensive Verilog Design Problems (CVDP) benchmark, "
            "[nvidia/cvdp-benchmark-dataset](https://huggingface.co/datasets/nvidia/cvdp-benchmark-dataset), "
            "Copyright 2025 NVIDIA Corporation. CVDP datapoints are licensed under CC BY 4.0 (non-code: "
            "prompts, specifications) and Apache-2.0 (code: RTL, testbenches). Changes: only cid012 "
            "datapoints are kept; records are reshaped into ECov task rows; targets are recalibrated for "
            "Verilator as described below."
        ),
    },
    "autoeval-ecov": {
        "pretty": "AutoEval-ECov: VerilogEval spec-to-rtl designs as coverage tasks",
        "license_yaml": "license: mit",
        "attribution": (
            "Derived from VerilogEval v2 (NVlabs/verilog-eval, `dataset_spec-to-rtl`), Copyright (c) "
            "2023-2024 NVIDIA Research Projects, MIT License. Changes: the reference design "
            "(`RefModule`) is the DUT, renamed `TopModule`; the problem prompt is the spec; VerilogEval's "
            "`test.sv` is adapted into a calibration testbench (DUT instance renamed, RefModule appended); "
            "for the few tasks whose interface contract VerilogEval's test breaks, an ECov-written reference "
            "testbench (original work, Apache-2.0) is the first calibration testbench."
        ),
    },
    "ecov-embedded": {
        "pretty": "ECov embedded suite: original designs",
        "license_yaml": "license: apache-2.0",
        "attribution": "Original designs written for ECov, Apache-2.0.",
    },
}


ABOUT = "ABOUT.md"
# What a published benchmark carries besides its rows: the random floor and the bug hunt's files (issue 31:
# the mutants, the kill-rate targets and the self-checking references they were calibrated from).
UPLOADED = ["README.md", MANIFEST, "data/*", "random_baseline.json", f"{MUTANTS}/*.json", BUGHUNT_TARGETS,
            f"{BUGHUNT_REFERENCES}/*.sv"]


class PublishError(RuntimeError):
    """Publishing failed; the message says where and what to check."""


def _yaml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_card(folder: str | os.PathLike, split: str = "test") -> str:
    """README.md for a built folder: YAML metadata (license, data files) and the card text."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    tasks = load_folder(folder, split)
    bench = manifest.get("benchmark") or (tasks[0].benchmark if tasks else "ecov")
    card = CARDS.get(bench, {"pretty": bench, "license_yaml": "license: other", "attribution": ""})
    data_file = find_data_file(folder, split).relative_to(folder).as_posix()
    cal = manifest.get("calibration") or {}
    left_out = list(manifest.get("skipped") or []) + list(cal.get("left_out") or [])
    diffs: dict[str, int] = {}
    for t in tasks:
        diffs[t.difficulty or "unrated"] = diffs.get(t.difficulty or "unrated", 0) + 1
    lines = [
        "---",
        card["license_yaml"],
        f"pretty_name: {_yaml_str(card['pretty'])}",
        "language:\n- en",
        "tags:\n- verilog\n- systemverilog\n- hardware-verification\n- code-coverage\n- testbench-generation",
        "size_categories:\n- n<1K",
        f"configs:\n- config_name: default\n  data_files:\n  - split: {split}\n    path: {data_file}",
        "---",
        "",
        f"# {card['pretty']}",
        "",
        f"{len(tasks)} tasks for ECov, which scores LLM-written SystemVerilog "
        "testbenches by the code coverage (Verilator 5.048: line, branch, toggle, expression) they reach "
        "on a design. A task passes when every target is met.",
        "",
        "## Usage",
        "",
        "```bash",
        "pip install .   # in a checkout of the ECov repository (its wheel ships this benchmark)",
        f"ecov-eval --model builtin/random --benchmark {bench} --limit 2      # the random floor, two tasks",
        f"ecov-eval --model openai/gpt-4o-mini --mode agentic --benchmark {bench}   # a model, every task",
        "ecov-eval --model openai/gpt-4o-mini --benchmark OWNER/NAME   # this dataset from the hub by id",
        "```",
        "",
        "Only a run over every task is ranked on the ECov leaderboard; `--limit` runs are for trying things.",
        "",
        "## Provenance",
        "",
        f"- upstream: {manifest.get('info', {}).get('upstream', '') or (tasks[0].source.get('upstream', '') if tasks else '')}",
        f"- upstream commit: {manifest.get('info', {}).get('commit', '') or '(not recorded)'}",
        f"- built by: ecov-data build {bench} (harness {manifest.get('harness_version', '')}) on "
        f"{manifest.get('built_at', '')}",
        f"- dataset hash: `{manifest.get('dataset_hash', '')}`",
        f"- difficulty: {', '.join(f'{k} {v}' for k, v in sorted(diffs.items()))}",
        "",
        "## License and attribution",
        "",
        card["attribution"],
        "",
        "## Target rule",
        "",
        f"`{target_rule(bench)}`, where the ceiling is the best figure a single reference "
        "testbench run reaches under Verilator (a long random-stimulus run where no reference finishes). "
        "See docs/benchmarks.md in the ECov repository.",
        "",
    ]
    about = folder / ABOUT
    if about.is_file():  # the benchmark's own notes (protocol, references, baselines), kept in the folder
        lines += [about.read_text().strip(), ""]
    if cal:
        lines += [
            "## Calibration",
            "",
            f"- calibrated: {cal.get('at', '')}, seed {cal.get('seed', '')}",
            _cal_line("before the rule", cal.get("before")),
            _cal_line("after the rule", cal.get("after")),
            "",
        ]
    else:
        lines += ["Targets are **not calibrated** yet (provisional upstream targets).", ""]
    lines += _baseline_section(folder)
    lines += [
        "## Fields",
        "",
        "`id`, `benchmark`, `rtl_files` [{name, content}], `spec_files`, `dut_module`, `dut_instance`, "
        "`instructions`, `targets` [{instance, metric, percent}], `difficulty`, `source` (upstream id, "
        "commit, license, upstream target, ceiling, rule), `reference_tbs` (calibration testbenches: "
        "never show them to a model).",
        "",
    ]
    lines += _mutants_section(folder)
    if left_out:
        lines += ["## Left out", ""] + [f"- `{s['id']}`: {s['reason']}" for s in left_out] + [""]
    return "\n".join(lines)


def _mutants_section(folder: Path) -> list[str]:
    """The bug hunt's mutants shipped beside the data (``mutants/<task>.json``, issue 31)."""
    files = sorted((folder / MUTANTS).glob("*.json")) if (folder / MUTANTS).is_dir() else []
    if not files:
        return []
    kept = sum(len(json.loads(f.read_text()).get("mutants") or []) for f in files)
    return ["## Bug-hunt mutants", "",
            f"`{MUTANTS}/<task id>.json`: {kept} killable mutants of {len(files)} tasks, each an expression-level "
            "edit of one RTL file (byte span, original text, replacement, kind), with the task's made/kept/dropped "
            "counts. ECov's bug hunt scores a self-checking testbench by the mutants it catches (docs/scoring.md, "
            "\"Bug hunt\")." + (f" `{BUGHUNT_TARGETS}`: each task's kill-rate target, calibrated from its "
                                 f"self-checking reference (`{BUGHUNT_REFERENCES}/<task id>.sv`; never show those "
                                 "to a model)." if (folder / BUGHUNT_TARGETS).is_file() else ""), ""]


def _cal_line(label: str, value) -> str:
    """One calibration line; the recorded text may already start with the label (it did, twice over)."""
    text = value.get("line", "") if isinstance(value, dict) else str(value or "")
    return f"- {label}: {text.removeprefix(label + ': ')}"


def _baseline_section(folder: Path) -> list[str]:
    """builtin/random per task (random_baseline.json): how far plain stimulus gets, and the random-hard split."""
    from ecov.harness.evaluation.baseline import RECORD_NAME, load_random_baseline, summary_line

    if not (folder / RECORD_NAME).is_file():
        return []
    rec = load_random_baseline(str(folder))
    if rec is None:
        return []
    s = summary_line(rec)
    lines = [
        "## Random-stimulus baseline",
        "",
        f"`builtin/random` (ECov's port-aware constrained-random generator, no LLM), n = {rec.n} samples per "
        f"task, seed {rec.seed}, protocol `{rec.protocol}`, up to {rec.max_rounds} agentic rounds: it passes "
        f"{s['direct_passed']}/{s['tasks']} tasks in direct mode and {s['agentic_passed']}/{s['tasks']} in "
        f"agentic mode (any of n; pass rate {s['direct_pass_rate']:g}% and {s['agentic_pass_rate']:g}%). "
        f"The **random-hard** split is the {s['random_hard']} tasks it fails in every agentic sample; a "
        "model's pass % on them is what it adds over random stimulus.",
        "",
        f"| task | difficulty | direct passes (of {rec.n}) | agentic passes (of {rec.n}) | agentic overall % |",
        "|---|---|---|---|---|",
    ]
    for tid, b in sorted(rec.tasks.items()):
        lines.append(f"| `{tid}` | {b.difficulty or '-'} | {b.direct} | {b.agentic} | {b.agentic_overall:g} |")
    return [*lines, ""]


TRAIN_ROWS = "ecov-train-rows"  # manifest kind of an ecov-train dataset folder (trainers/dataset.py)


def card_for(folder: str | os.PathLike) -> str:
    """The card to upload: a benchmark's is rendered here; an ecov-train dataset brings its own README.md."""
    folder = Path(folder)
    if read_manifest(folder).get("kind") == TRAIN_ROWS:
        readme = folder / "README.md"
        if not readme.is_file():
            raise PublishError(f"{folder}: an ecov-train dataset without README.md; rerun ecov-train synth")
        return readme.read_text()
    return render_card(folder)


def publish(folder: str | os.PathLike, repo_id: str, *, token: str | None = None, private: bool = False,
            endpoint: str | None = None, message: str | None = None) -> str:
    """Write README.md into ``folder``, create the dataset repo and upload the folder; returns its URL."""
    from huggingface_hub import HfApi

    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise PublishError(f"{folder} is not a built benchmark folder (no {MANIFEST}); run ecov-data build first")
    (folder / "README.md").write_text(card_for(folder))
    endpoint = endpoint or os.environ.get("HF_ENDPOINT") or None
    api = HfApi(endpoint=endpoint, token=token)
    where = endpoint or "https://huggingface.co"
    try:
        url = api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        api.upload_folder(
            repo_id=repo_id, repo_type="dataset", folder_path=str(folder),
            allow_patterns=UPLOADED,
            commit_message=message or f"ECov benchmark {read_manifest(folder).get('benchmark', '')}",
        )
    except Exception as e:  # hub errors come as HfHubHTTPError, httpx/requests or OSError
        first = (str(e).splitlines() or [""])[0][:300]
        raise PublishError(
            f"publishing {folder} to dataset {repo_id!r} at {where} failed: {type(e).__name__}: {first}. "
            "Check the network, the token (HF_TOKEN or --token, with write access) and the repo id."
        ) from e
    return str(url)

