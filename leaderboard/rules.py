"""The protocol's rules for a run's settings (n, rounds, seed): what a ranked run must have used.

A run whose every figure reproduces may still have been made under settings the protocol does not set:
other rounds, another simulation seed (the best of several seeds would otherwise rank), or an n outside
what ``ecov-eval`` allows. ``verify`` calls such a run verified with standing "non-standard" and says
why; ``ranking`` lists it apart, unranked, with the same reasons: both ask this one function.
Records that contradict the run's own settings (a sample index past n, more rounds than the run's
maximum) are not a setting but a figure that does not reproduce: ``verify`` reports them as differences.
"""

from __future__ import annotations

from ecov.harness.core.limits import MAX_SAMPLES
from ecov.harness.core.protocol import find_protocol
from ecov.harness.core.run_folder import RunConfig

STANDARD, NON_STANDARD = "standard", "non-standard"
STANDARD_SEED = RunConfig.__dataclass_fields__["seed"].default  # ecov-eval's --seed default


def rounds_allowed(config: RunConfig) -> int | None:
    """The number of rounds a sample may have under the run's mode and protocol (None: unknown protocol)."""
    proto = find_protocol(config.protocol)
    if config.mode == "direct":
        return 1
    return None if proto is None else proto.rounds


def setting_problems(config: RunConfig) -> list[str]:
    """Why the run's settings are not the protocol's, in words; [] for a standard run."""
    proto = find_protocol(config.protocol)
    out = []
    if proto is None:
        out.append(f"unknown protocol {config.protocol!r}")
    if config.mode not in ("agentic", "direct"):
        out.append(f"unknown mode {config.mode!r}")
    elif config.mode == "direct" and config.max_rounds not in (0, 1):
        out.append(f"{config.max_rounds} rounds in direct mode, which has 1")
    elif proto is not None and config.mode == "agentic" and config.max_rounds and config.max_rounds != proto.rounds:
        out.append(f"{config.max_rounds} rounds where protocol {proto.name} sets {proto.rounds}")
    if not 1 <= config.n_samples <= MAX_SAMPLES:
        out.append(f"n={config.n_samples} outside 1..{MAX_SAMPLES}")
    if config.seed != STANDARD_SEED:
        out.append(f"simulation seed {config.seed} where the protocol sets {STANDARD_SEED} (a run picked "
                   "among several seeds would otherwise rank)")
    return out
