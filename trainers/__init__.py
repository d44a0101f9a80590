"""Reference trainers: the LLM4Cov recipe (synthesis from run folders, execution-validated curation,
worst-state sampling, coverage-guided rejection, staged SFT on trl). See docs/trainers.md.

Only ``ecov.trainers.sft`` needs the ``[train]`` extra (torch, transformers, trl, peft); it imports them
inside its functions so the rest runs wherever the harness does.
"""
