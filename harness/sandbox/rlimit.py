"""The rlimit sandbox: limits, a wall clock and the unprivileged user, but no namespaces.

The weakest backend, for hosts where neither bubblewrap nor Docker is installed: results then say
``isolated: false``, and host-reaching constructs are refused only by the test rules.
"""

from __future__ import annotations

from ecov.harness.registry import register
from ecov.harness.sandbox.base import Sandbox, open_for_nobody, run_limited

NOT_ISOLATED = ("not isolated: the rlimit sandbox runs the simulation without namespaces (bubblewrap and "
                "Docker are unavailable); host-reaching constructs are refused by the test rules, but install "
                "bubblewrap for real isolation")


@register("sandbox", "rlimit")
class RlimitSandbox(Sandbox):
    name = "rlimit"
    isolated = False  # rlimits only: the weakest sandbox (docs/scoring.md, "Threat model")
    auto_rank = 100  # auto's last resort, used only where nothing better is installed

    def run(self, argv, workdir, limits, *, untrusted, ro_paths=(), rw_paths=(), env=None):
        if untrusted:
            open_for_nobody(workdir)
        return run_limited(argv, workdir, limits, self._env(env), drop_to_nobody=untrusted)


__all__ = ["RlimitSandbox", "NOT_ISOLATED"]
