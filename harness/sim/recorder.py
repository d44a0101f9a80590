"""The harness recorder: a module bound into the DUT that writes what the DUT saw at its inputs (a trace).

Run 1 (the testbench with the DUT, untrusted) carries it; its trace drives the trusted replay
(ecov.harness.sim.replay), which computes every published figure. The recorder adds no sensitivity of
its own (an ``always @(port)`` recorder changed how a testbench ran, and wrote 30 GB):

- **SAMPLE records**: one ``always @(<edge>)`` per edge the DUT itself is sensitive to on an input port
  (``RecorderPlan.edges``, read from the DUT-only build's own trigger list, so the same trigger drives
  the DUT's flops and the recorder): the inputs exactly as the flops sample them, in the same region.
- **STEP records**: the main calls the exported ``ecov_recorder_step`` after every ``eval()``: the
  inputs at the end of the time step (written only when they changed).
- **The header**: the exported ``ecov_recorder_info``, called by the main before time 0, reports each
  input's width (``$bits`` at the real instance) and each overridable parameter's value at the real
  instance (passed by the bind, so a decoy module the rules read gains nothing).

The module is bound into every instance of the DUT module; the C++ side (``RECORDER_CPP``) keeps only
the calls whose DPI scope is the scored instance (``scope_name``). The trace is capped: past the cap the
writer stops and the run reports it, never a truncated trace that scores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ecov.harness.core.records import Design
from ecov.harness.hdl.ports import INPUT, PortParseError, parse_ports

FILE = "ecov_recorder.sv"
MODULE = "ecov_recorder"
INSTANCE = "ecov_recorder_i"
TRACE_FILE = "trace.bin"
INFO_FN, STEP_FN = "ecov_recorder_info", "ecov_recorder_step"
# The trace's state in the end marker (``trace=...``): what the writer saw (advisory: the trace itself is
# checked when it is read).
STATES = {0: "none", 1: "ok", 2: "over", 3: "write-error", 4: "malformed", 5: "wide"}
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_EDGE = re.compile(r"^(posedge|negedge|edge) ([A-Za-z_][A-Za-z0-9_]*)(\[\d+\])?$")


class ReplayUnsupported(ValueError):
    """A DUT the recorder cannot record or the replay cannot drive (an inout or unpacked-array port, a
    type or string parameter, an interface port): a clear error, never a silent approximation."""


@dataclass(frozen=True)
class RecorderPlan:
    """What the recorder of one DUT module records."""

    module: str
    inputs: tuple[str, ...]  # input ports, in trace order
    outputs: tuple[str, ...]
    params: tuple[tuple[str, str], ...]  # (name, integral | real) of each overridable parameter
    edges: tuple[str, ...] = ()  # "posedge clk", "negedge rst_n", "edge x", "posedge v[0]"


def plan(design: Design, edges: tuple[str, ...] = ()) -> RecorderPlan:
    """The recorder plan of ``design``'s DUT module; raises ReplayUnsupported for ports or parameters the
    trace cannot carry."""
    try:
        mp = parse_ports(design.files, design.top)
    except PortParseError as e:
        raise ReplayUnsupported(f"the DUT's ports cannot be read for the replay: {e}") from e
    if mp.parser != "pyslang":  # the forgiving regex reading misreads interface and ref ports as inputs
        raise ReplayUnsupported(f"the replay needs the DUT's ports as elaborated, and pyslang could not: "
                                f"{mp.fallback_reason}")
    bad = [f"{p.name} ({p.direction}{', unpacked array' if p.is_array else ''})" for p in mp.ports
           if p.direction not in ("input", "output") or p.is_array]
    if bad:
        raise ReplayUnsupported("the replay drives plain input ports and reads plain outputs; the DUT has "
                                + ", ".join(bad))
    odd = [p.name for p in mp.ports if not _NAME.match(p.name) or p.name.startswith("ecov")]
    if odd:
        raise ReplayUnsupported(f"port names the recorder cannot carry: {odd}")
    kinds = mp.param_kinds or {k: "integral" for k in mp.parameters}
    unsupported = {k: v for k, v in kinds.items() if v not in ("integral", "real")}
    if unsupported:
        raise ReplayUnsupported(f"the DUT has parameters the trace cannot record: {unsupported}")
    inputs = tuple(p.name for p in mp.ports if p.direction == INPUT)
    for e in edges:
        m = _EDGE.match(e)
        if not m or m.group(2) not in inputs:
            raise ReplayUnsupported(f"edge {e!r} is not an edge of an input port")
    return RecorderPlan(design.top, inputs, tuple(p.name for p in mp.ports if p.direction != INPUT),
                        tuple(sorted(kinds.items())), tuple(sorted(set(edges))))


def edges_of_triggers(descriptions: list[str], inputs: tuple[str, ...]) -> tuple[str, ...]:
    """The edges on input ports among a model's trigger descriptions (``@(posedge clk)``, as Verilator
    prints them in its generated trigger dump)."""
    out = set()
    for d in descriptions:
        m = re.fullmatch(r"@\((posedge|negedge|edge) ([A-Za-z_][A-Za-z0-9_]*)(\[\d+\])?\)", d.strip())
        if m and m.group(2) in inputs:
            out.add(f"{m.group(1)} {m.group(2)}{m.group(3) or ''}")
    return tuple(sorted(out))


def scope_name(path: str) -> str:
    """The DPI scope of the recorder in the instance at ``path`` (``tb.dut``; the DUT-only model: its module)."""
    return f"{path}.{INSTANCE}"


def record_capacity(words: int) -> int:
    """The recorder's record width in bits for records of ``words`` 32-bit words (at least one word)."""
    return 32 * max(1, words)


def recorder_sv(p: RecorderPlan, capacity: int = 0) -> str:
    """``ecov_recorder.sv``: the recorder module and its bind into ``p.module``. It starts with
    `` `resetall``/`` `undefineall`` like the contract file, so nothing the testbench defined reaches it.

    ``capacity`` (``record_capacity``; 0: the module only reports its header, as in the replay model) is
    the width of the one vector each record crosses DPI in, every port at a word boundary: fixed by the
    harness, so every specialization of the module has the same DPI signature. It must hold the records of
    every parameter set the task allows; an instance whose ports need more cannot be one of them (the
    writer then stops after the header, and the replay refuses the header)."""
    widths = [f"parameter int ECOV_W{i} = 1" for i in range(len(p.inputs))]
    values = [f"parameter ECOV_P{i} = 0" for i in range(len(p.params))]
    ports = ", ".join(f"input logic [ECOV_W{i}-1:0] {n}" for i, n in enumerate(p.inputs))
    info = "".join(f'    ecov_rec_port("{n}", ECOV_W{i});\n' for i, n in enumerate(p.inputs))
    for i, (name, kind) in enumerate(p.params):
        bits = f"$realtobits(ECOV_P{i})" if kind == "real" else f"$unsigned(ECOV_P{i})"
        info += (f"    ecov_rec_begin(0);\n"
                 f"    for (int i = 0; i < $bits({bits}); i += 32) ecov_rec_word(32'({bits} >> i));\n"
                 f'    ecov_rec_param("{name}", $bits({bits}));\n')
    record, step, always = "", "", ""
    if capacity:
        info += f"    ecov_rec_capacity({capacity});\n"
        packed = ", ".join(f"(((ECOV_W{i} + 31) / 32) * 32)'({n})" for i, n in reversed(list(enumerate(p.inputs))))
        record = (f'  import "DPI-C" context function void ecov_rec_record(input int kind, input bit [{capacity - 1}:0] v);\n'
                  f"  import \"DPI-C\" context function void ecov_rec_capacity(input int bits);\n"
                  f"  function automatic bit [{capacity - 1}:0] ecov_rec_pack();\n"
                  f"    return {capacity}'({{{packed}}});\n" if p.inputs else
                  f'  import "DPI-C" context function void ecov_rec_record(input int kind, input bit [{capacity - 1}:0] v);\n'
                  f"  import \"DPI-C\" context function void ecov_rec_capacity(input int bits);\n"
                  f"  function automatic bit [{capacity - 1}:0] ecov_rec_pack();\n    return '0;\n")
        record += "  endfunction\n"
        step = "    ecov_rec_record(2, ecov_rec_pack());\n"
        always = "".join(f"  always @({e}) ecov_rec_record(1, ecov_rec_pack());\n" for e in p.edges)
    overrides = [f".ECOV_W{i}($bits({n}))" for i, n in enumerate(p.inputs)]
    overrides += [f".ECOV_P{i}({name})" for i, (name, _) in enumerate(p.params)]
    conns = ", ".join(f".{n}({n})" for n in p.inputs)
    header = ", ".join([*widths, *values])
    return f"""`resetall
`undefineall
`timescale 1ns/1ps
module {MODULE}{f' #({header})' if header else ''} ({ports});
  import "DPI-C" context function void ecov_rec_begin(input int kind);
  import "DPI-C" context function void ecov_rec_word(input int w);
  import "DPI-C" context function void ecov_rec_port(input string name, input int width);
  import "DPI-C" context function void ecov_rec_param(input string name, input int width);
{record}  export "DPI-C" function {INFO_FN};
  export "DPI-C" function {STEP_FN};
  function void {INFO_FN}();
{info}  endfunction
  function void {STEP_FN}();
{step}  endfunction
{always}endmodule
`resetall
bind {p.module} {MODULE}{' #(' + ', '.join(overrides) + ')' if overrides else ''} {INSTANCE} ({conns});
"""


# The writer behind the recorder's DPI imports, shared by every main that records (the SV track's harness
# main, cocotb's patched main). ``ecov_rec_open`` before time 0 (writes the header, or nothing when the
# scored instance does not exist), ``ecov_rec_after_eval`` after every eval(), ``ecov_rec_close`` at the
# end (the FINAL record; returns the state for the end marker). Little-endian output, bounded by the cap.
RECORDER_CPP = r"""
// ECov recorder (harness/sim/recorder.py): the DUT's inputs as a capped binary trace.
#include "svdpi.h"
#include "Vtop__Dpi.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
static VerilatedContext* ecov_rec_ctx = nullptr;
static svScope ecov_rec_scope = nullptr;
static FILE* ecov_rec_file = nullptr;
static unsigned long long ecov_rec_cap = 0, ecov_rec_bytes = 0;
static int ecov_rec_state = 0;  // 0 none, 1 recording, 2 over the cap, 3 write error, 4 malformed, 5 too wide
static int ecov_rec_kind = -1;
static std::vector<uint32_t> ecov_rec_words, ecov_rec_widths;
static std::string ecov_rec_ports, ecov_rec_params;
static uint32_t ecov_rec_nports = 0, ecov_rec_nparams = 0;
static size_t ecov_rec_total = 0;
static bool ecov_rec_have_last = false;

static void ecov_rec_u(std::string& s, unsigned long long v, int n) {
    for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
static void ecov_rec_name(std::string& s, const char* name) {
    const size_t n = std::strlen(name);
    ecov_rec_u(s, n, 2);
    s.append(name, n);
}
static void ecov_rec_put(const std::string& s) {
    if (ecov_rec_state != 1) return;
    if (ecov_rec_bytes + s.size() > ecov_rec_cap) { ecov_rec_state = 2; return; }
    if (std::fwrite(s.data(), 1, s.size(), ecov_rec_file) != s.size()) { ecov_rec_state = 3; return; }
    ecov_rec_bytes += s.size();
}
static bool ecov_rec_mine() { return ecov_rec_scope != nullptr && svGetScope() == ecov_rec_scope; }
static void ecov_rec_mask(std::vector<uint32_t>& w, uint32_t width, size_t at) {
    const uint32_t n = (width + 31) / 32;
    if (width % 32) w[at + n - 1] &= (1u << (width % 32)) - 1u;
}
extern "C" void ecov_rec_begin(int kind) {
    ecov_rec_kind = ecov_rec_mine() ? kind : -1;
    ecov_rec_words.clear();
}
extern "C" void ecov_rec_word(int w) {
    if (ecov_rec_kind >= 0 && ecov_rec_words.size() < (1u << 18)) ecov_rec_words.push_back(static_cast<uint32_t>(w));
}
extern "C" void ecov_rec_port(const char* name, int width) {
    if (!ecov_rec_mine() || width <= 0) return;
    ecov_rec_name(ecov_rec_ports, name);
    ecov_rec_u(ecov_rec_ports, static_cast<uint32_t>(width), 4);
    ecov_rec_widths.push_back(static_cast<uint32_t>(width));
    ecov_rec_total += (width + 31) / 32;
    ++ecov_rec_nports;
}
extern "C" void ecov_rec_param(const char* name, int width) {
    if (!ecov_rec_mine() || ecov_rec_kind != 0 || width <= 0) return;
    const size_t n = (width + 31) / 32;
    if (ecov_rec_words.size() != n) { ecov_rec_state = 4; return; }
    ecov_rec_mask(ecov_rec_words, width, 0);
    ecov_rec_name(ecov_rec_params, name);
    ecov_rec_u(ecov_rec_params, static_cast<uint32_t>(width), 4);
    for (uint32_t w : ecov_rec_words) ecov_rec_u(ecov_rec_params, w, 4);
    ++ecov_rec_nparams;
    ecov_rec_kind = -1;
}
static uint32_t ecov_rec_cap_words = 0;
extern "C" void ecov_rec_capacity(int bits) {
    if (ecov_rec_mine() && bits > 0) ecov_rec_cap_words = static_cast<uint32_t>(bits) / 32u;
}
// The hot path (every edge, every time step; the model is compiled at -O0): plain arrays and memcpy.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the trace is little-endian");
static uint32_t* ecov_rec_cur = nullptr;
static uint32_t* ecov_rec_prev = nullptr;
static unsigned char* ecov_rec_out = nullptr;
static uint32_t* ecov_rec_mask_at = nullptr;
static uint32_t* ecov_rec_mask_val = nullptr;
static uint32_t ecov_rec_nmask = 0;
static void ecov_rec_write(const void* p, size_t n) {
    if (ecov_rec_bytes + n > ecov_rec_cap) { ecov_rec_state = 2; return; }
    if (std::fwrite(p, 1, n, ecov_rec_file) != n) { ecov_rec_state = 3; return; }
    ecov_rec_bytes += n;
}
extern "C" void ecov_rec_record(int kind, const svBitVecVal* v) {
    if (ecov_rec_state != 1 || svGetScope() != ecov_rec_scope) return;
    const size_t bytes = 4 * ecov_rec_total;
    std::memcpy(ecov_rec_cur, v, bytes);
    for (uint32_t i = 0; i < ecov_rec_nmask; ++i) ecov_rec_cur[ecov_rec_mask_at[i]] &= ecov_rec_mask_val[i];
    if (kind == 2 && ecov_rec_have_last && std::memcmp(ecov_rec_cur, ecov_rec_prev, bytes) == 0) return;
    const unsigned long long t = ecov_rec_ctx->time();
    ecov_rec_out[0] = static_cast<unsigned char>(kind);
    std::memcpy(ecov_rec_out + 1, &t, 8);
    std::memcpy(ecov_rec_out + 9, ecov_rec_cur, bytes);
    ecov_rec_write(ecov_rec_out, 9 + bytes);
    uint32_t* const swap = ecov_rec_cur;
    ecov_rec_cur = ecov_rec_prev;
    ecov_rec_prev = swap;
    ecov_rec_have_last = true;
}
// The header's port and parameter section, from the recorder in the instance named ``scope`` (empty when
// there is none); leaves ``ecov_rec_scope`` set to it.
static std::string ecov_rec_design(const char* scope) {
    ecov_rec_scope = svGetScopeFromName(scope);
    if (!ecov_rec_scope) return std::string();
    const svScope prev = svSetScope(ecov_rec_scope);
    ecov_recorder_info();
    svSetScope(prev);
    std::string s;
    ecov_rec_u(s, ecov_rec_nports, 4);
    s += ecov_rec_ports;
    ecov_rec_u(s, ecov_rec_nparams, 4);
    s += ecov_rec_params;
    return s;
}
static void ecov_rec_open(VerilatedContext* ctx, const std::string& dir, const char* scope, unsigned long long cap) {
    ecov_rec_ctx = ctx;
    ecov_rec_cap = cap;
    if (dir.empty()) return;
    const std::string design = ecov_rec_design(scope);
    if (design.empty()) return;  // the scored instance is not there: no trace
    ecov_rec_file = std::fopen((dir + "/trace.bin").c_str(), "wb");
    if (!ecov_rec_file) { ecov_rec_state = 3; return; }
    static char ecov_rec_buf[1 << 16];
    std::setvbuf(ecov_rec_file, ecov_rec_buf, _IOFBF, sizeof ecov_rec_buf);
    ecov_rec_state = 1;
    std::string s("ECOVTRC1");
    ecov_rec_u(s, static_cast<uint32_t>(static_cast<int32_t>(ctx->timeprecision())), 4);
    ecov_rec_put(s + design);
    // An instance whose records are wider than the harness's vector has no allowed parameter set: its
    // header alone is written (the replay refuses it).
    if (ecov_rec_cap_words && ecov_rec_total > ecov_rec_cap_words) ecov_rec_state = 5;
    ecov_rec_cur = new uint32_t[ecov_rec_total + 1]();
    ecov_rec_prev = new uint32_t[ecov_rec_total + 1]();
    ecov_rec_out = new unsigned char[9 + 4 * ecov_rec_total]();
    ecov_rec_mask_at = new uint32_t[ecov_rec_widths.size() + 1]();
    ecov_rec_mask_val = new uint32_t[ecov_rec_widths.size() + 1]();
    size_t at = 0;
    for (uint32_t width : ecov_rec_widths) {
        at += (width + 31) / 32;
        if (width % 32) {
            ecov_rec_mask_at[ecov_rec_nmask] = static_cast<uint32_t>(at - 1);
            ecov_rec_mask_val[ecov_rec_nmask++] = (1u << (width % 32)) - 1u;
        }
    }
}
static void ecov_rec_after_eval() {
    if (ecov_rec_state != 1) return;
    const svScope prev = svSetScope(ecov_rec_scope);
    ecov_recorder_step();
    svSetScope(prev);
}
static const char* ecov_rec_close(bool finished) {
    if (ecov_rec_state == 1) {
        std::string s;
        ecov_rec_u(s, 3, 1);
        ecov_rec_u(s, ecov_rec_ctx->time(), 8);
        ecov_rec_u(s, finished ? 1u : 0u, 4);
        ecov_rec_put(s);
    }
    if (ecov_rec_file && std::fclose(ecov_rec_file) != 0 && ecov_rec_state == 1) ecov_rec_state = 3;
    ecov_rec_file = nullptr;
    switch (ecov_rec_state) {
        case 0: return "none";
        case 1: return "ok";
        case 2: return "over";
        case 3: return "write-error";
        case 5: return "wide";
        default: return "malformed";
    }
}
"""


__all__ = ["FILE", "MODULE", "INSTANCE", "TRACE_FILE", "INFO_FN", "STEP_FN", "ReplayUnsupported", "RecorderPlan",
           "plan", "edges_of_triggers", "scope_name", "record_capacity", "recorder_sv", "RECORDER_CPP"]
