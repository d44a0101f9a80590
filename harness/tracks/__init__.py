"""Testbench-language tracks: the Track interface (base) and one plugin package per language."""
