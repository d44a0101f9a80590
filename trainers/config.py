"""One YAML file per training stage, read into dataclasses and checked before anything runs.

A config names everything a stage needs (tasks, source run folders, sampler, reviser model, SFT
hyperparameters, output folder) so that a stage is rerun with ``ecov-train stage --config F`` alone.
Relative paths are taken relative to the current directory, the way ``ecov-eval`` writes run folders.
Unknown keys are errors: a misspelt hyperparameter must not be silently ignored.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """The config file is missing, malformed or names an unknown or invalid option."""


@dataclass
class TasksConfig:
    """Where the task records come from: a benchmark name/path for ``harness.dataset.load_benchmark``,
    or ``path`` to a JSONL file of ``Task.to_dict()`` lines."""

    benchmark: str = ""
    split: str = "train"
    path: str = ""


@dataclass
class SamplingConfig:
    strategy: str = "worst"  # worst | uniform (the ablation)
    budget: int = 4  # states kept, per task or in all (see scope); 0 = all states
    scope: str = "per_task"  # per_task | global
    coverage: str = "overall"  # overall | targets: what "coverage of a state" means
    include_passed: bool = False  # states that already meet every target have nothing to improve
    seed: int = 1


@dataclass
class ModelConfig:
    """A LiteLLM model string (``hosted_vllm/NAME`` or ``openai/NAME`` for a vLLM server) and options."""

    model: str = ""
    api_base: str | None = None
    temperature: float = 0.7
    top_p: float = 0.8
    max_tokens: int = 8192
    timeout: float = 600.0
    cache: bool = True  # harness response cache (key includes sample and seed): a rerun asks nothing twice


@dataclass
class RejectionConfig:
    k: int = 8  # revisions sampled per chosen state
    tau: float = 1.0  # minimum coverage gain (percentage points) a revision must bring
    reviser: ModelConfig = field(default_factory=ModelConfig)
    seed: int = 1  # engine seed; revision k of a state uses sample index k
    concurrency: int = 8  # revision requests of a state in flight at once (scoring stays sequential)


@dataclass
class CurationConfig:
    require: str = "compile"  # compile: parses and compiles | run: also ran to $finish (status ok)
    dedupe: bool = True  # drop rows whose (prompt, response) already appeared
    rescore: bool = False  # stage 0: score recorded testbenches again instead of trusting the run folder


@dataclass
class LoraConfig:
    enabled: bool = False
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: str | list[str] = "all-linear"


@dataclass
class SFTConfig:
    enabled: bool = True
    epochs: float = 2.0
    max_steps: int = -1  # > 0 overrides epochs
    learning_rate: float = 1e-5
    lr_scheduler: str = "cosine"
    warmup_ratio: float = 0.03
    weight_decay: float = 0.0
    per_device_batch_size: int = 1
    gradient_accumulation_steps: int = 16
    max_length: int = 16384  # rows longer than this are dropped (never truncated: that would cut the answer)
    bf16: bool = True  # bf16 autocast on GPUs that support it (ignored on CPU)
    # Weights as loaded: auto = float32 master weights for full fine-tuning (bf16 AdamW updates of size
    # lr*1e-5 vanish in bf16's 8-bit mantissa), bfloat16 for LoRA (the base is frozen).
    model_dtype: str = "auto"  # auto | float32 | bfloat16
    gradient_checkpointing: bool = True
    save_steps: int = 0  # 0: save only the final checkpoint
    logging_steps: int = 1
    seed: int = 42
    lora: LoraConfig = field(default_factory=LoraConfig)


@dataclass
class StudentConfig:
    """The model being trained: ``base`` is the pretrained model, ``init`` the checkpoint this stage
    starts from (the previous stage's output); empty ``init`` means start from ``base``."""

    base: str = ""
    init: str = ""

    @property
    def start(self) -> str:
        return self.init or self.base


@dataclass
class StageConfig:
    stage: int
    output_dir: str
    student: StudentConfig
    tasks: TasksConfig = field(default_factory=TasksConfig)
    sources: list[str] = field(default_factory=list)  # ecov-eval run folders
    sampling: SamplingConfig = field(default_factory=SamplingConfig)
    rejection: RejectionConfig = field(default_factory=RejectionConfig)
    curation: CurationConfig = field(default_factory=CurationConfig)
    sft: SFTConfig = field(default_factory=SFTConfig)
    name: str = ""
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def out(self) -> Path:
        return Path(self.output_dir)


def _build(cls: type, data: Any, where: str) -> Any:
    """Build dataclass ``cls`` from a mapping, recursing into nested config dataclasses."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping, got {type(data).__name__}")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        sub = _NESTED.get((cls, name))
        kwargs[name] = _build(sub, value, f"{where}.{name}") if sub else value
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise ConfigError(f"{where}: {e}") from None


_NESTED: dict[tuple[type, str], type] = {
    (StageConfig, "student"): StudentConfig,
    (StageConfig, "tasks"): TasksConfig,
    (StageConfig, "sampling"): SamplingConfig,
    (StageConfig, "rejection"): RejectionConfig,
    (StageConfig, "curation"): CurationConfig,
    (StageConfig, "sft"): SFTConfig,
    (RejectionConfig, "reviser"): ModelConfig,
    (SFTConfig, "lora"): LoraConfig,
}


def _check(cfg: StageConfig) -> None:
    def need(cond: bool, msg: str) -> None:
        if not cond:
            raise ConfigError(msg)

    need(cfg.stage in (0, 1, 2), f"stage must be 0, 1 or 2, got {cfg.stage!r}")
    need(bool(cfg.output_dir), "output_dir is required")
    need(bool(cfg.student.start), "student.base (or student.init) is required")
    need(cfg.stage == 0 or bool(cfg.student.init),
         f"stage {cfg.stage} needs student.init: the previous stage's checkpoint (its output_dir/final)")
    need(bool(cfg.tasks.benchmark) != bool(cfg.tasks.path), "give exactly one of tasks.benchmark or tasks.path")
    need(isinstance(cfg.sources, list) and all(isinstance(s, str) for s in cfg.sources),
         "sources must be a list of run folder paths")
    need(bool(cfg.sources), "sources: at least one ecov-eval run folder is required")
    s = cfg.sampling
    need(s.strategy in ("worst", "uniform"), f"sampling.strategy must be worst or uniform, got {s.strategy!r}")
    need(s.scope in ("per_task", "global"), f"sampling.scope must be per_task or global, got {s.scope!r}")
    need(s.coverage in ("overall", "targets"), f"sampling.coverage must be overall or targets, got {s.coverage!r}")
    need(isinstance(s.budget, int) and s.budget >= 0, f"sampling.budget must be an integer >= 0, got {s.budget!r}")
    r = cfg.rejection
    need(isinstance(r.k, int) and r.k >= 1, f"rejection.k must be an integer >= 1, got {r.k!r}")
    need(isinstance(r.tau, (int, float)), f"rejection.tau must be a number, got {r.tau!r}")
    need(isinstance(r.concurrency, int) and r.concurrency >= 1,
         f"rejection.concurrency must be an integer >= 1, got {r.concurrency!r}")
    if cfg.stage in (1, 2):
        need(bool(r.reviser.model), f"stage {cfg.stage} needs rejection.reviser.model (a LiteLLM model string)")
    need(cfg.curation.require in ("compile", "run"),
         f"curation.require must be compile or run, got {cfg.curation.require!r}")
    t = cfg.sft
    need(t.per_device_batch_size >= 1 and t.gradient_accumulation_steps >= 1, "sft batch sizes must be >= 1")
    need(t.max_length >= 16, f"sft.max_length must be >= 16, got {t.max_length}")
    need(float(t.learning_rate) > 0, "sft.learning_rate must be > 0")
    need(t.model_dtype in ("auto", "float32", "bfloat16"),
         f"sft.model_dtype must be auto, float32 or bfloat16, got {t.model_dtype!r}")
    t.learning_rate = float(t.learning_rate)  # YAML reads 1e-5 as a string


def load_config(path: str | Path) -> StageConfig:
    """Read and check a stage config. Raises ConfigError with the offending key in the message."""
    import yaml  # pyyaml: part of the [train] extra, and present wherever litellm is

    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    try:
        data = yaml.safe_load(p.read_text())
    except yaml.YAMLError as e:
        raise ConfigError(f"{p}: not valid YAML: {e}") from None
    return config_from_dict(data, where=str(p))


def config_from_dict(data: Any, where: str = "config") -> StageConfig:
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping at top level")
    for key in ("stage", "output_dir", "student"):
        if key not in data:
            raise ConfigError(f"{where}: missing required key {key!r}")
    cfg = _build(StageConfig, data, where)
    _check(cfg)
    return cfg
