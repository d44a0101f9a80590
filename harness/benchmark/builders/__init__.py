"""Benchmark builders: upstream data (a path) -> ``Task`` records, one module per benchmark, each ending
with its registered ``BenchmarkSpec`` (ecov.harness.benchmark.spec). See docs/benchmarks.md."""
