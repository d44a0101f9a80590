"""Benchmarks: the dataset store, builders, calibration and publishing."""
