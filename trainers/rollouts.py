"""llm4cov recipe, step 2: multi-round rollouts from each selected state, through the evaluation's agent.

The released ``scripts/batch_query_agentic_round.py`` starts each rollout from a selected direct-inference
answer (the chat is the initial prompt, that answer, and the feedback on it), then asks the model for
``--agentic-rounds`` (3) more rounds, ``--gen-repetitions`` (2) times per state, in its memoryless
``markov-agentic`` mode, stopping early at 100% overall coverage.

Here a rollout IS an evaluation sample: ``ecov.harness.loop.agent.run_sample`` runs it, with a model wrapper that
answers round 0 with the selected state's recorded answer (no request) and passes every later round to
the reviser. Round 0 therefore re-scores the student's testbench (a cache hit) and renders its feedback
exactly as evaluation does, and rounds 1..R are the prompts, parsing, scoring, feedback, memory and
stopping rule of the agent the evaluation uses. Nothing here builds a prompt. Rollouts are written as
an ecov-eval run folder (``OUTPUT_DIR/rollouts``: config.json, rounds.jsonl, samples.jsonl), one sample
per (state, repetition), so an interrupted synthesis resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder
from ecov.harness.tasks import Task
from ecov.trainers.config import RolloutConfig
from ecov.trainers.inject import inject_rules
from ecov.trainers.runview import read_finished
from ecov.trainers.synth import State

REPLAY_MODEL = "replay:selected-state"


class StartFromState:
    """Round 0 answers with the selected state's recorded answer; later rounds ask ``model``."""

    def __init__(self, model, response: str):
        self.model = model
        self.response = response
        self.name = getattr(model, "name", "")

    def complete(self, request):
        from ecov.harness.models.base import Completion

        if request.round == 0:
            return Completion(text=self.response, cached=True, model=REPLAY_MODEL)
        return self.model.complete(request)


# Fields of the source run's config that the rollout's agent inherits when AgentConfig has them: the
# rollout then runs the protocol the student's answer was produced (and parsed) under.
INHERITED = ("protocol", "tb_lang")


def agent_config(cfg: RolloutConfig, seed: int, inherited: dict | None = None):
    """The evaluation's agent, agentic, with 1 + ``rounds`` rounds (round 0 is the replayed state);
    fields inherited from the source run, then ``cfg.agent``, set the rest."""
    import dataclasses

    from ecov.harness.loop.agent import AgentConfig

    known = {f.name for f in dataclasses.fields(AgentConfig)}
    opts = {"mode": "agentic", "agent": "memoryless"}
    opts.update({k: v for k, v in (inherited or {}).items() if k in known and v is not None})
    opts.update(cfg.agent)
    opts.update(max_rounds=cfg.rounds + 1, seed=seed)
    return AgentConfig(**opts)


@dataclass
class Rollout:
    state: State
    rep: int
    sample: int  # the sample index in the rollouts run folder
    rounds: list[RoundRecord] = field(default_factory=list)  # round 0 = the selected state, replayed
    error: str = ""


def _run_options(source: str, cache: dict[str, tuple[int, dict]]) -> tuple[int, dict]:
    """The simulation seed of the run a state came from (so the replayed round is a cache hit) and the
    agent fields the rollout inherits from it."""
    if source not in cache:
        folder = RunFolder(source)
        if folder.config_path.exists():
            rc = folder.read_config()
            cache[source] = (rc.seed, {k: getattr(rc, k, None) for k in INHERITED})
        else:
            cache[source] = (1, {})
    return cache[source]


def _plan(selected: list[State], reps: int) -> list[dict]:
    return [{"sample": i * reps + rep, "state": s.key, "rep": rep, "selected_as": s.selected_as}
            for i, s in enumerate(selected) for rep in range(reps)]


def run_rollouts(selected: list[State], tasks: dict[str, Task], model, scorer, cfg: RolloutConfig,
                 out: Path, *, model_name: str = "", log=print) -> list[Rollout]:
    """Roll out ``cfg.repetitions`` times from every selected state; resume from ``out`` when it holds
    the same plan. Returns every rollout (finished ones read back from the folder)."""
    from ecov.harness.loop.agent import run_sample

    folder = RunFolder(out)
    plan = _plan(selected, cfg.repetitions)
    name = model_name or getattr(model, "name", "") or "reviser"
    plan_hash = hashlib.sha256(json.dumps([plan, cfg.rounds, cfg.agent, cfg.inject_rules, name],
                                          sort_keys=True).encode()).hexdigest()[:16]
    options: dict[str, tuple[int, dict]] = {}
    for st in selected:  # validates cfg.agent (and what the sources pass on) before anything runs
        acfg = agent_config(cfg, *_run_options(st.source, options))
    acfg = agent_config(cfg, 1, _run_options(selected[0].source, options)[1] if selected else {})
    recorded = {k: getattr(acfg, k) for k in INHERITED if hasattr(acfg, k) and k in RunConfig.__dataclass_fields__}
    config = RunConfig(**recorded, model=name, mode="agentic",
                       agent=acfg.agent_name, benchmark="ecov-train-rollouts", dataset_hash=plan_hash,
                       n_samples=len(plan), max_rounds=cfg.rounds + 1, task_ids=sorted({s.task_id for s in selected}),
                       extra={"plan": plan, "rollouts": {"rounds": cfg.rounds, "repetitions": cfg.repetitions,
                                                         "agent": cfg.agent, "inject_rules": cfg.inject_rules}})
    if folder.exists():
        old = folder.read_config()
        if old.dataset_hash != plan_hash:
            raise ValueError(f"{out} holds rollouts of other states or settings (plan {old.dataset_hash}, now "
                             f"{plan_hash}); move it away or use another output_dir")
    folder.write_config(config)
    done = folder.done()
    lock = threading.Lock()
    jobs = []
    for i, state in enumerate(selected):
        for rep in range(cfg.repetitions):
            jobs.append(Rollout(state, rep, i * cfg.repetitions + rep))

    def on_round(rec: RoundRecord) -> None:
        with lock:
            folder.append_round(rec)

    def one(ro: Rollout) -> Rollout:
        task = tasks[ro.state.task_id]
        if cfg.inject_rules:
            task = inject_rules(task)
        acfg = agent_config(cfg, *_run_options(ro.state.source, options))
        rounds, srec = run_sample(task, ro.sample, StartFromState(model, ro.state.response), scorer, acfg,
                                  on_round=on_round)
        ro.rounds, ro.error = rounds, srec.error
        with lock:
            folder.append_sample(srec)
        gains = " ".join(f"{r.score().overall:.1f}" if r.testbench else "-" for r in rounds)
        log(f"rollout {ro.sample}: {ro.state.key} ({ro.state.selected_as}) rep {ro.rep}: overall by round [{gains}]"
            + (f" ({srec.error})" if srec.error else ""))
        return ro

    todo = [ro for ro in jobs if (ro.state.task_id, ro.sample) not in done]
    if len(todo) < len(jobs):
        log(f"rollouts: {len(jobs) - len(todo)} of {len(jobs)} already in {out}, resuming")
    with ThreadPoolExecutor(max_workers=max(1, min(cfg.concurrency, len(todo) or 1))) as pool:
        list(pool.map(one, todo))
    return read_rollouts(folder, selected, cfg.repetitions)


def read_rollouts(folder: RunFolder, selected: list[State], reps: int) -> list[Rollout]:
    """Every finished rollout of the plan, from the run folder (the last attempt of each sample), in one pass."""
    fin = read_finished(folder, RoundRecord.from_dict)
    out = []
    for i, state in enumerate(selected):
        for rep in range(reps):
            n = i * reps + rep
            key = (state.task_id, n)
            if key in fin.trajectories:
                out.append(Rollout(state, rep, n, fin.trajectories[key], fin.errors.get(key, "")))
    return out
