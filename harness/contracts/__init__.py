"""Interface contracts (issue 22): the input rules a task's spec states, checked on the DUT's ports by a
harness-owned monitor bound into the DUT at build time, plus functional bins. Coverage reached after the
first broken rule does not count toward the legal figures. Format: docs/benchmarks.md ("Contracts").
"""
