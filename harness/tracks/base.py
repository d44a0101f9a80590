"""The Track interface: everything a testbench language brings to the harness, as one registered object.

A track (``sv``: SystemVerilog; ``cocotb``: Python with cocotb) names the file suffix of its testbenches,
builds its scorer, writes the prompts of each protocol layout, parses answers and renders the random
baseline's stimulus plan. Everything above this layer (agent loop, models, runs, CLIs, leaderboard,
trainers) asks ``get_track(config.tb_lang)`` and never branches on the language. A new track is one
module that builds a ``Track`` and registers it (``register(KIND, name, track)``); see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ecov.harness import registry
from ecov.harness.core.protocol import Protocol
from ecov.harness.parse import ParseResult
from ecov.harness.tasks import Task

KIND = "track"
DEFAULT_TRACK = "sv"


@dataclass(frozen=True)
class TrackIO:
    """Prompt building and answer parsing of one track under one protocol."""

    messages: Callable[[Task, str | None, str | None], list[dict]]  # (task, testbench, feedback) -> chat
    parse: Callable[..., ParseResult]  # (text, finish_reason, current, task, design_modules) -> ParseResult
    followup: Callable[[str, str | None], dict]  # ecov-style history turn: (feedback, testbench | None)
    llm4cov_history: bool  # history appends the answer as a well-formed llm4cov answer (then the feedback)
    history_turns: Callable[..., list[dict]] | None = None  # (task, proto, answer_tb, feedback, shown_tb)
    # (feedback, task) -> the feedback as the model reads it: tool messages name the testbench as the prompts
    # show it, not as the scorer compiles it; None leaves it as rendered.
    feedback_text: Callable[[str, Task], str] | None = None


@dataclass(frozen=True)
class Track:
    name: str
    tb_suffix: str  # file suffix of a testbench in run logs
    run_tag: str  # what the default run folder name gets for this track ("" for the default track)
    description: str  # one line for CLI help
    build_messages: Callable[..., list[dict]]  # the track's ecov-layout chat (task, testbench, feedback)
    followup_message: Callable[..., dict]  # its ecov-layout history turn (feedback, testbench | None)
    io: Callable[[Protocol], TrackIO]  # prompts and parser for a protocol's layout
    make_scorer: Callable[[Any], Any]  # (EngineConfig | None) -> an engine with .score(design, tb, seed=)
    random_answer: Callable[[Any, int | None], str]  # builtin/random: (model request, round-0 cycles) -> text
    table_suffix: str = ""  # leaderboard: appended to the mode of this track's tables ("" shares the table)
    # Training rows may be rewritten to the released llm4cov answer format (`filename:` + one code block).
    llm4cov_answers: bool = False
    names_instance: bool = False  # a testbench instantiates the DUT by instance name (the toplevel otherwise)
    binds_contracts: bool = False  # its scorer binds a task's interface contract (ScoreResult.legal, issue 22)
    # The bug-hunt scorer (issue 31): (EngineConfig | None) -> an engine with .score_bughunt(design,
    # mutants, testbench, seed); None where the track cannot keep the mutant selector secret, and then
    # ``no_bughunt`` says why (make_bughunt_engine raises it).
    make_bughunt_scorer: Callable[[Any], Any] | None = None
    no_bughunt: str = ""
    # builtin/golden-capture (issue 31): (model request, round-0 cycles) -> builtin/random's testbench checked
    # against the golden design's recorded outputs; None where the track has none.
    golden_capture: Callable[[Any, int | None], str] | None = None


def get_track(name: str | None = None) -> Track:
    """The registered track ``name`` (default ``sv``); a ValueError naming the known ones otherwise."""
    try:
        return registry.get(KIND, name or DEFAULT_TRACK)
    except registry.RegistryError:
        raise ValueError(f"tb_lang must be one of {', '.join(track_names())}, not {name!r}") from None


def track_names() -> list[str]:
    """The registered tracks, the default first: CLI choices."""
    names = registry.names(KIND)
    return sorted(names, key=lambda n: (n != DEFAULT_TRACK, n))


def tb_io(proto: Protocol, tb_lang: str | None = None) -> TrackIO:
    """The seam between the agent loop and a testbench language."""
    return get_track(tb_lang).io(proto)


def make_engine(tb_lang: str | None = None, config: Any = None):
    """The scoring engine of a track (the cocotb one refuses the rlimit sandbox)."""
    return get_track(tb_lang).make_scorer(config)


class BughuntUnsupported(ValueError):
    """The track has no bug-hunt scorer; the message says why."""


def make_bughunt_engine(tb_lang: str | None = None, config: Any = None):
    """The bug-hunt scorer of a track (ecov.harness.tracks.sv.bughunt); BughuntUnsupported where it has none."""
    track = get_track(tb_lang)
    if track.make_bughunt_scorer is None:
        raise BughuntUnsupported(track.no_bughunt or f"the {track.name} track has no bug-hunt scorer")
    return track.make_bughunt_scorer(config)
