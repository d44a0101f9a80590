"""The harness mains' split (harness/sim/mainlib.py): a prebuilt half that knows no model, and glue.

Pure text checks; every real build in the suite (tests/test_engine.py, tests/test_bughunt*.py, ...) runs
these mains end to end.
"""

from __future__ import annotations

import re

import pytest

from ecov.harness.sim.mainlib import BUGHUNT_LIB, COVERAGE_LIB, LIB_SOURCES, bughunt_glue, coverage_glue
from ecov.harness.sim.mutantrun import bughunt_main
from ecov.harness.sim.verilator import ECOV_MAIN, record_main


def test_the_prebuilt_halves_know_no_model():
    """Compiled once per runtime folder, so nothing in them may name the model or its DPI header."""
    assert set(LIB_SOURCES) == {COVERAGE_LIB, BUGHUNT_LIB}
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
