"""Bounds on what one run may ask for or accept, in one place so that docs, CLIs and tests agree.

Each exists because the unbounded case was a denial of service on the harness itself (issue 24): a 5 MB
answer, a million rounds, a hundred million samples, a request that waits forever, a Retry-After of a day.
"""

from __future__ import annotations

MAX_ANSWER_CHARS = 256 * 1024  # a longer model answer is a format failure; its text is cut in the record
KEPT_ANSWER_CHARS = 16 * 1024  # how much of an over-long answer the record keeps
MAX_SAMPLES = 1000  # -n
MAX_ROUNDS = 50  # --max-rounds
DEFAULT_REQUEST_TIMEOUT = 600.0  # seconds one model request may take (--request-timeout)
MAX_REQUEST_TIMEOUT = 3600.0
RETRY_AFTER_MAX = 300.0  # a server's Retry-After is honoured up to this many seconds per wait
