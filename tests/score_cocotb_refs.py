"""Score every cocotb reference testbench in a folder against the embedded suite and print the figures as
JSON (one object: task id -> status, errors, overall, coverage, key). Run the same way on the host and
inside the ECov image (tests/test_image_cocotb.py), so the two can be compared figure for figure.

Usage: python3 score_cocotb_refs.py REFS_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ecov.harness.benchmark.builders.embedded import load_suite
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.tracks.cocotb.scorer import CocotbEngine


def main(refs: Path) -> None:
    engine = CocotbEngine(EngineConfig(use_cache=False, run_seconds=60))
    out = {}
    for task in load_suite():
        res = engine.score(task.design, (refs / f"{task.id}.py").read_text())
        out[task.id] = {"status": res.status, "errors": res.errors[:3], "overall": res.overall,
                        "coverage": res.coverage, "key": res.key, "meets": res.meets(task.targets)}
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
