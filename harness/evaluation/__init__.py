"""Evaluation runs: the run folder (schema and I/O), the runner (lock, resume, workers), metrics, summaries,
comparison and the random-baseline record."""
