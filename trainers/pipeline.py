"""``ecov-train pipeline``: the whole LLM4Cov recipe, one command, resumable at every step.

Steps, each in its own folder ``WORKDIR/NN-name/`` with ``log.txt``, its outputs and ``done.json``:

    corpus          ecov-data build ecov-train (or a prebuilt folder)
    rules           the 12 rules for the teacher's prompt (ecov-train rules)
    teacher-direct  teacher on the training designs, direct, rules injected
    teacher-agentic teacher on the training designs, agentic, rules injected
    tiny-model      (student_base "tiny:" only) a tiny random Qwen3 and a tokenizer trained on those texts
    stage0-synth / stage0-sft / stage0-eval     (eval: the checkpoint on the evaluation benchmark)
    stage1-direct   stage-0 student on the long designs, direct -n N
    stage1-synth (teacher rollouts) / stage1-sft / stage1-eval
    stage2-direct   stage-1 student, direct;  stage2-synth (the student's own rollouts) / -sft / -eval
    submission      ecov-leaderboard add of the final evaluation run

Resume by content: every step has a key, the digest of what shapes its outputs (its slice of the config,
the files it reads from outside the work folder) and of the previous step's key. ``done.json`` records the
key; a rerun skips a step whose key is unchanged and runs again (from an empty folder) a step whose key
changed and every step after it, saying why. A step cut off mid-way resumes in its folder when its key is
unchanged (ecov-eval resumes its run folder, synth its rollouts).

Before anything runs, the preflight (ecov.trainers.preflight; ``--check`` runs it alone) checks the whole
config. Models are served for the steps that need them and stopped after (ecov.trainers.serving): ``vllm``,
``tiny`` (ecov.trainers.tiny_server), ``endpoint`` (a server the user runs) or ``builtin`` (no server).
Servers and step commands have pid files (ecov.trainers.owned); a rerun stops what a killed run left.
SFT runs as a subprocess, through ``accelerate launch`` with the shipped FSDP config when asked. Builds
and simulations run where ``executor`` says: this machine (``local``) or a Ray cluster (``kind: ray``).
"""

from __future__ import annotations

import copy
import fcntl
import hashlib
import json
import os
import shutil
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from ecov.harness.core.run_folder import read_jsonl
from ecov.trainers.inject import EXPERT_RULES
from ecov.trainers.owned import PidFiles
from ecov.trainers.pipeline_config import (
    CONFIGS,
    EvalSpec,
    PipelineConfig,
    ServeSpec,
    StepFailed,
    load_pipeline,
    repo_path,
    stage_designs,
    stage_dict,
    stage_states_from,
)
from ecov.trainers.preflight import preflight
from ecov.trainers.serving import Served, check_serving, checkpoint_digest, run_owned, serve
from ecov.trainers.tiny_model import build_tiny_model
from ecov.trainers.tools import tool

__all__ = ["Pipeline", "PlannedStep", "StepFailed", "chain_keys", "load_pipeline", "plan_steps"]

# How the driver wires the steps: part of the first step's key, so a driver that wires them otherwise
# (another design set for a step, another output) runs again what an older one made.
DRIVER = 2
# Stage-config keys the driver sets itself (from earlier steps' outputs): not part of a synth step's key.
DRIVER_KEYS = ("output_dir", "sources", "student", "tasks", "sft")


def digest(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Dotted paths at which two JSON values differ, with both values: what the log says changed."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            out += differences(old.get(k, "<absent>"), new.get(k, "<absent>"), f"{where}.{k}" if where else str(k))
        return out
    if old == new:
        return []
    show = [json.dumps(v, default=str) for v in (old, new)]
    show = [s if len(s) <= 60 else s[:57] + "..." for s in show]
    return [f"{where or 'value'}: {show[0]} -> {show[1]}"]


def file_identity(path: str) -> str:
    """A local file's or folder's content digest (what a step reads from outside the work folder); a
    name that is not a local path (a hub id, a benchmark name) stands for itself."""
    if not path:
        return ""
    p = repo_path(path)
    if p.is_file():
        return hashlib.sha256(p.read_bytes()).hexdigest()
    if p.is_dir():
        return checkpoint_digest(p)
    return path


def _served_conf(spec: ServeSpec) -> dict[str, Any]:
    return spec.identity()


def _eval_conf(spec: EvalSpec) -> dict[str, Any]:
    return spec.identity()


@dataclass
class PlannedStep:
    name: str
    conf: dict[str, Any]  # what shapes this step's outputs, besides the steps before it
    key: str = ""


def plan_steps(cfg: PipelineConfig) -> list[PlannedStep]:
    """Every step of the run, in order, with its key (chained over the steps before it)."""
    steps = [PlannedStep("corpus", {"driver": DRIVER, "corpus": cfg.corpus, "source": file_identity(str(
                 cfg.corpus.get("prebuilt") or cfg.corpus.get("source", ""))), "sides": corpus_sides(cfg)}),
             PlannedStep("rules", {"rules": digest(EXPERT_RULES)})]
    teacher = {"teacher": _served_conf(cfg.teacher), "teacher_model": file_identity(cfg.teacher.model or ""),
               "designs": "all"}
    steps += [PlannedStep("teacher-direct", {**teacher, "eval": _eval_conf(cfg.teacher_direct)}),
              PlannedStep("teacher-agentic", {**teacher, "eval": _eval_conf(cfg.teacher_agentic)})]
    if cfg.tiny:
        steps.append(PlannedStep("tiny-model", {"tiny_model": asdict(cfg.tiny_model)}))
        student = {"tiny_model": asdict(cfg.tiny_model)}
    else:
        student = {"student_base": cfg.student_base, "identity": file_identity(cfg.student_base)}
    serve_conf = _served_conf(cfg.student_serve)
    for stage in cfg.stage_list:
        d = stage_dict(cfg, stage)
        synth = {k: v for k, v in d.items() if k not in DRIVER_KEYS}
        reviser = copy.deepcopy(synth.get("rejection", {}).get("reviser", {}))
        for k in ("model", "api_base"):
            reviser.pop(k, None)  # set by the driver: the served teacher or student
        synth["rejection"] = {**synth.get("rejection", {}), "reviser": reviser}
        if stage:
            steps.append(PlannedStep(f"stage{stage}-direct", {"serve": serve_conf, "designs": stage_designs(cfg, stage),
                                                               "eval": _eval_conf(cfg.student_direct)}))
            synth["rollout_model"] = teacher if stage == 1 else serve_conf
        if stage == 2:
            synth["states_from"] = stage_states_from(cfg)
        steps.append(PlannedStep(f"stage{stage}-synth", {"stage": synth, "student": student,
                                                         "designs": stage_designs(cfg, stage)}))
        launcher = {**cfg.sft}
        if cfg.sft.get("launcher") == "accelerate":
            launcher["config_digest"] = file_identity(str(cfg.sft.get("accelerate_config",
                                                                      CONFIGS / "accelerate_fsdp.yaml")))
        steps.append(PlannedStep(f"stage{stage}-sft", {"sft": d.get("sft", {}), "launcher": launcher,
                                                       "allow_empty_stage": cfg.allow_empty_stage}))
        steps.append(PlannedStep(f"stage{stage}-eval", {"serve": serve_conf, "eval": _eval_conf(cfg.final_eval),
                                                        "benchmark": cfg.eval_benchmark}))
    if cfg.submission.get("enabled", True):
        steps.append(PlannedStep("submission", {"submission": cfg.submission}))
    return chain_keys(steps)


def corpus_sides(cfg: PipelineConfig) -> list[str]:
    """The corpus folders the stages need: all designs, and each side of the split a stage asks for."""
    return ["all"] + sorted({stage_designs(cfg, s) for s in cfg.stage_list} - {"all"})


def chain_keys(steps: list[PlannedStep]) -> list[PlannedStep]:
    """Each step's key: its name, its conf and the key of the step before it (so a change re-runs every
    step after it)."""
    prev = ""
    for s in steps:
        s.key = digest({"step": s.name, "conf": s.conf, "prev": prev})[:16]
        prev = s.key
    return steps


def synth_counts(out: Path) -> dict[str, Any]:
    """Stages 1-2: states, selected states, rollouts and judged rounds by outcome, read from the outputs."""
    counts: dict[str, Any] = {}
    if (out / "states.jsonl").exists():
        states = list(read_jsonl(out / "states.jsonl"))
        counts.update(states=len(states), selected=sum(1 for s in states if s.get("selected")))
    if (out / "rollouts" / "samples.jsonl").exists():
        counts["rollouts"] = sum(1 for _ in read_jsonl(out / "rollouts" / "samples.jsonl"))
    if (out / "rejection.jsonl").exists():
        reasons: dict[str, int] = {}
        for t in read_jsonl(out / "rejection.jsonl"):
            reasons[t.get("reason") or "kept"] = reasons.get(t.get("reason") or "kept", 0) + 1
        counts["rounds_by_reason"] = dict(sorted(reasons.items()))
    return counts


class Pipeline:
    def __init__(self, cfg: PipelineConfig, log: Callable[[str], None] = print):
        self.cfg = cfg
        self.root = Path(cfg.workdir)
        self.log = log
        self.n = 0
        self.summary: list[dict[str, Any]] = []
        self.plan: list[PlannedStep] = []  # made once the preflight passed
        self.forced = False  # a step ran in this invocation: every later step runs too
        self.pids = PidFiles(self.root)
        self.base_model = cfg.student_base  # the tiny model's folder once built

    # -- one step ----------------------------------------------------------------------------------
    def _folder(self, i: int) -> Path:
        return self.root / f"{i + 1:02d}-{self.plan[i].name}"

    def _recorded(self, i: int) -> dict[str, Any] | None:
        try:
            return json.loads((self._folder(i) / "done.json").read_text())
        except (OSError, ValueError):
            return None

    def _will_run(self, i: int) -> bool:
        old = self._recorded(i)
        return self.forced or old is None or old.get("key") != self.plan[i].key

    def _why(self, i: int, old: dict[str, Any]) -> str:
        if "key" not in old:
            return "its done.json holds no key (made by an older ECov)"
        changed = differences(old.get("conf", {}), self.plan[i].conf)
        if changed:
            more = f" and {len(changed) - 4} more" if len(changed) > 4 else ""
            return "its config or inputs changed: " + "; ".join(changed[:4]) + more
        return "an earlier step changed or ran again"

    def step(self, name: str, fn: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
        i, self.n = self.n, self.n + 1
        planned = self.plan[i]
        if planned.name != name:
            raise RuntimeError(f"step {i + 1} is {name}, planned {planned.name}")
        folder, tag = self._folder(i), f"[{i + 1:02d} {name}]"
        old = self._recorded(i)
        if old is not None and not self._will_run(i):
            self.log(f"{tag} done already: {old.get('summary', '')}")
            out = old
        else:
            started = folder / "started.json"
            if old is not None:
                self.log(f"{tag} runs again: {self._why(i, old)}")
                shutil.rmtree(folder)
            elif folder.exists():
                try:
                    was = json.loads(started.read_text()).get("key")
                except (OSError, ValueError):
                    was = None
                if was == planned.key and not self.forced:
                    self.log(f"{tag} resuming in {folder} (cut off before it finished)")
                else:
                    self.log(f"{tag} starts afresh: {folder} holds a cut-off run "
                             + ("of other inputs" if was else "of an unknown config") + ", removed")
                    shutil.rmtree(folder)
            folder.mkdir(parents=True, exist_ok=True)
            started.write_text(json.dumps({"key": planned.key, "conf": planned.conf}, indent=2, sort_keys=True))
            t0 = time.monotonic()
            self.log(f"{tag} ...")
            out = fn(folder)
            out["seconds"] = round(time.monotonic() - t0, 1)
            out["key"], out["conf"] = planned.key, planned.conf
            tmp = folder / "done.json.tmp"
            tmp.write_text(json.dumps(out, indent=2, sort_keys=True, default=str))
            os.replace(tmp, folder / "done.json")
            started.unlink(missing_ok=True)
            self.forced = True
            self.log(f"{tag} {out.get('summary', '')} ({out['seconds']} s)")
        self.summary.append({"step": f"{i + 1:02d}-{name}", **{k: v for k, v in out.items() if k != "conf"}})
        return out

    # -- processes ---------------------------------------------------------------------------------
    def _run(self, cmd: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        rc = run_owned(cmd, log, self.root, f"step-{self.n:02d}", {**self.cfg.env(), **(env or {})})
        if rc != 0:
            with open(log, errors="replace") as f:
                tail = "".join(deque(f, maxlen=15))
            raise StepFailed(f"{cmd[0]} exited {rc} (log: {log}):\n{tail}")

    @contextmanager
    def _serving(self, spec: ServeSpec, model_path: str, name: str, steps: int, which: str) -> Iterator[Served | None]:
        """``serve`` for the next ``steps`` steps, unless none of them will run (a resumed run starts no
        server it does not need)."""
        if not any(self._will_run(self.n + j) for j in range(steps)):
            yield None
            return
        with serve(spec, model_path, name, self.root, self.root / f"serve-{name}.log", which,
                   self.cfg.env()) as served:
            yield served

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One driver per work folder; a killed driver's lock goes with it (flock)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                f.seek(0)
                raise StepFailed(f"another ecov-train pipeline ({f.read().strip() or 'pid unknown'}) is running "
                                 f"on {self.root}: wait for it or stop it first") from None
            f.seek(0)
            f.truncate()
            f.write(f"pid {os.getpid()}\n")
            f.flush()
            yield

    # -- the chain ---------------------------------------------------------------------------------
    def run(self) -> list[dict[str, Any]]:
        report = preflight(self.cfg)
        for note in report.notes:
            self.log(f"preflight: {note}")
        if report.problems:
            raise StepFailed("the preflight found problems (nothing was run):\n" +
                             "\n".join(f"  - {p}" for p in report.problems))
        self.plan = plan_steps(self.cfg)
        with self._locked():
            self.pids.stop_leftovers(self.log)
            return self._chain()

    def _chain(self) -> list[dict[str, Any]]:
        cfg = self.cfg
        corpus = self.step("corpus", self._corpus)
        designs = {side: corpus["folders"][side] for side in corpus["folders"]}
        train = designs["all"]  # the teacher answers every design; stage 0 keeps the rows of its own
        rules = self.step("rules", self._rules)["path"]
        with self._serving(cfg.teacher, cfg.teacher.model, "teacher", 2, "teacher") as teacher:
            td = self.step("teacher-direct", lambda f: self._eval(f, teacher, cfg.teacher_direct, train, "train",
                                                                  Path(rules)))
            ta = self.step("teacher-agentic", lambda f: self._eval(f, teacher, cfg.teacher_agentic, train, "train",
                                                                   Path(rules)))
        ckpt = cfg.student_base
        if cfg.tiny:  # a tiny random student, built on the spot from the texts it will see
            ckpt = self.step("tiny-model", lambda f: self._tiny(f, [td["run"], ta["run"]]))["path"]
        self.base_model = ckpt
        prev_runs = [td["run"], ta["run"]]
        final: dict[str, Any] = {}
        runs: dict[str, str] = {}  # each stage's direct run, by step name
        for stage in cfg.stage_list:
            c = ckpt
            tasks = designs[stage_designs(cfg, stage)]
            if stage == 0:
                syn = self.step("stage0-synth", lambda f, c=c, t=tasks: self._synth(f, 0, prev_runs, c, t, None))
            else:
                with self._serving(cfg.student_serve, c, f"stage{stage - 1}", 2 if stage == 2 else 1,
                                   "student_serve") as st:
                    direct = self.step(f"stage{stage}-direct", lambda f, st=st, c=c, t=tasks: self._eval(
                        f, st, cfg.student_direct, t, "train", checkpoint=c))
                    runs[f"stage{stage}-direct"] = direct["run"]
                    if stage == 2:
                        src = runs["stage1-direct"] if stage_states_from(cfg) == "stage1-direct" else direct["run"]
                        syn = self.step("stage2-synth", lambda f, st=st, s=src, c=c, t=tasks: self._synth(
                            f, 2, [s], c, t, st))
                if stage == 1:
                    with self._serving(cfg.teacher, cfg.teacher.model, "teacher", 1, "teacher") as t:
                        syn = self.step("stage1-synth", lambda f, r=t, d=direct, c=c, t=tasks: self._synth(
                            f, 1, [d["run"]], c, t, r))
            sft = self.step(f"stage{stage}-sft", lambda f, s=syn, c=c, stage=stage: self._sft(f, stage, s, c))
            ckpt = sft["checkpoint"]
            with self._serving(cfg.student_serve, ckpt, f"stage{stage}", 1, "student_serve") as st:
                final = self.step(f"stage{stage}-eval", lambda f, st=st, c=ckpt: self._eval(
                    f, st, cfg.final_eval, cfg.eval_benchmark, "test", checkpoint=c))
        if cfg.submission.get("enabled", True):
            self.step("submission", lambda f: self._submit(f, final["run"]))
        (self.root / "pipeline.json").write_text(json.dumps(self.summary, indent=2, sort_keys=True, default=str))
        return self.summary

    # -- pieces ------------------------------------------------------------------------------------
    def _eval(self, folder: Path, served: Served | None, spec: EvalSpec, benchmark: str, split: str,
              suffix: Path | None = None, checkpoint: str = "") -> dict[str, Any]:
        assert served is not None, "a step that runs has its server"
        run = folder / "run"
        cmd = tool("ecov-eval") + ["--model", served.model, "--mode", spec.mode, "--benchmark", benchmark,
                                   "--split", split, "-n", str(spec.n), "--out", str(run), "--no-progress",
                                   "--max-tokens", str(spec.max_tokens), "--concurrency", str(spec.concurrency)]
        if served.api_base:
            cmd += ["--api-base", served.api_base]
        if spec.mode == "agentic" and spec.max_rounds:
            cmd += ["--max-rounds", str(spec.max_rounds)]
        if spec.workers:
            cmd += ["--workers", str(spec.workers)]
        if spec.limit:
            cmd += ["--limit", str(spec.limit)]
        for t in spec.task_ids:
            cmd += ["--task-id", t]
        if suffix is not None:
            cmd += ["--instructions-suffix", str(suffix)]
        if self.cfg.executor.kind != "local":
            cmd += self.cfg.executor.args()
        cmd += list(spec.extra)
        self._run(cmd, folder / "log.txt", {"OPENAI_API_KEY": os.environ.get("OPENAI_API_KEY", "unused-local")})
        name = served.model.split("/", 1)[-1]
        check_serving(served, name)  # the same checkpoint answered to the end
        s = json.loads((run / "summary.json").read_text())
        line = {k: s.get(k) for k in ("tasks", "samples", "pass_rate", "avg_overall", "errors") if k in s}
        out = {"run": str(run), "summary": json.dumps(line) if line else "see run/summary.json"}
        if served.root:
            out.update(served=served.root, checkpoint=checkpoint)
        return out

    def _stage_config(self, stage: int, out: Path, sources: list[str], init: str, tasks: str,
                      reviser: Served | None) -> dict[str, Any]:
        c = stage_dict(self.cfg, stage)
        c["output_dir"] = str(out)
        c["sources"] = sources
        c["student"] = {"base": init if stage == 0 else self.base_model, "init": init if stage else ""}
        c["tasks"] = {"benchmark": tasks, "split": "train"}
        if reviser is not None:
            c.setdefault("rejection", {}).setdefault("reviser", {}).update(model=reviser.model,
                                                                            api_base=reviser.api_base)
        return c

    def _synth(self, folder: Path, stage: int, sources: list[str], init: str, tasks: str,
               reviser: Served | None) -> dict[str, Any]:
        path = folder / f"stage{stage}.yaml"
        path.write_text(yaml.safe_dump(self._stage_config(stage, folder / "out", sources, init, tasks, reviser),
                                       sort_keys=False))
        ex = self.cfg.executor
        cmd = tool("ecov-train") + ["synth", "--config", str(path), *ex.args()]
        if ex.workers:
            cmd += ["--workers", str(ex.workers)]
        self._run(cmd, folder / "log.txt")
        rows = folder / "out" / "rows.jsonl"
        n = sum(1 for _ in open(rows))
        counts = synth_counts(folder / "out")
        what = ", ".join(f"{k} {v}" for k, v in counts.items() if k != "rounds_by_reason")
        return {"config": str(path), "rows": n, "rows_path": str(rows), **counts,
                "summary": f"{n} training rows" + (f" ({what})" if what else "")}

    def _sft(self, folder: Path, stage: int, syn: dict[str, Any], prev: str) -> dict[str, Any]:
        rows = int(syn["rows"])
        if rows == 0:
            if not self.cfg.allow_empty_stage:
                raise StepFailed(f"{syn['config']}: synth kept no row, so there is nothing to train on")
            return {"checkpoint": prev, "skipped": True,
                    "summary": f"no rows: SFT skipped, the checkpoint {prev} is carried on"}
        c = yaml.safe_load(Path(syn["config"]).read_text())
        c["output_dir"] = str(folder / "out")
        c["sft"] = stage_dict(self.cfg, stage).get("sft", {})  # this step's own: a changed sft re-runs only SFT
        path = folder / f"stage{stage}.yaml"
        path.write_text(yaml.safe_dump(c, sort_keys=False))
        s = self.cfg.sft
        cli = ["-m", "ecov.trainers.cli", "sft", "--config", str(path), "--rows", syn["rows_path"]]
        if s.get("launcher", "python") == "accelerate":
            cmd = tool("accelerate-launch") + ["--config_file",
                                               str(repo_path(s.get("accelerate_config",
                                                                   CONFIGS / "accelerate_fsdp.yaml"))),
                                               "--num_processes", str(s.get("processes", 8)), *cli]
        else:
            cmd = [sys.executable, *cli]
        self._run(cmd, folder / "log.txt")
        summ = json.loads((folder / "out" / "train_summary.json").read_text())
        losses = summ.get("losses") or []
        return {"checkpoint": summ["checkpoint"], "rows": summ["rows"], "steps": summ["steps"],
                "first_loss": losses[0]["loss"] if losses else None, "final_loss": summ.get("final_loss"),
                "summary": f"{summ['rows']} rows, {summ['steps']} steps, loss "
                           f"{losses[0]['loss'] if losses else float('nan'):.3f} -> {summ.get('final_loss') or float('nan'):.3f}"
                           f" -> {summ['checkpoint']}"}

    def _corpus(self, folder: Path) -> dict[str, Any]:
        c = self.cfg.corpus
        if c.get("prebuilt"):
            folders = {side: c.get(f"prebuilt_{side}", c["prebuilt"]) for side in corpus_sides(self.cfg)}
            return {"folders": folders, "summary": f"prebuilt {c['prebuilt']}"}
        folders: dict[str, str] = {}
        for keep in corpus_sides(self.cfg):
            dest = folder / f"ecov-train-{keep}"
            cmd = tool("ecov-data") + ["build", "ecov-train", "--source", str(repo_path(c["source"]))
                                       if repo_path(c["source"]).exists() else str(c["source"]), "--out", str(dest),
                                       "--keep", keep, "--skip-bad", "-j", str(c.get("jobs", 1))]
            for k in ("tokenizer", "split_tokens", "threshold"):
                if c.get(k):
                    cmd += [f"--{k.replace('_', '-')}", str(c[k])]
            for a in c.get("against", []):
                cmd += ["--against", a]
            if c.get("limit"):
                cmd += ["--limit", str(c["limit"])]
            try:
                self._run(cmd, folder / "log.txt")
            except StepFailed:
                if keep == "long" and c.get("long_optional"):
                    folders[keep] = folders["all"]  # no long design in a tiny corpus: stages 1-2 use them all
                    continue
                raise
            folders[keep] = str(dest)
        m = json.loads((Path(folders["all"]) / "manifest.json").read_text())
        return {"folders": folders, "summary": f"{m['count']} designs ({m['info'].get('long', 0)} long), "
                                               f"{len(m['skipped'])} left out"}

    def _tiny(self, folder: Path, runs: list[str]) -> dict[str, Any]:
        texts = []
        for run in runs:  # the chats and answers of the teacher's runs: the texts the student will see
            for d in read_jsonl(Path(run) / "rounds.jsonl"):
                texts += [m["content"] for m in d.get("messages") or []] + [d.get("response") or ""]
        t = self.cfg.tiny_model
        path = build_tiny_model(folder / "model", texts, vocab_size=t.vocab_size, hidden_size=t.hidden_size,
                                layers=t.layers, heads=t.heads, kv_heads=t.kv_heads,
                                intermediate_size=t.intermediate_size, seed=t.seed)
        return {"path": str(path), "summary": f"tiny random Qwen3 ({t.layers} layers, width {t.hidden_size}, "
                                              f"vocabulary {t.vocab_size}) at {path}"}

    def _rules(self, folder: Path) -> dict[str, Any]:
        path = folder / "rules.txt"
        self._run(tool("ecov-train") + ["rules", "--out", str(path)], folder / "log.txt")
        return {"path": str(path), "summary": "12 rules for the teacher's prompt"}

    def _submit(self, folder: Path, run: str) -> dict[str, Any]:
        s = self.cfg.submission
        subs = folder / "submissions"
        name = s.get("name", "ecov-llm4cov-student")
        cmd = tool("ecov-leaderboard") + ["add", run, "--name", name, "--model", s.get("model", name),
                                          "--type", s.get("type", "trained"), "--submissions", str(subs)]
        if s.get("size_b"):
            cmd += ["--size-b", str(s["size_b"])]
        self._run(cmd, folder / "log.txt")
        return {"submission": str(subs / name), "summary": f"submission folder {subs / name} "
                                                           "(copy it into leaderboard/submissions/ and open a PR)"}
