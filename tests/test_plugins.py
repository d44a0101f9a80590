"""A benchmark, a track and a protocol added from OUTSIDE the package: one module registering them, found
through an ``ecov.plugins`` entry point, then a real ``ecov-eval`` run (builtin/random, real Verilator)
with all three. The toy track reuses the SV track's scorer, prompts and parser under its own name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

PLUGIN = textwrap.dedent('''
    """A toy ECov plugin: one benchmark, one track, one protocol."""
    from dataclasses import replace

    from ecov.harness.benchmark.spec import KIND as BENCHMARK, BenchmarkSpec
    from ecov.harness.benchmark.store import load_benchmark
    from ecov.harness.core.protocol import KIND as PROTOCOL, LLM4COV
    from ecov.harness.registry import register
    from ecov.harness.tracks.base import KIND as TRACK, Track
    from ecov.harness.tracks.sv.track import SV


    def load():
        tasks = [t for t in load_benchmark("ecov-embedded") if t.id == "updown_counter"]
        return [replace(t, id="toy_" + t.id) for t in tasks]


    register(BENCHMARK, "toy-bench", BenchmarkSpec(name="toy-bench", license="MIT", load=load, card="one task"))
    register(TRACK, "toy-sv", replace(SV, name="toy-sv", run_tag="-toy", description="SystemVerilog, renamed"))
    register(PROTOCOL, "toy", replace(LLM4COV, name="toy", rounds=2))
''')


def _install_plugin(root):
    (root / "toy_ecov_plugin.py").write_text(PLUGIN)
    dist = root / "toy_ecov_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-ecov-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[ecov.plugins]\ntoy = toy_ecov_plugin\n")


def test_outside_benchmark_track_and_protocol_run_through_ecov_eval(tmp_path):
    plugins = tmp_path / "site"
    plugins.mkdir()
    _install_plugin(plugins)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugins), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "run"
    res = subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", "--model", "builtin/random",
                          "--benchmark", "toy-bench", "--protocol", "toy", "--tb-lang", "toy-sv",
                          "--out", str(out), "--no-progress", "--sandbox", "auto"],
                         capture_output=True, text=True, env=env, timeout=900)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-3000:]
    config = json.loads((out / "config.json").read_text())
    assert (config["benchmark"], config["protocol"], config["tb_lang"], config["max_rounds"]) == \
        ("toy-bench", "toy", "toy-sv", 2)
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    rounds = [json.loads(line) for line in (out / "rounds.jsonl").read_text().splitlines()]
    assert [s["task_id"] for s in samples] == ["toy_updown_counter"] and samples[0]["protocol"] == "toy"
    assert 1 <= len(rounds) <= 2 and rounds[0]["result"]["status"] == "ok" and rounds[0]["result"]["overall"] > 0
    assert list((out / "logs" / "toy_updown_counter").glob("s0_r0_tb.sv"))  # the track's file suffix
    # The CLI's choices came from the registry, so its help lists the plugin's names.
    helptext = subprocess.run([sys.executable, "-m", "ecov.harness.cli.eval", "--help"], capture_output=True,
                              text=True, env=env, timeout=300).stdout
    assert "toy-sv" in helptext and "toy" in helptext
