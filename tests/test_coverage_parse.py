"""coverage.dat parsing and the replay's renaming, now cached per point key: the same points as parsing each
line afresh (duplicates summed in first-seen order, unknown metrics skipped, keys too long for the cache
parsed all the same) and ``rehome`` gives what renaming each point afresh gives."""

from __future__ import annotations

import re
from dataclasses import replace

from ecov.harness.sim import coverage as cov
from ecov.harness.sim.replay import rehome


def _key(**fields: str) -> str:
    return "".join(f"\x01{k}\x02{v}" for k, v in fields.items())


def _line(key: str, count: int) -> str:
    return f"C '{key}' {count}"


A = _key(f="rtl/dut.sv", l="12", n="3", page="v_line/dut", o="block", h="dut", S="12-14", t="line")
B = _key(f="rtl/dut.sv", l="20", n="0", page="v_toggle/dut", o="q[0]", h="dut.u_sub", t="toggle")
SKIPPED = _key(f="rtl/dut.sv", l="1", t="covergroup", h="dut")


def test_duplicates_sum_in_first_seen_order_and_unknown_metrics_are_skipped():
    text = "\n".join([_line(B, 2), "# comment", _line(A, 1), _line(SKIPPED, 9), _line(B, 3), "C 'broken"])
    points = cov.parse_coverage_dat(text)
    assert [(p.key, p.count) for p in points] == [(B, 5), (A, 1)]
    a = points[1]
    assert (a.file, a.line, a.column, a.metric, a.detail, a.hier, a.lines, a.module) == (
        "rtl/dut.sv", 12, 3, "line", "block", "dut", "12-14", "dut")
    assert cov.parse_coverage_dat(text) == points  # answered from the cache: equal points


def test_a_key_too_long_for_the_cache_parses_the_same():
    long = _key(f="rtl/" + "x" * 5000 + ".sv", l="7", n="1", page="v_branch/dut", o="if", h="dut", t="branch")
    assert len(long) > cov._CACHED_KEY
    (p,) = cov.parse_coverage_dat(_line(long, 4))
    assert (p.file[-8:], p.line, p.metric, p.count, p.key) == ("xxxxx.sv", 7, "branch", 4, long)
    hits = cov._point_fields.cache_info().currsize
    cov.parse_coverage_dat(_line(long, 4))
    assert cov._point_fields.cache_info().currsize == hits  # never cached


def _rehome_afresh(points, top, path):
    """The renaming as it was before it was cached: each point renamed on its own."""
    pat = re.compile("(\x01h\x02)" + re.escape(top) + r"(?=[.\x01]|$)")
    return [replace(p, hier=path + p.hier[len(top):] if cov.in_subtree(p.hier, top) else p.hier,
                    key=pat.sub(lambda m: m.group(1) + path, p.key)) for p in points]


def test_rehome_matches_renaming_each_point_afresh():
    other = _key(f="rtl/dut.sv", l="3", page="v_line/dutx", o="x", h="dutx.inner", t="line")
    points = cov.parse_coverage_dat("\n".join(_line(k, i + 1) for i, k in enumerate((A, B, other))))
    for _ in range(2):  # the second time from the cache
        got = rehome(points, "dut", "tb.uut")
        assert got == _rehome_afresh(points, "dut", "tb.uut")
    assert [p.hier for p in got] == ["tb.uut", "tb.uut.u_sub", "dutx.inner"]
    assert "\x01h\x02tb.uut.u_sub" in got[1].key and "\x01h\x02dutx.inner" in got[2].key
