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
    """Where the task records come from: a benchmark name/path for ``ecov.harness.benchmark.store.load_benchmark``,
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
class SelectionConfig:
    """llm4cov recipe: which direct-inference states of the student get rollouts
    (scripts/select_direct_infer_samples.py; the best/random ablations: ..._ablation.py)."""

    strategy: str = "released"  # released (xrun-fail + worst + median) | best | random (ablations)
    prioritize_worst: bool = True  # the script's --prioritize-worst: worst always, median when spread > spread
    spread: float = 0.1  # --worst-threshold, a FRACTION of overall coverage (0.1 = 10 points)
    per_task: int = 1  # best / random: states per task
    seed: int = 0  # random: the ablation script's --seed


@dataclass
class RolloutConfig:
    """llm4cov recipe: multi-round rollouts from each selected state through ecov.harness.loop.agent.run_sample
    (scripts/batch_query_agentic_round.py: --agentic-rounds 3, --gen-repetitions 2)."""

    rounds: int = 3  # model calls after the selected state
    repetitions: int = 2  # independent rollouts per state
    agent: dict[str, Any] = field(default_factory=dict)  # extra ecov.harness.loop.agent.AgentConfig fields
    inject_rules: bool = False  # SYN_PROMPT_INJECTION (False as released): expert rules in the task text
    concurrency: int = 4  # rollouts in flight at once


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
    # llm4cov recipe (scripts/synthetic_data_filter.py has_absolute_improvement / parse_dataframe):
    threshold: float = 0.01  # overall must rise by MORE than this FRACTION (0.01 = 1 point)
    per_metric: bool = True  # and no DUT metric may decrease
    keep_per: str = "task"  # the largest gain kept per task (groupby context_id) | per state


@dataclass
class ContaminationConfig:
    """Drop rows whose design overlaps an evaluation task (scripts/data_contamination_detect.py,
    CONTAMINATION_IDS in scripts/synthetic_data_filter.py). Off while no evaluation set is named."""

    eval_benchmark: str = ""  # a name/folder/hub id for ecov.harness.benchmark.store.load_benchmark
    eval_split: str = "test"
    eval_path: str = ""  # or a tasks JSONL file
    threshold: float = 0.5  # ROUGE-L F1 >= threshold on any file pair is an overlap
    files: str = "rtl+spec"  # rtl+spec (as released) | rtl
    ids: list[str] = field(default_factory=list)  # training task ids dropped outright


@dataclass
class LengthConfig:
    """Token-length limits, counted with ``tokenizer`` (default: the student's)."""

    max_tokens: int = 0  # rows (prompt + completion, chat template) longer than this are dropped; 0 = off
    rtl_max_tokens: int = 0  # designs with more RTL tokens are dropped (released: filter_data_by_length); 0 = off
    rtl_min_tokens: int = 0  # designs with at most this many RTL tokens are dropped (keep_long); 0 = off
    tokenizer: str = ""


@dataclass
class ResampleConfig:
    """Resize the rows of the sources to ``total`` (scripts/upload_to_hub.py resize_dataframes)."""

    total: int = -1  # -1: no resizing (as released)
    mode: str = "proportional"  # proportional (released) | equal (ECov: the same count from every source)
    seed: int = 42


@dataclass
class CurationConfig:
    require: str = "compile"  # compile: parses and compiles | run: also ran to $finish (status ok)
    dedupe: bool = True  # drop rows whose (prompt, response) already appeared
    rescore: bool = False  # stage 0: score recorded testbenches again instead of trusting the run folder
    strip_rules: bool = True  # remove injected expert rules from row prompts (scripts/synthetic_data_parse.py)
    canonical_targets: bool = True  # targets = `filename:` line + one code block (ecov.trainers.canonical)
    contamination: ContaminationConfig = field(default_factory=ContaminationConfig)
    length: LengthConfig = field(default_factory=LengthConfig)
    resample: ResampleConfig = field(default_factory=ResampleConfig)


@dataclass
class LoraConfig:
    enabled: bool = False
    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: str | list[str] = "all-linear"


@dataclass
class SFTConfig:
    """Defaults are the paper's (Appendix B): 1 epoch, lr 1e-5 cosine with 3% warm-up, 24 rows per optimizer
    step on any number of GPUs, and a context grown to the longest row."""

    enabled: bool = True
    epochs: float = 1.0
    max_steps: int = -1  # > 0 overrides epochs
    learning_rate: float = 1e-5
    lr_scheduler: str = "cosine"
    warmup_ratio: float = 0.03
    weight_decay: float = 0.0
    per_device_batch_size: int = 1
    gradient_accumulation_steps: int = 1  # used only when effective_batch_size is 0
    # Rows per optimizer step over all processes; when > 0 it sets the accumulation for the run's process
    # count (ecov.trainers.sft.accumulation_steps) and gradient_accumulation_steps is ignored.
    effective_batch_size: int = 24
    # Rows longer than this are dropped (never truncated: that would cut the answer); 0 = the longest row.
    max_length: int = 0
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
class DirectRowsConfig:
    """llm4cov stage 1: direct-inference rows next to the rollouts (paper, Appendix B: 8k of the stage-0
    student's 55k direct answers). The paper does not state the rule that picked them; ECov keeps each
    task's best answer of the direct source runs when it reaches ``min_coverage`` (stage 0's bound)."""

    enabled: bool = False
    min_coverage: float = 50.0
    per_task: int = 1


@dataclass
class Stage0Config:
    """Stage 0 of the llm4cov recipe (ecov.trainers.stage0_recipe): the teacher's rows are filtered by
    coverage, short designs are thinned out, and direct/agentic rows are capped."""

    enabled: bool = True
    min_gain: float = 1.0  # points; an agentic row must raise overall coverage by MORE than this
    min_coverage: float = 50.0  # percent; every row's answer must reach at least this
    short_tokens: int = 1000  # a design is short when its RTL has at most this many tokens
    keep_short: dict[str, float] = field(default_factory=lambda: {"direct": 1 / 3, "agentic": 0.5})
    mix: dict[str, int] = field(default_factory=lambda: {"direct": 20000, "agentic": 10000})  # -1: no cap
    seed: int = 42


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
    recipe: str = "llm4cov"  # llm4cov: the released pipeline | ecov: worst-state sampling + K revisions + tau
    selection: SelectionConfig = field(default_factory=SelectionConfig)
    rollouts: RolloutConfig = field(default_factory=RolloutConfig)
    sampling: SamplingConfig = field(default_factory=SamplingConfig)
    rejection: RejectionConfig = field(default_factory=RejectionConfig)
    curation: CurationConfig = field(default_factory=CurationConfig)
    stage0: Stage0Config = field(default_factory=Stage0Config)
    direct_rows: DirectRowsConfig = field(default_factory=DirectRowsConfig)
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
    (StageConfig, "selection"): SelectionConfig,
    (StageConfig, "rollouts"): RolloutConfig,
    (CurationConfig, "contamination"): ContaminationConfig,
    (CurationConfig, "length"): LengthConfig,
    (CurationConfig, "resample"): ResampleConfig,
    (StageConfig, "rejection"): RejectionConfig,
    (StageConfig, "curation"): CurationConfig,
    (StageConfig, "sft"): SFTConfig,
    (StageConfig, "stage0"): Stage0Config,
    (StageConfig, "direct_rows"): DirectRowsConfig,
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
    need(cfg.recipe in ("llm4cov", "ecov"), f"recipe must be llm4cov or ecov, got {cfg.recipe!r}")
    sel = cfg.selection
    need(sel.strategy in ("released", "best", "random"),
         f"selection.strategy must be released, best or random, got {sel.strategy!r}")
    need(isinstance(sel.spread, (int, float)) and 0 <= sel.spread < 1,
         f"selection.spread is a fraction of overall coverage in [0, 1), got {sel.spread!r}")
    need(isinstance(sel.per_task, int) and sel.per_task >= 1, f"selection.per_task must be >= 1, got {sel.per_task!r}")
    ro = cfg.rollouts
    need(isinstance(ro.rounds, int) and ro.rounds >= 1, f"rollouts.rounds must be an integer >= 1, got {ro.rounds!r}")
    need(isinstance(ro.repetitions, int) and ro.repetitions >= 1,
         f"rollouts.repetitions must be an integer >= 1, got {ro.repetitions!r}")
    need(isinstance(ro.agent, dict) and not {"max_rounds", "seed", "mode"} & set(ro.agent),
         "rollouts.agent holds extra AgentConfig fields (agent, protocol, ...); rounds and seed are set "
         "by rollouts.rounds and the source run")
    need(isinstance(ro.concurrency, int) and ro.concurrency >= 1, "rollouts.concurrency must be >= 1")
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
    need(isinstance(r.threshold, (int, float)) and 0 <= r.threshold < 1,
         f"rejection.threshold is a fraction of overall coverage in [0, 1), got {r.threshold!r}")
    need(r.keep_per in ("task", "state"), f"rejection.keep_per must be task or state, got {r.keep_per!r}")
    c = cfg.curation
    need(0 < float(c.contamination.threshold) <= 1, "curation.contamination.threshold must be in (0, 1]")
    need(c.contamination.files in ("rtl+spec", "rtl"),
         f"curation.contamination.files must be rtl+spec or rtl, got {c.contamination.files!r}")
    need(not (c.contamination.eval_benchmark and c.contamination.eval_path),
         "give at most one of curation.contamination.eval_benchmark or eval_path")
    need(isinstance(c.contamination.ids, list), "curation.contamination.ids must be a list of task ids")
    need(c.resample.mode in ("proportional", "equal"),
         f"curation.resample.mode must be proportional or equal, got {c.resample.mode!r}")
    need(c.resample.total == -1 or c.resample.total > 0, "curation.resample.total must be -1 (off) or > 0")
    for k in ("max_tokens", "rtl_max_tokens", "rtl_min_tokens"):
        need(isinstance(getattr(c.length, k), int) and getattr(c.length, k) >= 0,
             f"curation.length.{k} must be an integer >= 0 (0 = off)")
    need(cfg.curation.require in ("compile", "run"),
         f"curation.require must be compile or run, got {cfg.curation.require!r}")
    t = cfg.sft
    need(t.per_device_batch_size >= 1 and t.gradient_accumulation_steps >= 1, "sft batch sizes must be >= 1")
    need(t.max_length == 0 or t.max_length >= 16, f"sft.max_length must be 0 (the longest row) or >= 16, got {t.max_length}")
    need(isinstance(t.effective_batch_size, int) and t.effective_batch_size >= 0,
         "sft.effective_batch_size must be an integer >= 0 (0: use gradient_accumulation_steps)")
    z = cfg.stage0
    need(isinstance(z.keep_short, dict) and set(z.keep_short) <= {"direct", "agentic"}
         and all(0 <= float(v) <= 1 for v in z.keep_short.values()),
         "stage0.keep_short maps direct/agentic to a fraction in [0, 1]")
    need(isinstance(z.mix, dict) and set(z.mix) <= {"direct", "agentic"}
         and all(isinstance(v, int) and v >= -1 for v in z.mix.values()),
         "stage0.mix maps direct/agentic to a row cap (an integer, -1 = no cap)")
    need(0 <= float(z.min_coverage) <= 100, "stage0.min_coverage is a percentage in [0, 100]")
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
