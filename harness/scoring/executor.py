"""Where builds and simulations run: this machine's pool (the default) or a Ray cluster.

One small seam. An executor is a thread-safe, blocking scorer ``(design, testbench, seed) -> ScoreResult``
(the agent's ``Scorer``), so every caller that already fans out over threads (ecov-eval's sample workers,
``ecov-leaderboard verify --jobs``, ``ecov-data validate --jobs``, trainer synthesis) keeps its own
bookkeeping: the driver still writes run folders, caches and reports exactly as before; only the
scoring job moves. Model calls never leave the driver.

- ``LocalExecutor`` wraps a scorer's ``score`` in this process: today's behaviour.
- ``RayExecutor`` sends each job that the driver's scorer (any track's ``CachedScorer``) cannot answer
  itself (a precheck's rejection or a score-cache hit, see ``CachedScorer.lookup``) to a Ray task
  (``num_cpus=1`` plus a memory request) that scores it with a scorer of the same class and config on a
  worker and returns the ``ScoreResult`` as a dict.
  A task whose worker dies mid-build is retried by Ray (``max_retries``); the driver records the one
  result ``ray.get`` returns and writes it into its own score cache, so a resumed or repeated run
  needs no cluster for what was already scored. Workers must score like the driver: each result
  carries the worker's ``identity()`` (backend fingerprint: Verilator, flags, compiler; scoring version),
  and a mismatch is an error, never a silently different figure.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import click

from ecov.harness.core.records import Design, ScoreResult
from ecov.harness.scoring.cached import CachedScorer

EXECUTORS = ("local", "ray")
DEFAULT_TASK_MEMORY_MB = 1536  # a warm build of a small design peaks well under 1 GiB (g++ -O0)
DEFAULT_MAX_RETRIES = 3


class ExecutorError(RuntimeError):
    """The executor cannot run (Ray missing, no cluster at the address, workers that score differently)."""


class Executor:
    """Scores testbenches; thread-safe; ``parallelism`` is how many jobs it can usefully run at once."""

    name = "executor"

    def score(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        raise NotImplementedError

    def __call__(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        return self.score(design, testbench, seed)

    @property
    def parallelism(self) -> int:
        return 1

    def describe(self) -> str:
        return self.name

    def map(self, jobs: Iterable[tuple[Design, str, int]], in_flight: int | None = None) -> list[ScoreResult]:
        """Score many jobs, ``in_flight`` at a time (default: ``parallelism``), results in order."""
        items = list(jobs)
        width = max(1, min(in_flight or self.parallelism, len(items) or 1))
        if width == 1:
            return [self.score(*job) for job in items]
        with ThreadPoolExecutor(max_workers=width) as pool:
            return list(pool.map(lambda job: self.score(*job), items))

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LocalExecutor(Executor):
    """Builds and simulations in this process's sandbox, as many at once as the caller's threads."""

    name = "local"

    def __init__(self, engine, workers: int = 2):
        self.engine = engine
        self.workers = max(1, workers)

    def score(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        return self.engine.score(design, testbench, seed)

    @property
    def parallelism(self) -> int:
        return self.workers

    def describe(self) -> str:
        return f"local ({self.engine.isolation} sandbox)"


# ---- Ray ---------------------------------------------------------------------------------------------

_WORKER_ENGINES: dict[str, Any] = {}
_WORKER_LOCK = threading.Lock()


def _worker_engine(scorer: type[CachedScorer], config) -> CachedScorer:
    """One scorer per class and config per worker process (its sandbox probe and runtime paid once).

    ``scorer`` is the driver's scorer class (Ray ships it by reference: module and name), so a worker
    scores in the driver's track, whichever it is."""
    key = f"{scorer.__module__}.{scorer.__qualname__}|{config!r}"
    with _WORKER_LOCK:
        engine = _WORKER_ENGINES.get(key)
        if engine is None:
            engine = _WORKER_ENGINES[key] = scorer(config)
        return engine


def score_job(scorer: type[CachedScorer], config, design: dict, testbench: str, seed: int) -> dict:
    """The Ray task body (module-level so workers import it from the installed harness)."""
    engine = _worker_engine(scorer, config)
    result = engine.score(Design.from_dict(design), testbench, seed)
    return {"result": result.to_dict(), "identity": engine.identity(),
            "worker": f"{socket.gethostname()}:{os.getpid()}"}


def worker_info(scorer: type[CachedScorer], config) -> dict:
    """What a worker would score with: compared with the driver's before the first job."""
    engine = _worker_engine(scorer, config)
    return {"identity": engine.identity(), "isolation": engine.isolation,
            "worker": f"{socket.gethostname()}:{os.getpid()}"}


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ExecutorError("--executor ray needs Ray: pip install 'ecov[ray]'") from None
    return ray


class RayExecutor(Executor):
    """Each job that needs a build is one Ray task; the driver keeps the rules check and the cache."""

    name = "ray"

    def __init__(self, engine: CachedScorer, address: str | None = None, *, task_memory_mb: int | None = None,
                 max_retries: int = DEFAULT_MAX_RETRIES, check_workers: bool = True):
        ray = _import_ray()
        self.engine = engine  # the driver's: rules, cache lookups, the identity workers must match
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self._owns_ray = False
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, ignore_reinit_error=True, log_to_driver=False,
                         include_dashboard=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise ExecutorError(f"cannot connect to the Ray cluster at {self.address or 'auto'}: {e}") from None
            self._owns_ray = True
        self._ray = ray
        memory_mb = task_memory_mb or int(os.environ.get("ECOV_RAY_TASK_MEMORY_MB") or DEFAULT_TASK_MEMORY_MB)
        self.task_memory_mb = memory_mb
        self.max_retries = max_retries
        # Retried when the worker process or its node dies (system failures), never on the job's own
        # outcome: a compile error is a result, not a failure.
        self._remote = ray.remote(num_cpus=1, memory=memory_mb * 1024 * 1024, max_retries=max_retries)(score_job)
        self._config = engine.config
        self._scorer = type(engine)
        self._expected = engine.identity()
        self.workers_seen: set[str] = set()
        self.dispatched = 0
        self.answered_locally = 0
        self._count_lock = threading.Lock()
        if check_workers:
            try:
                info = ray.get(ray.remote(num_cpus=1, memory=memory_mb * 1024 * 1024)(worker_info)
                               .remote(self._scorer, self._config))
                self._check(info["identity"], info["worker"])
            except ray.exceptions.RayError as e:  # e.g. no usable sandbox on the worker
                self.close()
                cause = getattr(e, "cause", None) or e
                raise ExecutorError(f"a Ray worker cannot score: {type(cause).__name__}: {cause}") from None
            except ExecutorError:
                self.close()
                raise
            self.worker_isolation = info["isolation"]

    def _check(self, identity: dict, worker: str) -> None:
        if identity != self._expected:
            diffs = "; ".join(f"{k}: worker {identity.get(k)!r} vs driver {v!r}"
                              for k, v in self._expected.items() if identity.get(k) != v)
            raise ExecutorError(f"Ray worker {worker} would score differently from this driver ({diffs}); "
                                "run the same ECov image (or the same Verilator, compiler and harness) everywhere")

    def score(self, design: Design, testbench: str, seed: int = 1) -> ScoreResult:
        known = self.engine.lookup(design, testbench, seed)
        if known is not None:
            with self._count_lock:
                self.answered_locally += 1
            return known
        ref = self._remote.remote(self._scorer, self._config, design.to_dict(), testbench, seed)
        with self._count_lock:
            self.dispatched += 1
        out = self._ray.get(ref)
        self._check(out["identity"], out["worker"])
        with self._count_lock:
            self.workers_seen.add(out["worker"])
        result = ScoreResult.from_dict(out["result"])
        self.engine.remember(design, testbench, seed, result)
        return result

    @property
    def parallelism(self) -> int:
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def describe(self) -> str:
        return (f"ray ({self.parallelism} CPUs at {self.address or 'auto'}; workers sandbox "
                f"{getattr(self, 'worker_isolation', '?')}; {self.task_memory_mb} MiB a task)")

    def close(self) -> None:
        if self._owns_ray and self._ray.is_initialized():
            self._ray.shutdown()


def make_executor(kind: str, engine, *, address: str | None = None, workers: int = 2,
                  **ray_options) -> Executor:
    """``local`` or ``ray`` around ``engine`` (a track's scorer: ecov.harness.tracks.base.make_engine)."""
    if kind == "local":
        if address:
            raise ExecutorError("--ray-address needs --executor ray")
        return LocalExecutor(engine, workers)
    if kind == "ray":
        if not isinstance(engine, CachedScorer):
            raise ExecutorError(f"--executor ray needs a cached scorer (ecov.harness.scoring.cached.CachedScorer); "
                                f"{type(engine).__name__} runs with --executor local")
        return RayExecutor(engine, address, **ray_options)
    raise ExecutorError(f"unknown executor {kind!r}: choose {' or '.join(EXECUTORS)}")


def executor_options(fn: Callable) -> Callable:
    """The ``--executor`` / ``--ray-address`` options, the same on every command that scores."""
    fn = click.option("--ray-address", default=None, metavar="ADDR",
                      help="Ray cluster to join with --executor ray: the head's HOST:PORT (6379 by default) "
                           "or 'auto' [default: $RAY_ADDRESS, else a running local cluster, else a new one].")(fn)
    fn = click.option("--executor", type=click.Choice(EXECUTORS), default="local", show_default=True,
                      help="where builds and simulations run: this machine, or a Ray cluster "
                           "(pip install 'ecov[ray]'; see docs/scale.md).")(fn)
    return fn


def isolation_warning(isolation: str) -> str | None:
    """What to tell the user when builds and simulations run without namespaces (rlimit sandbox)."""
    if isolation != "rlimit":
        return None
    return ("warning: builds and simulations are NOT isolated: the rlimit sandbox gives CPU/memory/file/process "
            "limits and runs simulations as uid 65534, but no private filesystem or network, because bubblewrap "
            "is missing or cannot create namespaces here. In Docker, run with --security-opt seccomp=unconfined "
            "--security-opt systempaths=unconfined for bubblewrap (docs/scale.md).")


def executor_from_options(executor: str, ray_address: str | None, engine, workers: int = 2) -> Executor:
    """For CLIs: the executor, or a click error that says what to do; warns on stderr when the Ray
    workers' sandbox is not isolated."""
    try:
        ex = make_executor(executor, engine, address=ray_address, workers=workers)
    except ExecutorError as e:
        raise click.UsageError(str(e)) from None
    # Where builds run here, the commands say themselves when the sandbox is not isolated; the
    # workers' sandbox is known only from their answer.
    warning = isolation_warning(getattr(ex, "worker_isolation", ""))
    if warning:
        click.echo("on the Ray workers: " + warning, err=True)
    return ex


__all__ = ["Executor", "LocalExecutor", "RayExecutor", "ExecutorError", "EXECUTORS", "make_executor",
           "executor_options", "executor_from_options", "score_job"]
