"""Sandboxes: run one untrusted command with limits (Limits, run_limited, Sandbox); rlimit, bwrap, docker."""
