"""The ``ecov-train pipeline`` config: one YAML file for the whole recipe, read into dataclasses.

Unknown keys are errors at every level, as in the stage configs (ecov.trainers.config).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ecov.trainers.config import ConfigError

CONFIGS = Path(__file__).resolve().parent / "configs"
TINY = "tiny:"  # student_base: a tiny random model built on the spot (tiny_model sets its size)


class StepFailed(RuntimeError):
    """A step, a server or the preflight failed; the message names the cause and the log to read."""


@dataclass
class ServeSpec:
    kind: str = "vllm"  # vllm | tiny | endpoint | builtin
    model: str = ""  # builtin: builtin/...; endpoint: the LiteLLM model string; vllm/tiny: a path or hub id
    api_base: str = ""  # endpoint only
    port: int = 8000
    args: list[str] = field(default_factory=list)  # extra `vllm serve` arguments (e.g. --tensor-parallel-size 2)
    startup_timeout: float = 1800.0

    def identity(self) -> dict[str, Any]:
        """What shapes the answers (not where or how long to wait): a step's digest reads this."""
        return {"kind": self.kind, "model": self.model, "api_base": self.api_base, "args": list(self.args)}


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

    def identity(self) -> dict[str, Any]:
        """What shapes the run folder (concurrency and workers only change how fast it fills)."""
        return {"n": self.n, "mode": self.mode, "max_rounds": self.max_rounds, "limit": self.limit,
                "task_ids": list(self.task_ids), "max_tokens": self.max_tokens, "extra": list(self.extra)}


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
class TinyModelSpec:
    """The random student of ``student_base: "tiny:"`` (ecov.trainers.tiny_model): a Qwen3 of this size."""

    hidden_size: int = 64
    layers: int = 2
    heads: int = 4
    kv_heads: int = 2
    intermediate_size: int = 0  # 0: 2 x hidden_size
    vocab_size: int = 2000  # a byte-level BPE trained on the texts the student will see (no regex split)
    seed: int = 0


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
    tiny_model: TinyModelSpec = field(default_factory=TinyModelSpec)
    min_free_gb: float = 1.0  # the preflight's floor for free disk space under workdir
    # OMP_NUM_THREADS of every step and server (0: torch's default). 1 for the tiny CPU run: its models
    # gain nothing from a second thread and lose up to 10x to thread contention on a shared machine.
    cpu_threads: int = 0

    def env(self) -> dict[str, str]:
        """Environment every step and server runs with."""
        n = str(self.cpu_threads)
        return {"OMP_NUM_THREADS": n, "MKL_NUM_THREADS": n} if self.cpu_threads > 0 else {}

    @property
    def tiny(self) -> bool:
        return self.student_base.startswith(TINY)


SFT_KEYS = {"launcher", "accelerate_config", "processes"}
DESIGNS = ("all", "long", "short")  # the sides of the corpus's RTL-token split (ecov-data build --keep)


STATES_FROM = ("own", "stage1-direct")  # where stage 2 takes its states (stage_states_from)


def stage_states_from(cfg: PipelineConfig) -> str:
    """Where stage 2 takes the states its student revises: ``own`` (the paper: the stage-1 student's own
    direct answers) or ``stage1-direct`` (the states whose fixes stage 1 trained on: a CPU smoke's tiny
    memoriser answers those and nothing new, so its rollouts can parse)."""
    return cfg.stages.get("stage2", {}).get("states_from", "own")


def stage_designs(cfg: PipelineConfig, stage: int) -> str:
    """Which training designs a stage works on: ``stages.stageN.designs``, else the paper's (stage 0 all of
    them, stages 1-2 the long ones, Appendix B)."""
    return cfg.stages.get(f"stage{stage}", {}).get("designs", "all" if stage == 0 else "long")


def _dc(cls, d: dict[str, Any] | None, where: str):
    if d is not None and not isinstance(d, dict):
        raise ConfigError(f"{where}: expected a mapping, got {type(d).__name__}")
    d = dict(d or {})
    known = set(cls.__dataclass_fields__)
    bad = sorted(set(d) - known)
    if bad:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(bad)} (known: {', '.join(sorted(known))})")
    try:
        return cls(**d)
    except TypeError as e:
        raise ConfigError(f"{where}: {e}") from None


def _read(p: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A pipeline config file as a mapping; ``extends: OTHER.yaml`` (beside it, else any config path) is
    read first and this file's keys merged over it."""
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    if p.resolve() in seen:
        raise ConfigError(f"{p}: extends itself (through {' -> '.join(map(str, seen))})")
    try:
        d = yaml.safe_load(p.read_text()) or {}
    except yaml.YAMLError as e:
        raise ConfigError(f"{p}: not valid YAML: {e}") from None
    if not isinstance(d, dict):
        raise ConfigError(f"{p}: expected a mapping at top level")
    if "extends" in d:
        ref = Path(d.pop("extends"))
        base = p.parent / ref if (p.parent / ref).exists() else repo_path(ref)
        d = _merge(_read(base, (*seen, p.resolve())), d)
    return d


def load_pipeline(path: str | Path) -> PipelineConfig:
    p = Path(path)
    d = _read(p)
    if "stage" in d and "workdir" not in d:
        raise ConfigError(f"{p} is a stage config (it has `stage:`): run it with `ecov-train stage --config "
                          f"{p}`; `pipeline` takes a pipeline config such as trainers/configs/pipeline.yaml")
    specs = {"teacher": ServeSpec, "student_serve": ServeSpec, "teacher_direct": EvalSpec,
             "teacher_agentic": EvalSpec, "student_direct": EvalSpec, "final_eval": EvalSpec,
             "executor": ExecutorSpec, "tiny_model": TinyModelSpec}
    for k, cls in specs.items():
        if k in d:
            d[k] = _dc(cls, d[k], f"{p}: {k}")
    cfg = _dc(PipelineConfig, d, str(p))
    for k in ("workdir", "corpus", "teacher", "student_base"):
        if not getattr(cfg, k):
            raise ConfigError(f"{p}: {k} is required")
    if cfg.teacher.kind not in ("vllm", "tiny", "endpoint", "builtin") or \
            cfg.student_serve.kind not in ("vllm", "tiny"):
        raise ConfigError(f"{p}: teacher.kind is vllm|tiny|endpoint|builtin; student_serve.kind is vllm|tiny")
    if cfg.executor.kind not in ("local", "ray") or (cfg.executor.ray_address and cfg.executor.kind != "ray"):
        raise ConfigError(f"{p}: executor.kind is local|ray (ray_address only with ray)")
    if not cfg.stage_list or sorted(set(cfg.stage_list)) != list(cfg.stage_list) or \
            not set(cfg.stage_list) <= {0, 1, 2}:
        raise ConfigError(f"{p}: stage_list is an increasing list of stages 0, 1, 2, got {cfg.stage_list!r}")
    bad = sorted(set(cfg.stages) - {"stage0", "stage1", "stage2"})
    if bad:
        raise ConfigError(f"{p}: stages: unknown key(s) {', '.join(bad)} (known: stage0, stage1, stage2)")
    for name, spec in cfg.stages.items():
        if not isinstance(spec, dict) or set(spec) - {"base", "overrides", "designs", "states_from"}:
            raise ConfigError(f"{p}: stages.{name} holds base (a stage config file), overrides (a mapping), "
                              "designs (all | long | short) and, for stage2, states_from (own | stage1-direct)")
        if spec.get("designs", "all") not in DESIGNS:
            raise ConfigError(f"{p}: stages.{name}.designs is all, long or short, got {spec['designs']!r}")
        if "states_from" in spec and (name != "stage2" or spec["states_from"] not in STATES_FROM):
            raise ConfigError(f"{p}: stages.{name}.states_from: only stage2 has it, own or stage1-direct, "
                              f"got {spec['states_from']!r}")
    if stage_states_from(cfg) == "stage1-direct" and not {1, 2} <= set(cfg.stage_list):
        raise ConfigError(f"{p}: stages.stage2.states_from: stage1-direct needs stages 1 and 2 in stage_list")
    if stage_states_from(cfg) == "stage1-direct" and stage_designs(cfg, 1) != stage_designs(cfg, 2):
        raise ConfigError(f"{p}: stages.stage2.states_from: stage1-direct needs stages 1 and 2 on the same "
                          f"designs, got {stage_designs(cfg, 1)} and {stage_designs(cfg, 2)}")
    bad = sorted(set(cfg.sft) - SFT_KEYS)
    if bad:
        raise ConfigError(f"{p}: sft: unknown key(s) {', '.join(bad)} (known: {', '.join(sorted(SFT_KEYS))})")
    if cfg.sft.get("launcher", "python") not in ("python", "accelerate"):
        raise ConfigError(f"{p}: sft.launcher is python or accelerate")
    return cfg


def repo_path(path: str | Path) -> Path:
    """A config's relative path: from the current folder when it is there, else from the repository root
    (so the shipped configs work when run from elsewhere)."""
    p = Path(path)
    if p.is_absolute() or p.exists():
        return p
    alt = CONFIGS.parent.parent / p
    return alt if alt.exists() else p


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in (over or {}).items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def stage_dict(cfg: PipelineConfig, stage: int) -> dict[str, Any]:
    """The stage's config as the user gave it: its base file with the pipeline's overrides."""
    spec = cfg.stages.get(f"stage{stage}", {})
    base = yaml.safe_load(repo_path(spec.get("base", CONFIGS / f"stage{stage}.yaml")).read_text()) or {}
    return _merge(base, spec.get("overrides", {}))
