"""Model names as the site shows them: one spelling per look, and the builtin rows' names reserved.

A name is the row a reader trusts at a glance, so a submission must not be able to look like another
row. ``normalise`` applies NFKC (fullwidth and styled letters become plain ones) and refuses invisible
characters (zero-width, bidi controls, any other format or control character). ``skeleton`` is the
confusable skeleton of Unicode TS #39 (each character mapped to its prototype with the TS #39 data that
the ``confusable-homoglyphs`` package ships): two names with the same skeleton look alike, so the site
lists only the first (``NameBook``). Names starting ``builtin/`` and the type ``baseline`` are reserved
for rows the build makes itself (leaderboard/verify.py re-makes every answer of a builtin model's run).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import lru_cache

from confusable_homoglyphs import confusables

RESERVED_PREFIX = "builtin/"
RESERVED_TYPE = "baseline"
MAX_NAME_CHARS = 100
LRM = "\u200e"


class NameError_(ValueError):
    """A model name that would mislead a reader: invisible characters, mixed-script look-alikes, a
    reserved prefix, or the look of a name already listed."""


def _invisible(ch: str) -> bool:
    # Cf: format (zero-width space/joiners, bidi embeddings, overrides and isolates, BOM); Cc: control;
    # Co/Cn/Cs: private use, unassigned, surrogates; Zl/Zp: line and paragraph separators.
    return unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cn", "Cs", "Zl", "Zp")


def normalise(name: str) -> str:
    """The name as shown: NFKC, runs of white space as one space, trimmed. NameError_ when it holds an
    invisible character, is empty or is longer than ``MAX_NAME_CHARS``."""
    text = unicodedata.normalize("NFKC", name)
    bad = sorted({f"U+{ord(c):04X}" for c in text if _invisible(c)})
    if bad:
        raise NameError_(f"model name {name!r} holds invisible or control characters ({', '.join(bad[:5])})")
    text = " ".join(text.split())
    if not text or len(text) > MAX_NAME_CHARS:
        raise NameError_(f"model name {name!r} must be 1-{MAX_NAME_CHARS} visible characters")
    # A word mixing scripts with look-alike letters ("rеference" with a Cyrillic е); words of different
    # scripts side by side ("DeepSeek 深度求索") are fine.
    if any(confusables.is_dangerous(word) for word in text.split()):
        raise NameError_(f"model name {text!r} mixes scripts with look-alike characters in one word")
    return text


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character -> its TS #39 prototype. The package stores each confusables.txt line in both
    directions, so each class (a prototype and the characters mapped to it) is a connected group; the
    prototype is the member linked to all others (a multi-character target such as "rn" for "m" wins)."""
    data = confusables.confusables_data
    degree = {a.replace(LRM, ""): len(entries) for a, entries in data.items()}
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, entries in data.items():
        for e in entries:  # right-to-left characters come wrapped in LEFT-TO-RIGHT MARKs: unwrapped
            parent[find(e["c"].replace(LRM, ""))] = find(a.replace(LRM, ""))
    groups: dict[str, list[str]] = defaultdict(list)
    for x in parent:
        groups[find(x)].append(x)
    out: dict[str, str] = {}
    for members in groups.values():
        multi = [m for m in members if len(m) > 1]
        proto = min(multi, key=lambda m: (len(m), m)) if multi else max(
            members, key=lambda m: (degree.get(m, 0), -ord(m)))
        for m in members:
            if len(m) == 1:
                out[m] = proto
    return out


def skeleton(name: str) -> str:
    """TS #39 skeleton: NFD, every character replaced by its prototype (twice, for prototypes that are
    themselves mapped characters), NFD again. Equal skeletons mean confusable names."""
    protos = _prototypes()
    text = unicodedata.normalize("NFD", name)
    for _ in range(2):
        text = "".join(protos.get(c, c) for c in text)
    return unicodedata.normalize("NFD", text)


def reserved(name: str, type_: str) -> bool:
    """Whether the row claims what only the build's own rows may: the type baseline or a builtin/ name
    (compared on skeletons, so "bui1tin/" or a fullwidth spelling is reserved too)."""
    return type_ == RESERVED_TYPE or skeleton(name.casefold()).startswith(skeleton(RESERVED_PREFIX))


class NameBook:
    """The names listed so far in one build: a name whose skeleton matches a listed name spelled
    otherwise is refused (the first listed keeps it; the build lists its own rows first)."""

    def __init__(self) -> None:
        self._by_skeleton: dict[str, str] = {}

    def admit(self, name: str) -> str:
        shown = normalise(name)
        key = skeleton(shown)
        listed = self._by_skeleton.setdefault(key, shown)
        if listed != shown:
            raise NameError_(f"model name {shown!r} looks like {listed!r}, already listed")
        return shown


__all__ = ["NameBook", "NameError_", "normalise", "reserved", "skeleton"]
