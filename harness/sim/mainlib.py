"""The harness mains' C++, split in two: a prebuilt half and the model's glue.

A harness main (the coverage and capture main, the bug hunt's) was compiled with every testbench's model:
its strings, maps and file writing cost a third of each build's compile. Almost none of it depends on the
model, so it is split:

- the **prebuilt half** (``LIB_SOURCES``): everything the main does, compiled once per runtime folder
  beside Verilator's runtime objects (``Runtime.ensure``, so the Docker image has it too) and linked into
  every model that uses it. It reaches the model only through ``EcovModel`` (``MAIN_API_CPP``) and the hooks
  the glue hands it;
- the **glue** (``coverage_glue``, ``bughunt_glue``): a few lines compiled with the model, which wrap
  ``Vtop`` in ``EcovModel``, hand over the DPI exports the main calls (the recorder's, the port probe) and
  define the DPI imports whose names are random per build (the bug hunt's selector).

The code the run executes is the same as when it was one file: same statements, same order, the same
channel (ecov.harness.sim.verilator's notes on ECOV_MAIN). Pure text here: no compiler, no I/O.
"""

from __future__ import annotations

import hashlib
import re

from ecov.harness.sim.recorder import RECORDER_CPP

# C++ shared by every harness main (these, the replay's, cocotb's): the private channel, a non-dumpable process.
MAIN_INPUT_CPP = r"""
#include <sys/prctl.h>
#include <fcntl.h>
#include <unistd.h>
// ECov: the output folder and nonce arrive on standard input (two lines), which is then /dev/null.
static void ecov_read_input(std::string& out, std::string& nonce) {
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // own /proc files (mem, environ) unreadable to this uid
    std::string text;
    char buf[512];
    while (text.size() < 4096) {
        const ssize_t n = read(0, buf, sizeof buf);
        if (n <= 0) break;
        text.append(buf, static_cast<size_t>(n));
        if (std::count(text.begin(), text.end(), '\n') >= 2) break;
    }
    explicit_bzero(buf, sizeof buf);  // no copy of the channel left on the stack
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) { dup2(devnull, 0); if (devnull != 0) close(devnull); }
    const size_t first = text.find('\n');
    if (first == std::string::npos) return;
    const size_t second = text.find('\n', first + 1);
    if (second == std::string::npos) return;
    out = text.substr(0, first);
    nonce = text.substr(first + 1, second - first - 1);
    std::fill(text.begin(), text.end(), '\0');
}
"""

# The contract monitor's DPI side (harness/contracts/bind.py), shared by the harness main and the replay
# main: the first violation is recorded with a coverage snapshot (the legal figures); the run goes on.
CONTRACT_CPP = r"""
// Interface contracts (harness/contracts/bind.py): the monitor bound into the DUT calls these through
// DPI. The first violation is recorded with a coverage snapshot (the legal figures); the run goes on.
static VerilatedContext* ecov_ctx = nullptr;
static std::string ecov_dir;
static bool ecov_violated = false;
static std::string ecov_first_rule;
static long long ecov_first_time = 0;
static std::map<std::string, long long> ecov_counts;
static std::map<std::string, int> ecov_bins;

extern "C" void ecov_contract_violation(const char* rule, long long t) {
    ecov_counts[rule] += 1;
    if (ecov_violated) return;
    ecov_violated = true;
    ecov_first_rule = rule;
    ecov_first_time = t;
    if (ecov_ctx && !ecov_dir.empty()) ecov_ctx->coveragep()->write(ecov_dir + "/legal.dat");
}

extern "C" void ecov_contract_bin(const char* name) {
    if (ecov_bins.find(name) == ecov_bins.end()) ecov_bins[name] = ecov_violated ? 0 : 1;
}

static void ecov_contract_write() {
    if (ecov_dir.empty() || (ecov_counts.empty() && ecov_bins.empty())) return;
    if (FILE* f = std::fopen((ecov_dir + "/contract.txt").c_str(), "w")) {
        if (ecov_violated) std::fprintf(f, "violation %s %lld\n", ecov_first_rule.c_str(), ecov_first_time);
        for (const auto& kv : ecov_counts) std::fprintf(f, "count %s %lld\n", kv.first.c_str(), kv.second);
        for (const auto& kv : ecov_bins) std::fprintf(f, "bin %s %d\n", kv.first.c_str(), kv.second);
        std::fclose(f);
    }
}
"""

# The start of every harness main: the private channel first, then the context and the model (``@@MODEL@@``,
# made by ``@@MAKE@@``), per-instance coverage.
_PROLOGUE = """    std::string ecov_out, ecov_nonce;
    ecov_read_input(ecov_out, ecov_nonce);
    Verilated::debug(0);
    const std::unique_ptr<VerilatedContext> contextp{new VerilatedContext};
    contextp->threads(1);
    contextp->commandArgs(argc, argv);
    contextp->coveragep()->forcePerInstance(true);
    const std::unique_ptr<@@MODEL@@> topp{@@MAKE@@};
    ecov_ctx = contextp.get();
    ecov_dir = ecov_out;
"""
# The prologue of a main compiled whole with its model (the replay's).
MAIN_PROLOGUE_CPP = _PROLOGUE.replace("@@MODEL@@", "Vtop").replace("@@MAKE@@", 'new Vtop{contextp.get(), ""}')

# The border between the halves: the model as the main drives it, and what the glue hands over.
MAIN_API_CPP = r"""
// ECov harness main API (harness/sim/mainlib.py): the model as the prebuilt main drives it.
struct EcovModel {
    virtual ~EcovModel() {}
    virtual void eval() = 0;
    virtual bool eventsPending() = 0;
    virtual uint64_t nextTimeSlot() = 0;
    virtual void final() = 0;
};
struct EcovHooks {
    EcovModel* (*make)(VerilatedContext*);  // the model, built on the main's context
    const char* rec_scope;                  // the recorder's DPI scope; nullptr: no recorder
    unsigned long long rec_cap;             // the recorder's byte cap
    void (*rec_info)();                     // the recorder's DPI exports
    void (*rec_step)();
    const char* dut_scope;                  // bug hunt: the DUT's scope (the port probe's)
    void (*probe)();                        // bug hunt: the port probe (a DPI export)
};
int ecov_coverage_main(int argc, char** argv, const EcovHooks& hooks);
int ecov_bughunt_main(int argc, char** argv, const EcovHooks& hooks);
unsigned int ecov_bughunt_key();
void ecov_bughunt_put(unsigned int idx, unsigned int word, unsigned int value);
"""

# The recorder's writer calls the recorder's two DPI exports by name; in the prebuilt half they are the
# glue's, handed over in the hooks.
_DPI_INCLUDE = '#include "Vtop__Dpi.h"\n'
if _DPI_INCLUDE not in RECORDER_CPP:  # pragma: no cover - a guard on the shared text
    raise RuntimeError("RECORDER_CPP no longer includes Vtop__Dpi.h: update mainlib")
_RECORDER_LIB = RECORDER_CPP.replace(_DPI_INCLUDE, "")

_LIB_HEAD = r"""#include "verilated.h"
#include "verilated_cov.h"
#include "svdpi.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
""" + MAIN_API_CPP + MAIN_INPUT_CPP + r"""
static void (*ecov_hook_info)() = nullptr;
static void (*ecov_hook_step)() = nullptr;
static void ecov_recorder_info() { if (ecov_hook_info) ecov_hook_info(); }
static void ecov_recorder_step() { if (ecov_hook_step) ecov_hook_step(); }
""" + _RECORDER_LIB

# The coverage and capture main (ECOV_MAIN and record_main in harness/sim/verilator.py). Differences from
# Verilator's --main, all for integrity: see the notes on ECOV_MAIN there.
COVERAGE_LIB_CPP = "// ECov harness main, prebuilt half (harness/sim/mainlib.py COVERAGE_LIB_CPP)\n" + _LIB_HEAD + \
    CONTRACT_CPP + r"""
int ecov_coverage_main(int argc, char** argv, const EcovHooks& hooks) {
""" + _PROLOGUE.replace("@@MODEL@@", "EcovModel").replace("@@MAKE@@", "hooks.make(contextp.get())") + r"""    if (!ecov_out.empty()) contextp->coveragep()->write(ecov_out + "/points.dat");
    const bool recording = hooks.rec_scope != nullptr;
    if (recording) {
        ecov_hook_info = hooks.rec_info;
        ecov_hook_step = hooks.rec_step;
        ecov_rec_open(contextp.get(), ecov_out, hooks.rec_scope, hooks.rec_cap);
    }
    while (VL_LIKELY(!contextp->gotFinish())) {
        topp->eval();
        if (recording) ecov_rec_after_eval();
        if (!topp->eventsPending()) break;
        contextp->time(topp->nextTimeSlot());
    }
    const bool ecov_finished = contextp->gotFinish();
    topp->final();
    const char* ecov_trace = recording ? ecov_rec_close(ecov_finished) : nullptr;
    if (!ecov_out.empty()) {
        contextp->coveragep()->write(ecov_out + "/coverage.dat");
        ecov_contract_write();
        if (FILE* f = std::fopen((ecov_out + "/end").c_str(), "w")) {
            if (recording) {
                std::fprintf(f, "ecov-end %s finish=%d trace=%s\n", ecov_nonce.c_str(), ecov_finished ? 1 : 0, ecov_trace);
            } else {
                std::fprintf(f, "ecov-end %s finish=%d\n", ecov_nonce.c_str(), ecov_finished ? 1 : 0);
            }
            std::fclose(f);
        }
    } else {
        contextp->coveragep()->write();
    }
    contextp->statsPrintSummary();
    return 0;
}
"""

# The bug hunt's main (harness/sim/mutantrun.py, where its channel and outputs are described).
BUGHUNT_LIB_CPP = "// ECov bug-hunt main, prebuilt half (harness/sim/mainlib.py BUGHUNT_LIB_CPP)\n" + _LIB_HEAD + r"""
static unsigned int ecov_key = 0;
static unsigned long long ecov_now = 0;
static std::unordered_map<unsigned int, unsigned int> ecov_last;
static FILE* ecov_trace = nullptr;
static unsigned long long ecov_bytes = 0;
static bool ecov_overflow = false;
static const unsigned long long ecov_trace_cap = @@TRACE_CAP@@ull;

unsigned int ecov_bughunt_key() { return ecov_key; }

void ecov_bughunt_put(unsigned int idx, unsigned int word, unsigned int value) {
    if (word > 255u || idx > 0xFFFFFFu) return;
    const unsigned int k = (idx << 8) | word;
    const auto it = ecov_last.find(k);
    if (it != ecov_last.end() && it->second == value) return;
    ecov_last[k] = value;
    if (!ecov_trace || ecov_overflow) return;
    if (ecov_bytes + 16 > ecov_trace_cap) { ecov_overflow = true; return; }
    unsigned char rec[16];
    std::memcpy(rec, &ecov_now, 8);
    std::memcpy(rec + 8, &k, 4);
    std::memcpy(rec + 12, &value, 4);
    if (std::fwrite(rec, 1, 16, ecov_trace) != 16) { ecov_overflow = true; return; }
    ecov_bytes += 16;
}

int ecov_bughunt_main(int argc, char** argv, const EcovHooks& hooks) {
    std::string ecov_out, ecov_line;
    ecov_read_input(ecov_out, ecov_line);
    char nonce[72] = {0};
    unsigned int key = 0;
    unsigned long long maxtime = 0;
    int stop = 1;
    const int got = std::sscanf(ecov_line.c_str(), "%64s %u %llu %d", nonce, &key, &maxtime, &stop);
    std::fill(ecov_line.begin(), ecov_line.end(), '\0');
    if (got != 4 || ecov_out.empty()) return 3;
    ecov_key = key;
    Verilated::debug(0);
    const std::unique_ptr<VerilatedContext> contextp{new VerilatedContext};
    contextp->threads(1);
    contextp->fatalOnError(false);
    contextp->commandArgs(argc, argv);
    const std::unique_ptr<EcovModel> topp{hooks.make(contextp.get())};
    ecov_trace = std::fopen((ecov_out + "/ports.bin").c_str(), "wb");
    const svScope scope = svGetScopeFromName(hooks.dut_scope);
    ecov_hook_info = hooks.rec_info;
    ecov_hook_step = hooks.rec_step;
    ecov_rec_open(contextp.get(), ecov_out, hooks.rec_scope, hooks.rec_cap);
    bool failed = false, capped = false;
    unsigned long long fail_t = 0;
    while (VL_LIKELY(!contextp->gotFinish())) {
        topp->eval();
        ecov_rec_after_eval();
        ecov_now = contextp->time();
        if (scope) { svSetScope(scope); hooks.probe(); }
        if (!failed && (contextp->errorCount() > 0 || contextp->gotError())) {
            failed = true;
            fail_t = ecov_now;
            if (stop) break;
        }
        if (!topp->eventsPending()) break;
        const unsigned long long next = topp->nextTimeSlot();
        if (maxtime && next > maxtime) { capped = true; break; }
        contextp->time(next);
    }
    const bool finished = contextp->gotFinish() && !failed;
    topp->final();
    if (!failed && (contextp->errorCount() > 0 || contextp->gotError())) { failed = true; fail_t = contextp->time(); }
    const char* rec = ecov_rec_close(finished);
    if (ecov_trace && std::fclose(ecov_trace) != 0) ecov_overflow = true;
    if (FILE* f = std::fopen((ecov_out + "/end").c_str(), "w")) {
        std::fprintf(f, "ecov-bughunt %s finish=%d fail=%d fail_t=%llu capped=%d scope=%d overflow=%d end_t=%llu "
                     "prec=%d rec=%s\n", nonce, finished ? 1 : 0, failed ? 1 : 0, fail_t, capped ? 1 : 0,
                     scope ? 1 : 0, ecov_overflow ? 1 : 0, static_cast<unsigned long long>(contextp->time()),
                     static_cast<int>(contextp->timeprecision()), rec);
        std::fclose(f);
    }
    return 0;
}
"""

TRACE_CAP = 64 * 1024 * 1024  # bytes of the bug hunt's port trace per run (4 Mi changed words)
COVERAGE_LIB, BUGHUNT_LIB = "ecov_main_cov", "ecov_main_bughunt"
# Each prebuilt half: its object's name in the runtime folder and its source.
LIB_SOURCES = {
    COVERAGE_LIB: COVERAGE_LIB_CPP,
    BUGHUNT_LIB: BUGHUNT_LIB_CPP.replace("@@TRACE_CAP@@", str(TRACE_CAP)),
}
# Part of the runtime folder's key: another main, another folder.
DIGEST = hashlib.sha256("\0".join(f"{k}\0{v}" for k, v in sorted(LIB_SOURCES.items())).encode()).hexdigest()[:16]

_GLUE_MODEL = r"""
namespace {
struct EcovVtop final : EcovModel {
    Vtop model;
    explicit EcovVtop(VerilatedContext* contextp) : model{contextp, ""} {}
    void eval() override { model.eval(); }
    bool eventsPending() override { return model.eventsPending(); }
    uint64_t nextTimeSlot() override { return model.nextTimeSlot(); }
    void final() override { model.final(); }
};
EcovModel* ecov_make(VerilatedContext* contextp) { return new EcovVtop(contextp); }
}  // namespace
"""


def _cstring(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.]+", text):
        raise ValueError(f"not a scope name: {text!r}")
    return f'"{text}"'


def coverage_glue(rec_scope: str | None = None, rec_cap: int = 0) -> str:
    """The model's half of the coverage main; with ``rec_scope`` (the recorder's DPI scope), the capture
    main of the replay scoring, whose recorder writes at most ``rec_cap`` bytes."""
    dpi = '#include "Vtop__Dpi.h"\n' if rec_scope is not None else ""
    hooks = (f"{_cstring(rec_scope)}, {int(rec_cap)}ULL, &ecov_recorder_info, &ecov_recorder_step"
             if rec_scope is not None else "nullptr, 0ULL, nullptr, nullptr")
    return (f'// ECov harness main, the model\'s glue (harness/sim/mainlib.py); the rest is {COVERAGE_LIB}.o\n'
            f'#include "verilated.h"\n#include "Vtop.h"\n{dpi}#include <cstdint>\n' + MAIN_API_CPP + _GLUE_MODEL +
            "int main(int argc, char** argv, char**) {\n"
            f"    const EcovHooks hooks{{ecov_make, {hooks}, nullptr, nullptr}};\n"
            "    return ecov_coverage_main(argc, argv, hooks);\n}\n")


def bughunt_glue(scope: str, getter: str, put: str, probe: str, rec_scope: str, rec_cap: int) -> str:
    """The model's half of the bug hunt's main: the schema's selector getter and port sink (DPI imports
    with names random per build) and its probe, the DUT's scope ``scope`` and the recorder's."""
    for name in (getter, put, probe):
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"not a C identifier: {name!r}")
    return (f'// ECov bug-hunt main, the model\'s glue (harness/sim/mainlib.py); the rest is {BUGHUNT_LIB}.o\n'
            '#include "verilated.h"\n#include "Vtop.h"\n#include "Vtop__Dpi.h"\n#include <cstdint>\n' + MAIN_API_CPP +
            f"unsigned int {getter}() {{ return ecov_bughunt_key(); }}\n"
            f"void {put}(unsigned int idx, unsigned int word, unsigned int value) {{ ecov_bughunt_put(idx, word, value); }}\n"
            + _GLUE_MODEL +
            "int main(int argc, char** argv, char**) {\n"
            f"    const EcovHooks hooks{{ecov_make, {_cstring(rec_scope)}, {int(rec_cap)}ULL, &ecov_recorder_info, "
            f"&ecov_recorder_step, {_cstring(scope)}, &{probe}}};\n"
            "    return ecov_bughunt_main(argc, argv, hooks);\n}\n")


__all__ = ["BUGHUNT_LIB", "CONTRACT_CPP", "COVERAGE_LIB", "DIGEST", "LIB_SOURCES", "MAIN_API_CPP", "MAIN_INPUT_CPP",
           "MAIN_PROLOGUE_CPP",
           "TRACE_CAP", "bughunt_glue", "coverage_glue"]
