"""The leaderboard's bug-hunt tables (issue 31): one per (benchmark, mode, track) of bughunt runs, ranked by
kill rate (then bug-hunt pass %, then coverage), the baseline rows among them: builtin/random (no checks,
the floor: 0), builtin/golden-capture (random stimulus checked against the golden outputs, the ceiling of
checking random stimulus) and builtin/reference (the self-checking references the targets come from).

Only runs over the whole task set under the protocol's settings are ranked (leaderboard/ranking.py); the
others are listed apart with the reason, as in the coverage tables. The site (leaderboard/site.py) renders
the boards (templates/_bughunt_boards.html.j2) and writes each as tables/<id>.csv / .parquet.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ecov.harness.core.protocol import get_protocol

BASELINES = {"builtin/random": "floor: no checks", "builtin/golden-capture": "oracle: random stimulus, golden outputs",
             "builtin/reference": "self-checking reference"}


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
    for rank, e in [*enumerate(ranked, 1), *((None, p) for p in partial)]:
        bh, v = bughunt_of(e), e.view
        rows.append({"rank": rank, "submission": e.name, "model": e.sub.meta.model,
                     "baseline": BASELINES.get(e.view.config.model, ""), "type": e.sub.meta.type,
                     "mode": v.config.mode, "agent": v.config.agent, "max_rounds": v.config.max_rounds,
                     "kill_rate": bh.get("kill_rate"), "bughunt_pass_rate": bh.get("pass_rate"),
                     "false_alarms": bh.get("false_alarms"), "samples": bh.get("samples"),
                     "tasks": bh.get("tasks"), "mutants": bh.get("mutants"), "killed": bh.get("killed"),
                     "avg_overall": v.pct("avg_overall"), "pass_rate": v.pct("pass_rate"),
                     "verified": e.mark.state, "ranked": e.standing.ranked,
                     "not_ranked_because": e.standing.reason, "track": v.config.tb_lang, "n": v.config.n_samples})
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
                       "protocol": protocol, "track": track, "entries": ranked, "partial": partial,
                       "frame": board_frame(ranked, partial), "baselines": BASELINES,
                       "label": f"{bench} {all_es[0].view.config.mode} · {track} · {protocol}"})
    return boards


__all__ = ["BASELINES", "bughunt_boards", "board_frame", "is_bughunt", "rank_key"]
