"""``ecov-eval view RUN_DIR``: one run as a local, self-contained set of HTML pages, with the site's own
templates (the submission page and its task pages), so that a run can be read without building the site.

Layout of the output (default ``RUN_DIR/view/``)::

    index.html        the summary, the per-task table, whether the run could be ranked and why not
    t/TASK.html       each sample: targets vs reached, each round's testbench, the diff to the previous,
                      the feedback, the raw response
    static/           the site's stylesheet and script
    data/             the run's record files and its tables, to check the numbers

Every link is relative: open ``index.html`` from disk (file://).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ecov.harness.core.run_folder import RunFolder
from ecov.harness.evaluation.tables import to_frame
from ecov.leaderboard.ranking import VERIFIED, standing
from ecov.leaderboard.site import (
    HERE,
    Entry,
    Mark,
    _env,
    _task_pages,
    _write,
    benchmark_info,
    checked_contracts,
    run_charts,
    write_tables,
)
from ecov.leaderboard.stats import run_view
from ecov.leaderboard.submission import RUN_FILES, Submission, SubmissionMeta

DEFAULT_DIR = "view"


class ViewError(ValueError):
    """RUN_DIR is not a run folder, or the view cannot be written: one line for the user."""


def write_view(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Write the pages of the run in ``run_dir`` into ``out``; returns the path of index.html."""
    run_dir = Path(run_dir)
    folder = RunFolder(run_dir)
    if not folder.exists():
        raise ViewError(f"{run_dir} is not an ecov-eval run folder (no config.json)")
    out = Path(out) if out is not None else run_dir / DEFAULT_DIR
    if out.resolve() == run_dir.resolve():
        raise ViewError(f"--out {out} is the run folder itself; give another folder")
    config = folder.read_config()
    samples = folder.samples()
    info = benchmark_info(config.benchmark)
    view = run_view(config, samples, info.difficulty, info.hard, checked_contracts(info, config.tb_lang),
                    info.measures_nothing)
    date = (config.created or "")[:10]
    sub = Submission(name=run_dir.resolve().name, path=run_dir, run_dir=run_dir,
                     meta=SubmissionMeta(model=config.model, type="local run", date=date))
    entry = Entry(sub.name, sub, view, Mark("unverified", "local run", "a local view: not verified"), None,
                  # A local view says what else would keep the run off the ranking once the build verifies it.
                  standing=standing(config, samples, info.task_ids, verdict=VERIFIED))
    env = _env()
    env.globals["local"] = str(run_dir)
    if (out / "t").exists():
        shutil.rmtree(out / "t")  # pages of a previous view must not linger
    _task_pages(env, entry, out, info.targets, root="../")
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name in RUN_FILES:
        if (run_dir / name).is_file():
            shutil.copy2(run_dir / name, data / name)
    if view.tasks is not None:
        write_tables(view.tasks.reset_index(), data / "tasks")
    write_tables(to_frame(folder), data / "rounds")
    _write(out / "index.html", env.get_template("submission.html.j2").render(
        root="", entry=entry, charts=run_charts(config.model, view)))
    static = out / "static"
    static.mkdir(exist_ok=True)
    for f in (HERE / "static").iterdir():
        shutil.copy2(f, static / f.name)
    return out / "index.html"
