"""The leaderboard's bug-hunt tables (issue 31): one per (benchmark, mode, track) of bughunt runs, ranked by
kill rate (then bug-hunt pass %, then coverage). The baselines stand among them as reference lines with no
rank, as in the coverage tables (ranking.reference_line): builtin/random the floor (no checks: 0),
builtin/golden-capture the oracle (random stimulus checked against the golden outputs, the ceiling of
checking random stimulus) and builtin/reference the reference (the self-checking references the targets
come from); the models below a line keep their places.

Only runs over the whole task set under the protocol's settings are ranked (leaderboard/ranking.py); the
others are listed apart with the reason, as in the coverage tables. The site (leaderboard/site.py) renders
the boards (templates/_bughunt_boards.html.j2) and writes each as tables/<id>.csv / .parquet.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ecov.harness.core.protocol import get_protocol
from ecov.leaderboard.ranking import reference_line

BASELINES = {"builtin/random": "floor: no checks", "builtin/golden-capture": "oracle: random stimulus, golden outputs",
             "builtin/reference": "self-checking reference"}
# Each baseline's line in a bug-hunt board (any other builtin/ takes its coverage-table line).
LINES = {"builtin/random": "floor", "builtin/golden-capture": "oracle", "builtin/reference": "reference"}


def bughunt_line(model: str) -> str:
    """The reference line a run of ``model`` draws in a bug-hunt board; "" for a model to rank."""
    return LINES.get(model) or reference_line(model)


def board_rows(ranked: list) -> list[tuple[Any, int | None, str]]:
    """(entry, rank, line) in order: a baseline's line sits where its kill rate falls, with no rank, and the
    models keep their places."""
    rows, rank = [], 0
    for e in ranked:
        line = bughunt_line(e.view.config.model)
        rank += not line
        rows.append((e, None if line else rank, line))
    return rows


def is_bughunt(protocol: str) -> bool:
    try:
        return get_protocol(protocol).bughunt
    except ValueError:
        return False


def bughunt_of(entry) -> dict[str, Any]:
    return entry.view.summary.get("bughunt") or {}


def rank_key(entry) -> tuple:
    bh = bughunt_of(entry)
    return (-float(bh.get("kill_rate") or 0.0), -float(bh.get("pass_rate") or 0.0),
            -entry.view.pct("avg_overall"), entry.name)


def board_frame(ranked: list, partial: list) -> pd.DataFrame:
    """One row per submission: ranked ones, then the others with no rank and the reason."""
    rows = []
    for e, rank, line in [*board_rows(ranked), *((p, None, "") for p in partial)]:
        bh, v = bughunt_of(e), e.view
        rows.append({"rank": rank, "submission": e.name, "model": e.sub.meta.model,
                     "baseline": BASELINES.get(e.view.config.model, ""), "type": e.sub.meta.type,
                     "mode": v.config.mode, "agent": v.config.agent, "max_rounds": v.config.max_rounds,
                     "kill_rate": bh.get("kill_rate"), "bughunt_pass_rate": bh.get("pass_rate"),
                     "false_alarms": bh.get("false_alarms"), "samples": bh.get("samples"),
                     "tasks": bh.get("tasks"), "mutants": bh.get("mutants"), "killed": bh.get("killed"),
                     "avg_overall": v.pct("avg_overall"), "pass_rate": v.pct("pass_rate"),
                     "reference_line": line or "none", "verified": e.mark.state,
                     "ranked": e.standing.ranked and not line,
                     "not_ranked_because": e.standing.reason or (f"a baseline: the board's {line} line" if line else ""),
                     "track": v.config.tb_lang, "n": v.config.n_samples})
    return pd.DataFrame(rows)


def bughunt_boards(groups: dict[tuple[str, str, str], list], slug) -> list[dict[str, Any]]:
    """The bug-hunt boards of the site's (benchmark, mode, protocol) groups whose protocol is a bug hunt;
    ``slug`` makes a board's id from its name (the site's)."""
    boards = []
    for (bench, mode, protocol), all_es in sorted(groups.items()):
        if not is_bughunt(protocol):
            continue
        ranked = sorted((e for e in all_es if e.standing.ranked), key=rank_key)
        partial = sorted((e for e in all_es if not e.standing.ranked), key=rank_key)
        track = all_es[0].view.config.tb_lang
        boards.append({"id": slug(f"{bench}-{mode}-{protocol}"), "benchmark": bench, "mode": mode,
                       "protocol": protocol, "track": track, "entries": ranked, "rows": board_rows(ranked),
                       "partial": partial,
                       "frame": board_frame(ranked, partial), "baselines": BASELINES,
                       "label": f"{bench} {all_es[0].view.config.mode} · {track} · {protocol}"})
    return boards


__all__ = ["BASELINES", "LINES", "board_frame", "board_rows", "bughunt_boards", "bughunt_line", "is_bughunt", "rank_key"]
