"""Bounds on what one run may ask for or accept, in one place so that docs, CLIs and tests agree.

Each exists because the unbounded case was a denial of service on the harness itself (issue 24): a 5 MB
answer, a million rounds, a hundred million samples, a request that waits forever, a Retry-After of a day.
"""

from __future__ import annotations

import re

MAX_ANSWER_CHARS = 256 * 1024  # a longer model answer is a format failure; its text is cut in the record
KEPT_ANSWER_CHARS = 16 * 1024  # how much of an over-long answer the record keeps
MAX_SAMPLES = 1000  # -n
MAX_ROUNDS = 50  # --max-rounds
DEFAULT_REQUEST_TIMEOUT = 600.0  # seconds one model request may take (--request-timeout)
MAX_REQUEST_TIMEOUT = 3600.0
RETRY_AFTER_MAX = 300.0  # a server's Retry-After is honoured up to this many seconds per wait


def oversized_error(chars: int) -> str:
    """The parse error of an answer over ``MAX_ANSWER_CHARS`` (its record keeps ``KEPT_ANSWER_CHARS``)."""
    return (f"the answer is {chars:,} characters, over the limit of {MAX_ANSWER_CHARS:,}; "
            "write one testbench file of reasonable size")


_OVERSIZED = re.compile(r"^the answer is ([\d,]{1,12}) characters, over the limit of ")


def oversized_length(error: str) -> int | None:
    """The answer's length an ``oversized_error`` names (None for any other error): what a replay of the
    record needs, since the record keeps only the start of such an answer."""
    m = _OVERSIZED.match(error or "")
    return int(m.group(1).replace(",", "")) if m else None
