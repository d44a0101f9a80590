"""ECov harness: score LLM-written testbenches by the coverage they reach."""

__version__ = "0.1.0"
