"""Which benchmark a submission is verified against: one ECov knows by name, never a path it brings.

A run's config names its benchmark. Verification loads *that* benchmark from ECov's own copy (a shipped
or packaged benchmark by registered name, or a hub dataset id whose tasks must hash to the run's
recorded dataset hash) and never from a folder or file: a submission that ships its own "benchmark"
(easy tasks under the real task ids) cannot be verified, so it cannot be ranked. The identity
(name, split, dataset hash, track) is what the site groups ranked entries by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ecov.harness.benchmark.spec import get_benchmark
from ecov.harness.benchmark.store import (
    EMBEDDED,
    dataset_hash,
    load_built,
    load_hub,
    shipped_dir,
)
from ecov.harness.benchmark.validate import TaskError, validate_tasks
from ecov.harness.core.run_folder import RunConfig
from ecov.harness.tasks import Task

HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


class IdentityError(ValueError):
    """The run names no benchmark ECov can verify against, or its tasks are not that benchmark's."""


@dataclass(frozen=True)
class BenchmarkIdentity:
    name: str
    split: str
    dataset_hash: str  # of the whole benchmark split as ECov loads it
    tb_lang: str = "sv"

    @property
    def key(self) -> str:
        """One table per identity: the name, and the hash prefix when it is not the one ECov ships."""
        return self.name


def load_known(name: str, split: str) -> list[Task]:
    """The tasks of a benchmark ECov knows by ``name``; any path is refused, whatever exists on disk."""
    spec = get_benchmark(name or EMBEDDED)
    if spec is not None:
        if spec.load is not None:
            return spec.load()
        folder = shipped_dir(spec.name)
        if folder is None:
            raise IdentityError(f"benchmark {name!r} is known but no built copy is installed here")
        return load_built(folder, split)
    if HUB_ID.match(name or "") and not name.startswith("."):
        return load_hub(name, split)
    raise IdentityError(f"the run names benchmark {name!r}, which is no benchmark ECov knows (a shipped name "
                        f"or a hub id): a folder or file brought with a run cannot be verified against")


def resolve(config: RunConfig) -> tuple[BenchmarkIdentity, dict[str, Task]]:
    """The benchmark a run must be verified against, and its tasks; IdentityError when there is none.

    The run's recorded dataset hash must be that of the tasks it lists (or of the whole benchmark): a hub
    dataset is pinned by it, a shipped one changed since the run is reported rather than trusted."""
    try:
        tasks = load_known(config.benchmark, config.split)
    except IdentityError:
        raise
    except Exception as e:  # noqa: BLE001 - a hub or folder failure is reported, not raised
        raise IdentityError(f"cannot load benchmark {config.benchmark}/{config.split}: {e}") from None
    try:
        validate_tasks(tasks, config.benchmark)
    except TaskError as e:
        raise IdentityError(str(e)) from None
    by_id = {t.id: t for t in tasks}
    full = dataset_hash(tasks)
    listed = config.task_ids if config.task_ids is not None else list(by_id)
    unknown = sorted(set(listed) - set(by_id))
    if unknown:
        raise IdentityError(f"task ids not in {config.benchmark}/{config.split}: {', '.join(unknown[:5])}")
    if config.dataset_hash not in (full, dataset_hash(by_id[t] for t in listed)):
        raise IdentityError(f"the run's dataset hash {config.dataset_hash} is not that of "
                            f"{config.benchmark}/{config.split} ({full}) nor of the tasks it lists")
    return BenchmarkIdentity(config.benchmark or EMBEDDED, config.split, full, config.tb_lang), by_id
