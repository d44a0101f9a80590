"""The harness mains' split (harness/sim/mainlib.py): a prebuilt half that knows no model, and glue.

Pure text checks; every real build in the suite (tests/test_engine.py, tests/test_bughunt*.py, ...) runs
these mains end to end.
"""

from __future__ import annotations

import re

import pytest

from ecov.harness.sim import trace as tr
from ecov.harness.sim.mainlib import (
    BUGHUNT_LIB,
    COVERAGE_LIB,
    LIB_SOURCES,
    REPLAY_LIB,
    bughunt_glue,
    coverage_glue,
)
from ecov.harness.sim.mutantrun import bughunt_main
from ecov.harness.sim.replay import replay_main
from ecov.harness.sim.verilator import ECOV_MAIN, record_main


def test_the_prebuilt_halves_know_no_model():
    """Compiled once per runtime folder, so nothing in them may name the model or its DPI header."""
    assert set(LIB_SOURCES) == {COVERAGE_LIB, BUGHUNT_LIB, REPLAY_LIB}
    for name, text in LIB_SOURCES.items():
        assert "Vtop" not in text, name
        assert "int main(" not in text, name
        assert re.search(r"@@\w+@@", text) is None, name  # every placeholder filled


def test_coverage_glue_with_and_without_the_recorder():
    plain = ECOV_MAIN.glue
    assert ECOV_MAIN.lib == COVERAGE_LIB
    assert "Vtop__Dpi.h" not in plain and "nullptr, 0ULL, nullptr, nullptr" in plain
    rec = record_main("tb.dut.ecov_recorder_i", 1 << 20)
    assert '"tb.dut.ecov_recorder_i", 1048576ULL, &ecov_recorder_info, &ecov_recorder_step' in rec.glue
    assert '#include "Vtop__Dpi.h"' in rec.glue and rec.lib == COVERAGE_LIB
    for bad in ('tb.dut"); system("x', "tb dut", ""):
        with pytest.raises(ValueError):
            coverage_glue(bad, 10)


def test_bughunt_glue_defines_the_builds_random_names():
    m = bughunt_main("tb.dut", "ecov_bh_get_ab12", "ecov_bh_put_ab12", "ecov_bh_probe_ab12", 4096)
    assert m.lib == BUGHUNT_LIB
    assert "unsigned int ecov_bh_get_ab12() { return ecov_bughunt_key(); }" in m.glue
    assert "void ecov_bh_put_ab12(unsigned int idx, unsigned int word, unsigned int value)" in m.glue
    assert '"tb.dut.ecov_recorder_i", 4096ULL' in m.glue and '"tb.dut", &ecov_bh_probe_ab12' in m.glue
    with pytest.raises(ValueError):
        bughunt_glue("tb.dut", "get(); evil", "put", "probe", "tb.dut.r", 1)
    with pytest.raises(ValueError):
        bughunt_main('tb."dut', "g", "p", "q", 1)


def test_replay_glue_is_the_models_port_table():
    """The replay's glue: the DUT's ports in trace order (wide ones word by word), the recorder's scope and
    nothing of the loop, which is the prebuilt half's."""
    glue = replay_main("alu", [("clk", 1), ("a", 70), ("b", 33)], (tr.Port("y", 64), tr.Port("z", 96)))
    assert "return ecov_replay_main(argc, argv, hooks, ports);" in glue and "ecov_malformed" not in glue
    assert "static const uint32_t ecov_in_widths[] = {1u, 70u, 33u};" in glue
    assert "ecov_set(t.clk, w + 0, 1u);" in glue and "ecov_set(t.a, w + 1, 70u);" in glue
    assert "ecov_set(t.b, w + 4, 33u);" in glue  # a 70-bit port takes three words
    assert 'ecov_out_names[] = {"y", "z"};' in glue and "out = ecov_get(t.z, out, 96u);" in glue
    assert "ecov_in_widths, 3, ecov_out_names, ecov_out_widths, 2," in glue
    empty = replay_main("sink", [], ())
    assert "ecov_in_widths[] = {0u};" in empty and "ecov_out_names[] = {nullptr};" in empty
    for bad in ('y"); system("x', "a b", ""):
        with pytest.raises(ValueError):
            replay_main("alu", [(bad, 1)], ())
