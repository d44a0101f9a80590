"""The built benchmarks shipped under benchmarks/<name>/ load by name with no download, are exactly what
the builders make from ../shared (rebuilt here), carry targets that follow the recorded calibration
and the benchmark's rule, and every cvdp-ecov target lowered more than 5 points below upstream comes
with a note naming the points no stimulus can reach. No simulation here: the figures come from the
manifest; `ecov-data validate` re-runs them (see the benchmark READMEs)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from ecov.harness.benchmark.calibrate import rule_percent, target_key
from ecov.harness.benchmark.spec import get_benchmark
from ecov.harness.benchmark.store import dataset_hash, load_benchmark, read_manifest, shipped_dir
from ecov.harness.evaluation.baseline import load_random_baseline

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("cvdp-ecov", "autoeval-ecov")
CALIBRATION_KEYS = ("ceiling", "calibration", "target_rule", "measures_nothing")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_benchmark_loads_by_name_and_matches_its_manifest(name):
    folder = shipped_dir(name)
    assert folder == ROOT / "benchmarks" / name
    tasks = load_benchmark(name)
    manifest = read_manifest(folder)
    assert manifest["benchmark"] == name and manifest["count"] == len(tasks)
    assert manifest["dataset_hash"] == dataset_hash(tasks)
    assert manifest["calibration"], "shipped benchmarks are calibrated"
    card = (folder / "README.md").read_text()
    assert card.startswith("---\n") and "## License and attribution" in card
    assert {"cvdp-ecov": "CC BY 4.0", "autoeval-ecov": "MIT"}[name] in card


def _ceiling(task) -> dict[str, float]:
    return {k: float(v) for k, v in (p.split("=") for p in task.source["ceiling"].split(", "))}


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_targets_follow_the_rule_from_the_recorded_ceiling(name):
    for t in load_benchmark(name):
        ceiling = _ceiling(t)
        upstream = float(t.source["upstream_target"]) if name == "cvdp-ecov" else None
        for target in t.targets:
            raw = replace(target, percent=upstream or 100.0)
            assert target.percent == rule_percent(name, raw, ceiling[target_key(target)], upstream), t.id


@pytest.mark.parametrize("name", SHIPPED)
def test_rebuilding_from_shared_gives_the_shipped_tasks(name):
    source = get_benchmark(name).default_source
    if source is None or not source.exists():
        pytest.skip(f"upstream data for {name} is not here ({source})")
    shipped = {t.id: t for t in load_benchmark(name)}
    built = {t.id: t for t in get_benchmark(name).build(source).tasks}
    left_out = {d["id"] for d in read_manifest(shipped_dir(name))["calibration"].get("left_out", [])}
    assert set(built) - left_out == set(shipped)
    for tid, s in shipped.items():
        b = built[tid]
        # Empty source fields do not survive a parquet round trip; calibration fields come from validate.
        strip = {k: v for k, v in b.source.items() if k not in CALIBRATION_KEYS and v != ""}
        assert {k: v for k, v in s.source.items() if k not in CALIBRATION_KEYS} == strip, tid
        # The contract, the mutants and the bug hunt's reference and target are attached by the loader from
        # the benchmark's contracts/, mutants/, bughunt_references/ and bughunt_targets.json, not built
        # from upstream.
        assert replace(b, targets=s.targets, source=s.source, contract=s.contract, mutants=s.mutants,
                       bughunt_tbs=s.bughunt_tbs, bughunt_target=s.bughunt_target) == s, \
            f"{tid} differs from a fresh build"


def test_cvdp_lowered_targets_come_with_a_note_of_unreachable_points():
    refs = ROOT / "benchmarks" / "cvdp-ecov" / "references"
    for t in load_benchmark("cvdp-ecov"):
        assert (refs / f"{t.id}.sv").is_file(), f"{t.id} has no ECov reference testbench"
        upstream = float(t.source["upstream_target"])
        lowered = upstream - min(x.percent for x in t.targets)
        note = refs / f"{t.id}.notes.md"
        if lowered > 5:
            assert note.is_file(), f"{t.id}: target lowered by {lowered:g} points without a note"
            text = note.read_text()
            # The note names the unreachable points: source locations and why.
            assert re.search(r"\.s?v:\d+", text), f"{note.name} names no file:line"
            assert len(text.split()) > 20


def test_cvdp_references_are_never_in_a_prompt():
    from ecov.harness.tracks.sv.prompts import build_messages

    t = next(iter(load_benchmark("cvdp-ecov")))
    text = json.dumps(build_messages(t))
    for ref in t.reference_tbs:
        body = [ln for ln in ref.content.splitlines() if len(ln.strip()) > 30]
        assert not any(ln in text for ln in body[:20])


@pytest.mark.parametrize("name", (*SHIPPED, "ecov-embedded"))
def test_no_target_is_met_by_a_testbench_that_drives_nothing(name):
    """Issue 32: the floors in random_baseline.json (`empty`, `idle`) stay below every task's targets,
    except on the tasks calibration recorded as measuring nothing (which the headline leaves out)."""
    rec = load_random_baseline(name)
    tasks = load_benchmark(None if name == "ecov-embedded" else name)
    assert rec is not None and all(rec.tasks[t.id].idle_overall is not None for t in tasks)
    marked = {t.id for t in tasks if t.source.get("measures_nothing")}
    assert rec.measures_nothing == marked
    for t in tasks:
        b = rec.tasks[t.id]
        below = all(max(b.empty_overall, b.idle_overall) < x.percent for x in t.targets if x.metric == "overall")
        assert below or t.id in marked, (t.id, b)
