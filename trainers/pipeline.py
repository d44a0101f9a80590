"""``ecov-train pipeline``: the whole LLM4Cov recipe, one command, resumable at every step.

Steps (each in its own folder ``WORKDIR/NN-name/`` with ``log.txt``, its outputs and ``done.json``; a
step whose ``done.json`` exists is skipped, so rerunning the command resumes; ecov-eval resumes its own
run folders inside a step that was cut off):

    corpus          ecov-data build ecov-train (or a prebuilt folder)
    rules           the 12 rules for the teacher's prompt (ecov-train rules)
    teacher-direct  teacher on the training designs, direct, rules injected
    teacher-agentic teacher on the training designs, agentic, rules injected
    stage0-synth / stage0-sft / stage0-eval     (eval: the checkpoint on the evaluation benchmark)
    stage1-direct   stage-0 student on the long designs, direct -n N
    stage1-synth (teacher rollouts) / stage1-sft / stage1-eval
    stage2-direct   stage-1 student, direct;  stage2-synth (the student's own rollouts) / -sft / -eval
    submission      ecov-leaderboard add of the final evaluation run

Models are served for the steps that need them and stopped after: ``vllm`` (``vllm serve``), ``tiny``
(ecov.trainers.tiny_server, CPU smoke), ``endpoint`` (a server the user runs) or ``builtin`` (no server).
SFT runs as a subprocess, through ``accelerate launch`` with the shipped FSDP config when asked. Builds and
simulations (evaluations, synth's rollouts, revisions and re-scoring) run where ``executor`` says: this
machine (``local``) or a Ray cluster (``kind: ray``, ``ray_address``).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ecov.harness.benchmark.store import load_benchmark
from ecov.harness.core.protocol import get_protocol
from ecov.harness.tracks.base import tb_io
from ecov.trainers.config import ConfigError
from ecov.trainers.tiny_model import build_tiny_model

CONFIGS = Path(__file__).resolve().parent / "configs"


@dataclass
class ServeSpec:
    kind: str = "vllm"  # vllm | tiny | endpoint | builtin
    model: str = ""  # builtin: builtin/...; endpoint: the LiteLLM model string; vllm/tiny: a path or hub id
    api_base: str = ""  # endpoint only
    port: int = 8000
    args: list[str] = field(default_factory=list)  # extra `vllm serve` arguments (e.g. --tensor-parallel-size 2)
    startup_timeout: float = 1800.0


@dataclass
class EvalSpec:
    n: int = 1
    mode: str = "agentic"
    max_rounds: int = 0  # 0: the protocol's
    concurrency: int = 64
    workers: int = 0  # simulations at once (0: ecov-eval's default)
    limit: int = 0
    task_ids: list[str] = field(default_factory=list)
    max_tokens: int = 8192
    extra: list[str] = field(default_factory=list)


@dataclass
class ExecutorSpec:
    """Where the steps' builds and simulations run (ecov.harness.scoring.executor): ``local`` or ``ray``."""

    kind: str = "local"
    ray_address: str = ""  # the head's HOST:PORT or auto; empty: $RAY_ADDRESS, else a local cluster
    workers: int = 0  # synth with kind local: builds at once (0: ecov-train's default)

    def args(self) -> list[str]:
        """The ``--executor`` / ``--ray-address`` arguments of ecov-eval and ecov-train synth."""
        return ["--executor", self.kind] + (["--ray-address", self.ray_address] if self.ray_address else [])


@dataclass
class PipelineConfig:
    workdir: str
    corpus: dict[str, Any]
    teacher: ServeSpec
    student_base: str
    eval_benchmark: str = "cvdp-ecov"
    teacher_direct: EvalSpec = field(default_factory=lambda: EvalSpec(mode="direct"))
    teacher_agentic: EvalSpec = field(default_factory=lambda: EvalSpec(mode="agentic", max_rounds=3))
    student_direct: EvalSpec = field(default_factory=lambda: EvalSpec(mode="direct", n=5))
    final_eval: EvalSpec = field(default_factory=lambda: EvalSpec(mode="agentic", n=5))
    student_serve: ServeSpec = field(default_factory=ServeSpec)
    stages: dict[str, dict[str, Any]] = field(default_factory=dict)  # stage0/1/2: base config + overrides
    sft: dict[str, Any] = field(default_factory=dict)  # launcher: accelerate | python; accelerate_config; processes
    allow_empty_stage: bool = False  # a stage whose synth keeps no row: error (default) or carry the checkpoint on
    submission: dict[str, Any] = field(default_factory=dict)
    stage_list: list[int] = field(default_factory=lambda: [0, 1, 2])
    executor: ExecutorSpec = field(default_factory=ExecutorSpec)


def _dc(cls, d: dict[str, Any] | None, where: str):
    d = dict(d or {})
    known = set(cls.__dataclass_fields__)
    bad = sorted(set(d) - known)
    if bad:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(bad)} (known: {', '.join(sorted(known))})")
    return cls(**d)


def load_pipeline(path: str | Path) -> PipelineConfig:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    d = yaml.safe_load(p.read_text()) or {}
    specs = {"teacher": ServeSpec, "student_serve": ServeSpec, "teacher_direct": EvalSpec,
             "teacher_agentic": EvalSpec, "student_direct": EvalSpec, "final_eval": EvalSpec,
             "executor": ExecutorSpec}
    for k, cls in specs.items():
        if k in d:
            d[k] = _dc(cls, d[k], k)
    cfg = _dc(PipelineConfig, d, str(p))
    for k in ("workdir", "corpus", "teacher", "student_base"):
        if not getattr(cfg, k):
            raise ConfigError(f"{p}: {k} is required")
    if cfg.teacher.kind not in ("vllm", "tiny", "endpoint", "builtin") or \
            cfg.student_serve.kind not in ("vllm", "tiny"):
        raise ConfigError(f"{p}: teacher.kind is vllm|tiny|endpoint|builtin; student_serve.kind is vllm|tiny")
    if cfg.executor.kind not in ("local", "ray") or (cfg.executor.ray_address and cfg.executor.kind != "ray"):
        raise ConfigError(f"{p}: executor.kind is local|ray (ray_address only with ray)")
    return cfg


# -- processes --------------------------------------------------------------------------------------

def _tool(name: str) -> list[str]:
    """A console script of this installation (the one next to this interpreter first)."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return [str(here)]
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} not found next to {sys.executable} or on PATH")
    return [found]


class StepFailed(RuntimeError):
    """A step's command exited non-zero; the message names the command and its log."""


def _run(cmd: list[str], log: Path, env: dict[str, str] | None = None) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}).returncode
    if rc != 0:
        with open(log, errors="replace") as f:
            tail = "".join(deque(f, maxlen=15))
        raise StepFailed(f"{cmd[0]} exited {rc} (log: {log}):\n{tail}")


def _wait_ready(url: str, proc: subprocess.Popen, timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise StepFailed(f"the model server exited {proc.returncode} before it was ready (log: {log})")
        try:
            with urllib.request.urlopen(url + "/models", timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1.0)
    raise StepFailed(f"the model server at {url} was not ready after {timeout:.0f} s (log: {log})")


@dataclass
class Served:
    model: str  # LiteLLM model string
    api_base: str | None


@contextmanager
def serve(spec: ServeSpec, model_path: str, name: str, log: Path) -> Iterator[Served]:
    """Start the server ``spec`` asks for on ``model_path`` (served as ``name``), yield how to reach it,
    stop it after (its whole process group)."""
    if spec.kind == "builtin":
        yield Served(spec.model or model_path, None)
        return
    if spec.kind == "endpoint":
        yield Served(spec.model or f"hosted_vllm/{name}", spec.api_base)
        return
    if spec.kind == "vllm":
        cmd = _tool("vllm") + ["serve", model_path, "--served-model-name", name, "--port", str(spec.port),
                                "--dtype", "bfloat16", *spec.args]
        litellm = f"hosted_vllm/{name}"
    else:
        cmd = [sys.executable, "-m", "ecov.trainers.tiny_server", "--model", model_path, "--name", name,
               "--port", str(spec.port), *spec.args]
        litellm = f"openai/{name}"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{spec.port}/v1"
    try:
        _wait_ready(url, proc, spec.startup_timeout, log)
        yield Served(litellm, url)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


# -- the driver -------------------------------------------------------------------------------------

def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in (over or {}).items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


class Pipeline:
    def __init__(self, cfg: PipelineConfig, log: Callable[[str], None] = print):
        self.cfg = cfg
        self.root = Path(cfg.workdir)
        self.log = log
        self.n = 0
        self.summary: list[dict[str, Any]] = []

    # one step
    def step(self, name: str, fn: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
        self.n += 1
        folder = self.root / f"{self.n:02d}-{name}"
        done = folder / "done.json"
        if done.exists():
            out = json.loads(done.read_text())
            self.log(f"[{self.n:02d} {name}] done already: {out.get('summary', '')}")
        else:
            folder.mkdir(parents=True, exist_ok=True)
            t0 = time.monotonic()
            self.log(f"[{self.n:02d} {name}] ...")
            out = fn(folder)
            out["seconds"] = round(time.monotonic() - t0, 1)
            done.write_text(json.dumps(out, indent=2, sort_keys=True))
            self.log(f"[{self.n:02d} {name}] {out.get('summary', '')} ({out['seconds']} s)")
        self.summary.append({"step": f"{self.n:02d}-{name}", **out})
        return out

    # pieces
    def _eval(self, folder: Path, served: Served, spec: EvalSpec, benchmark: str, split: str,
              suffix: Path | None = None) -> dict[str, Any]:
        run = folder / "run"
        cmd = _tool("ecov-eval") + ["--model", served.model, "--mode", spec.mode, "--benchmark", benchmark,
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
        _run(cmd, folder / "log.txt", {"OPENAI_API_KEY": os.environ.get("OPENAI_API_KEY", "unused-local")})
        s = json.loads((run / "summary.json").read_text())
        line = {k: s.get(k) for k in ("tasks", "samples", "pass_rate", "avg_overall", "errors") if k in s}
        return {"run": str(run), "summary": json.dumps(line) if line else "see run/summary.json"}

    def _stage_config(self, stage: int, folder: Path, sources: list[str], init: str, tasks: str,
                      reviser: Served | None) -> Path:
        spec = self.cfg.stages.get(f"stage{stage}", {})
        base_path = Path(spec.get("base", CONFIGS / f"stage{stage}.yaml"))
        if not base_path.is_absolute() and not base_path.exists():
            base_path = CONFIGS.parent.parent / base_path  # a repo-relative path run from elsewhere
        base = yaml.safe_load(base_path.read_text())
        c = _merge(base, spec.get("overrides", {}))
        c["output_dir"] = str(folder / "out")
        c["sources"] = sources
        c["student"] = {"base": self.cfg.student_base, "init": init if stage else ""}
        c["tasks"] = {"benchmark": tasks, "split": "train"}
        if reviser is not None:
            c.setdefault("rejection", {}).setdefault("reviser", {}).update(model=reviser.model, api_base=reviser.api_base)
        path = folder / f"stage{stage}.yaml"
        path.write_text(yaml.safe_dump(c, sort_keys=False))
        return path

    def _synth(self, folder: Path, cfg_path: Path) -> dict[str, Any]:
        ex = self.cfg.executor
        cmd = _tool("ecov-train") + ["synth", "--config", str(cfg_path), *ex.args()]
        if ex.workers:
            cmd += ["--workers", str(ex.workers)]
        _run(cmd, folder / "log.txt")
        rows = folder / "out" / "rows.jsonl"
        n = sum(1 for _ in open(rows))
        return {"config": str(cfg_path), "rows": n, "rows_path": str(rows), "summary": f"{n} training rows"}

    def _sft(self, folder: Path, cfg_path: Path, rows: int, prev: str) -> dict[str, Any]:
        if rows == 0:
            if not self.cfg.allow_empty_stage:
                raise StepFailed(f"{cfg_path}: synth kept no row, so there is nothing to train on")
            return {"checkpoint": prev, "skipped": True,
                    "summary": f"no rows: SFT skipped, the checkpoint {prev} is carried on"}
        s = self.cfg.sft
        cli = ["-m", "ecov.trainers.cli", "sft", "--config", str(cfg_path)]
        if s.get("launcher", "python") == "accelerate":
            cmd = _tool("accelerate") + ["launch", "--config_file", str(s.get("accelerate_config",
                                                                              CONFIGS / "accelerate_fsdp.yaml")),
                                         "--num_processes", str(s.get("processes", 8)), *cli]
        else:
            cmd = [sys.executable, *cli]
        _run(cmd, folder / "log.txt")
        summ = json.loads((folder / "out" / "train_summary.json").read_text())
        return {"checkpoint": summ["checkpoint"], "rows": summ["rows"], "steps": summ["steps"],
                "summary": f"{summ['rows']} rows, {summ['steps']} steps -> {summ['checkpoint']}"}

    # the chain
    def run(self) -> list[dict[str, Any]]:
        cfg = self.cfg
        self.root.mkdir(parents=True, exist_ok=True)
        corpus = self.step("corpus", self._corpus)
        train = corpus["folder"]
        if cfg.student_base.startswith("tiny:"):  # CPU smoke: a tiny random model, built on the spot
            cfg.student_base = self.step("tiny-model", lambda f: self._tiny(f, train))["path"]
        long_train = corpus.get("long_folder", train)
        rules = self.step("rules", lambda f: self._rules(f))["path"]

        with self._serving(cfg.teacher, cfg.teacher.model, "teacher", 2) as teacher:
            td = self.step("teacher-direct", lambda f: self._eval(f, teacher, cfg.teacher_direct, train, "train",
                                                                  Path(rules)))
            ta = self.step("teacher-agentic", lambda f: self._eval(f, teacher, cfg.teacher_agentic, train, "train",
                                                                   Path(rules)))
        ckpt = cfg.student_base
        prev_runs = [td["run"], ta["run"]]
        for stage in cfg.stage_list:
            c = ckpt
            if stage == 0:
                syn = self.step("stage0-synth", lambda f: self._synth(f, self._stage_config(0, f, prev_runs, "",
                                                                                            train, None)))
            else:
                with self._serving(cfg.student_serve, c, f"stage{stage - 1}", 2 if stage == 2 else 1) as st:
                    direct = self.step(f"stage{stage}-direct", lambda f, st=st: self._eval(
                        f, st, cfg.student_direct, long_train, "train"))
                    if stage == 2:
                        syn = self.step("stage2-synth", lambda f, st=st, d=direct, c=c: self._synth(
                            f, self._stage_config(2, f, [d["run"]], c, long_train, st)))
                if stage == 1:
                    with self._serving(cfg.teacher, cfg.teacher.model, "teacher", 1) as t:
                        syn = self.step("stage1-synth", lambda f, t=t, d=direct, c=c: self._synth(
                            f, self._stage_config(1, f, [d["run"]], c, long_train, t)))
            sft = self.step(f"stage{stage}-sft", lambda f, s=syn, c=c: self._sft_in(f, s, c))
            ckpt = sft["checkpoint"]
            with self._serving(cfg.student_serve, ckpt, f"stage{stage}", 1) as st:
                final = self.step(f"stage{stage}-eval", lambda f, st=st: self._eval(
                    f, st, cfg.final_eval, cfg.eval_benchmark, "test"))
        if cfg.submission.get("enabled", True):
            self.step("submission", lambda f: self._submit(f, final["run"]))
        (self.root / "pipeline.json").write_text(json.dumps(self.summary, indent=2, sort_keys=True))
        return self.summary

    @contextmanager
    def _serving(self, spec: ServeSpec, model_path: str, name: str, steps: int) -> Iterator[Served | None]:
        """``serve`` for the next ``steps`` steps, unless all of them are done already (a resumed run starts
        no server it does not need)."""
        pending = [not next(self.root.glob(f"{self.n + i:02d}-*/done.json"), None) for i in range(1, steps + 1)]
        if not any(pending):
            yield None
            return
        with serve(spec, model_path, name, self.root / f"serve-{name}.log") as served:
            yield served

    def _sft_in(self, folder: Path, syn: dict[str, Any], prev: str) -> dict[str, Any]:
        # SFT writes under the synth step's output folder (the stage config's output_dir), logs here.
        cfg_path = Path(syn["config"])
        out = self._sft(cfg_path.parent, cfg_path, int(syn["rows"]), prev)
        if (cfg_path.parent / "log.txt").exists():
            (folder / "log.txt").write_text(f"SFT log: {cfg_path.parent / 'log.txt'}\n")
        return out

    def _corpus(self, folder: Path) -> dict[str, Any]:
        c = self.cfg.corpus
        if c.get("prebuilt"):
            return {"folder": c["prebuilt"], "long_folder": c.get("prebuilt_long", c["prebuilt"]),
                    "summary": f"prebuilt {c['prebuilt']}"}
        out = {}
        for keep, key in (("all", "folder"), ("long", "long_folder")):
            dest = folder / f"ecov-train-{keep}"
            cmd = _tool("ecov-data") + ["build", "ecov-train", "--source", str(c["source"]), "--out", str(dest),
                                        "--keep", keep, "--skip-bad", "-j", str(c.get("jobs", 1))]
            for k in ("tokenizer", "split_tokens", "threshold"):
                if c.get(k):
                    cmd += [f"--{k.replace('_', '-')}", str(c[k])]
            for a in c.get("against", []):
                cmd += ["--against", a]
            if c.get("limit"):
                cmd += ["--limit", str(c["limit"])]
            try:
                _run(cmd, folder / "log.txt")
            except StepFailed:
                if keep == "long" and c.get("long_optional"):
                    out[key] = out["folder"]  # no long design in a tiny corpus: stages 1-2 use them all
                    continue
                raise
            out[key] = str(dest)
        m = json.loads((Path(out["folder"]) / "manifest.json").read_text())
        out["summary"] = f"{m['count']} designs ({m['info'].get('long', 0)} long), {len(m['skipped'])} left out"
        return out

    def _tiny(self, folder: Path, train: str) -> dict[str, Any]:
        io = tb_io(get_protocol(None), None)
        texts = [m["content"] for t in load_benchmark(train, "train") for m in io.messages(t, None, None)]
        path = build_tiny_model(folder / "model", texts + ["filename: tb.sv\n```systemverilog\nmodule tb;\nendmodule\n```"])
        return {"path": str(path), "summary": f"tiny random Llama at {path}"}

    def _rules(self, folder: Path) -> dict[str, Any]:
        path = folder / "rules.txt"
        _run(_tool("ecov-train") + ["rules", "--out", str(path)], folder / "log.txt")
        return {"path": str(path), "summary": "12 rules for the teacher's prompt"}

    def _submit(self, folder: Path, run: str) -> dict[str, Any]:
        s = self.cfg.submission
        subs = folder / "submissions"
        name = s.get("name", "ecov-llm4cov-student")
        cmd = _tool("ecov-leaderboard") + ["add", run, "--name", name, "--model", s.get("model", name),
                                           "--type", s.get("type", "trained"), "--submissions", str(subs)]
        if s.get("size_b"):
            cmd += ["--size-b", str(s["size_b"])]
        _run(cmd, folder / "log.txt")
        return {"submission": str(subs / name), "summary": f"submission folder {subs / name} "
                                                           "(copy it into leaderboard/submissions/ and open a PR)"}
