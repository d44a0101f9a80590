"""The harness mains' C++, split in two: a prebuilt half and the model's glue.

A harness main (the coverage and capture main, the bug hunt's, the trusted replay's) was compiled with every
model:
its strings, maps and file writing cost a third of each build's compile. Almost none of it depends on the
model, so it is split:

- the **prebuilt half** (``LIB_SOURCES``): everything the main does, compiled once per runtime folder
  beside Verilator's runtime objects (``Runtime.ensure``, so the Docker image has it too) and linked into
  every model that uses it. It reaches the model only through ``EcovModel`` (``MAIN_API_CPP``) and the hooks
  the glue hands it;
- the **glue** (``coverage_glue``, ``bughunt_glue``, ``replay_glue``): a few lines compiled with the model,
  which wrap ``Vtop`` in ``EcovModel``, hand over the DPI exports the main calls (the recorder's, the port
  probe), define the DPI imports whose names are random per build (the bug hunt's selector) and, for the
  replay, the DUT's port table (``EcovReplayPorts``).

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


# The replay main's port table, from the model's glue (harness/sim/replay.py: the trusted replay).
REPLAY_API_CPP = r"""
// ECov replay main API (harness/sim/mainlib.py): the DUT's ports as the prebuilt replay loop drives them.
struct EcovReplayPorts {
    const uint32_t* in_widths;                      // the inputs in trace order
    size_t n_in;
    const char* const* out_names;                   // the outputs in trace order
    const uint32_t* out_widths;
    size_t n_out;
    void (*apply)(EcovModel*, const uint32_t*);     // one record's words onto the inputs
    void (*outputs)(EcovModel*, uint32_t*);         // the outputs' words, (width + 31) / 32 each
};
int ecov_replay_main(int argc, char** argv, const EcovHooks& hooks, const EcovReplayPorts& ports);
"""

# The trusted replay's main (harness/sim/replay.py): reads a recorded trace with every read bounds-checked
# and drives the DUT-only model from it. ``info`` writes the model's own header and stops.
REPLAY_LIB_CPP = "// ECov replay main, prebuilt half (harness/sim/mainlib.py REPLAY_LIB_CPP)\n" + _LIB_HEAD + \
    "#include <vector>\n#include <sys/stat.h>\n" + \
    'static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the trace is little-endian");\n' + \
    REPLAY_API_CPP + CONTRACT_CPP + r"""
[[noreturn]] static void ecov_malformed(const char* why, size_t at) {
    std::fprintf(stderr, "ECov replay: malformed trace: %s (byte %zu)\n", why, at);
    std::fflush(stderr);
    std::_Exit(3);
}

struct EcovBytes {
    std::vector<unsigned char> d;
    size_t pos = 0;
    const unsigned char* take(size_t n, const char* what) {
        if (n > d.size() - pos) ecov_malformed(what, pos);
        const unsigned char* p = d.data() + pos;
        pos += n;
        return p;
    }
    unsigned long long u(int n, const char* what) {
        const unsigned char* p = take(static_cast<size_t>(n), what);
        unsigned long long v = 0;
        for (int i = 0; i < n; ++i) v |= static_cast<unsigned long long>(p[i]) << (8 * i);
        return v;
    }
};

static void ecov_read_file(const char* path, unsigned long long cap, std::vector<unsigned char>& out) {
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) ecov_malformed("cannot open the trace", 0);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) ecov_malformed("not a regular file", 0);
    if (static_cast<unsigned long long>(st.st_size) > cap) ecov_malformed("over the cap", 0);
    out.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < out.size()) {
        const ssize_t n = read(fd, out.data() + got, out.size() - got);
        if (n <= 0) ecov_malformed("short read", got);
        got += static_cast<size_t>(n);
    }
    close(fd);
}

static const EcovReplayPorts* ecov_ports = nullptr;
static FILE* ecov_out_trace = nullptr;
static std::vector<uint32_t> ecov_out_last, ecov_out_now;
static bool ecov_out_any = false;
static void ecov_out_put(const std::string& s) {
    if (ecov_out_trace && std::fwrite(s.data(), 1, s.size(), ecov_out_trace) != s.size()) {
        std::fclose(ecov_out_trace);
        ecov_out_trace = nullptr;
    }
}
static void ecov_out_flush(EcovModel* t, unsigned long long now) {
    if (!ecov_out_trace) return;
    ecov_ports->outputs(t, ecov_out_now.data());
    if (ecov_out_any && ecov_out_now == ecov_out_last) return;
    std::string s;
    ecov_rec_u(s, 2, 1);
    ecov_rec_u(s, now, 8);
    for (uint32_t w : ecov_out_now) ecov_rec_u(s, w, 4);
    ecov_out_put(s);
    ecov_out_last = ecov_out_now;
    ecov_out_any = true;
}

int ecov_replay_main(int argc, char** argv, const EcovHooks& hooks, const EcovReplayPorts& ports) {
""" + _PROLOGUE.replace("@@MODEL@@", "EcovModel").replace("@@MAKE@@", "hooks.make(contextp.get())") + r"""    ecov_ports = &ports;
    ecov_hook_info = hooks.rec_info;
    ecov_hook_step = hooks.rec_step;
    size_t out_words = 0;
    for (size_t i = 0; i < ports.n_out; ++i) out_words += (ports.out_widths[i] + 31) / 32;
    ecov_out_now.assign(out_words, 0u);
    if (argc >= 2 && std::strcmp(argv[1], "info") == 0) {  // the model's own header, as a trace with no steps
        ecov_rec_open(contextp.get(), ecov_out, hooks.rec_scope, 1ULL << 24);
        std::printf("%s\n", ecov_rec_close(false));
        return ecov_rec_state == 1 ? 0 : 2;
    }
    if (argc < 4 || std::strcmp(argv[1], "replay") != 0) {
        std::fprintf(stderr, "usage: sim info | sim replay TRACE CAP [OUTPUTS]\n");
        return 2;
    }
    const std::string own = ecov_rec_design(hooks.rec_scope);
    ecov_rec_scope = nullptr;  // the model's recorder stays silent in the replay
    if (own.empty()) { std::fprintf(stderr, "ECov replay: the model has no recorder\n"); return 2; }
    EcovBytes in;
    ecov_read_file(argv[2], std::strtoull(argv[3], nullptr, 10), in.d);
    if (std::memcmp(in.take(8, "magic"), "ECOVTRC1", 8) != 0) ecov_malformed("bad magic", 0);
    const long long prec = static_cast<int32_t>(static_cast<uint32_t>(in.u(4, "precision")));
    const size_t design_at = in.pos;
    if (in.d.size() - in.pos < own.size() || std::memcmp(in.take(own.size(), "header"), own.data(), own.size()) != 0)
        ecov_malformed("its ports or parameters are not this model's", design_at);
    const long long mine = contextp->timeprecision();
    if (prec < -18 || prec > 2) ecov_malformed("bad time precision", 8);
    unsigned long long scale = 1;
    for (long long i = 0; i < (prec > mine ? prec - mine : mine - prec); ++i) scale *= 10ULL;
    auto conv = [&](unsigned long long t) -> unsigned long long {
        if (prec >= mine) {
            if (scale && t > ~0ULL / scale) ecov_malformed("time out of range", in.pos);
            return t * scale;
        }
        return t / scale;
    };
    if (argc >= 5 && argv[4][0] != '+') {
        ecov_out_trace = std::fopen((ecov_out + "/" + argv[4]).c_str(), "wb");
        std::string h("ECOVTRC1");
        ecov_rec_u(h, static_cast<uint32_t>(static_cast<int32_t>(mine)), 4);
        ecov_rec_u(h, ports.n_out, 4);
        for (size_t i = 0; i < ports.n_out; ++i) {
            ecov_rec_name(h, ports.out_names[i]);
            ecov_rec_u(h, ports.out_widths[i], 4);
        }
        ecov_rec_u(h, ecov_rec_nparams, 4);
        h += ecov_rec_params;
        ecov_out_put(h);
    }
    size_t words = 0, n_wide = 0;
    std::vector<size_t> wide_at(ports.n_in + 1);
    std::vector<uint32_t> wide_rem(ports.n_in + 1);
    for (size_t i = 0; i < ports.n_in; ++i) {
        words += (ports.in_widths[i] + 31) / 32;
        if (ports.in_widths[i] % 32) { wide_at[n_wide] = words - 1; wide_rem[n_wide++] = ports.in_widths[i] % 32; }
    }
    std::vector<uint32_t> w(words + 1, 0u);
    if (!ecov_out.empty()) contextp->coveragep()->write(ecov_out + "/points.dat");
    unsigned long long last = 0, flags = 0;
    bool final_seen = false;
    auto advance = [&](unsigned long long t, bool inclusive) {
        while (!contextp->gotFinish() && topp->eventsPending()) {
            const unsigned long long next = topp->nextTimeSlot();
            if (next > t || (!inclusive && next == t)) break;
            if (next > contextp->time()) { ecov_out_flush(topp.get(), contextp->time()); contextp->time(next); }
            topp->eval();
        }
    };
    while (in.pos < in.d.size() && !contextp->gotFinish()) {
        const size_t at = in.pos;
        const unsigned kind = static_cast<unsigned>(in.u(1, "record kind"));
        const unsigned long long t = in.u(8, "record time");
        if (t < last) ecov_malformed("time goes back", at);
        last = t;
        const unsigned long long now = conv(t);
        if (kind == 3) {
            flags = in.u(4, "final flags");
            if (in.pos != in.d.size()) ecov_malformed("bytes after the final record", in.pos);
            final_seen = true;
            advance(now, true);
            break;
        }
        if (kind != 1 && kind != 2) ecov_malformed("unknown record kind", at);
        std::memcpy(w.data(), in.take(4 * words, "record values"), 4 * words);  // little-endian, as written
        for (size_t i = 0; i < n_wide; ++i)
            if (w[wide_at[i]] >> wide_rem[i]) ecov_malformed("a value wider than its port", at);
        advance(now, false);
        if (now > contextp->time()) { ecov_out_flush(topp.get(), contextp->time()); contextp->time(now); }
        ports.apply(topp.get(), w.data());
        topp->eval();
    }
    if (!final_seen && !contextp->gotFinish()) ecov_malformed("no final record: the recording was cut short", in.pos);
    ecov_out_flush(topp.get(), contextp->time());
    if (ecov_out_trace) {
        std::string s;
        ecov_rec_u(s, 3, 1);
        ecov_rec_u(s, contextp->time(), 8);
        ecov_rec_u(s, flags & 1ULL, 4);
        ecov_out_put(s);
        if (ecov_out_trace) std::fclose(ecov_out_trace);
    }
    topp->final();
    if (!ecov_out.empty()) {
        contextp->coveragep()->write(ecov_out + "/coverage.dat");
        ecov_contract_write();
        if (FILE* f = std::fopen((ecov_out + "/end").c_str(), "w")) {
            std::fprintf(f, "ecov-end %s finish=%d trace=ok\n", ecov_nonce.c_str(), (flags & 1ULL) ? 1 : 0);
            std::fclose(f);
        }
    }
    return 0;
}
"""

TRACE_CAP = 64 * 1024 * 1024  # bytes of the bug hunt's port trace per run (4 Mi changed words)
COVERAGE_LIB, BUGHUNT_LIB, REPLAY_LIB = "ecov_main_cov", "ecov_main_bughunt", "ecov_main_replay"
# Each prebuilt half: its object's name in the runtime folder and its source.
LIB_SOURCES = {
    COVERAGE_LIB: COVERAGE_LIB_CPP,
    BUGHUNT_LIB: BUGHUNT_LIB_CPP.replace("@@TRACE_CAP@@", str(TRACE_CAP)),
    REPLAY_LIB: REPLAY_LIB_CPP,
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


# A port's words in and out of the model (a scalar port of up to 64 bits, or a VlWide).
_REPLAY_PORT_CPP = r"""
template <typename T> static inline void ecov_set(T& port, const uint32_t* w, uint32_t width) {
    unsigned long long v = w[0];
    if (width > 32) v |= static_cast<unsigned long long>(w[1]) << 32;
    port = static_cast<T>(v);
}
template <std::size_t N> static inline void ecov_set(VlWide<N>& port, const uint32_t* w, uint32_t width) {
    const uint32_t n = (width + 31) / 32;
    for (std::size_t i = 0; i < N; ++i) port[i] = i < n ? w[i] : 0u;
}
template <typename T> static inline uint32_t* ecov_get(const T& port, uint32_t* out, uint32_t width) {
    const unsigned long long v = static_cast<unsigned long long>(port);
    *out++ = static_cast<uint32_t>(v);
    if (width > 32) *out++ = static_cast<uint32_t>(v >> 32);
    return out;
}
template <std::size_t N> static inline uint32_t* ecov_get(const VlWide<N>& port, uint32_t* out, uint32_t width) {
    for (uint32_t i = 0; i < (width + 31) / 32; ++i) *out++ = port[i];
    return out;
}
"""


def replay_glue(rec_scope: str, inputs: list[tuple[str, int]], outputs: list[tuple[str, int]]) -> str:
    """The DUT-only model's half of the replay main: its port table (``inputs`` and ``outputs`` as (name,
    width), in trace order; names checked by the caller against Vtop.h) and the recorder's scope."""
    for name, _ in (*inputs, *outputs):
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"not a port name: {name!r}")
    apply, off = [], 0
    for name, width in inputs:
        apply.append(f"    ecov_set(t.{name}, w + {off}, {int(width)}u);\n")
        off += (int(width) + 31) // 32
    return (f'// ECov replay main, the model\'s glue (harness/sim/mainlib.py); the rest is {REPLAY_LIB}.o\n'
            '#include "verilated.h"\n#include "Vtop.h"\n#include "Vtop__Dpi.h"\n#include <cstdint>\n' + MAIN_API_CPP +
            REPLAY_API_CPP + _GLUE_MODEL + _REPLAY_PORT_CPP +
            f"static const uint32_t ecov_in_widths[] = {{{', '.join(f'{int(w)}u' for _, w in inputs) or '0u'}}};\n"
            f"static const char* const ecov_out_names[] = {{{', '.join(_cstring(n) for n, _ in outputs) or 'nullptr'}}};\n"
            f"static const uint32_t ecov_out_widths[] = {{{', '.join(f'{int(w)}u' for _, w in outputs) or '0u'}}};\n"
            "static void ecov_apply(EcovModel* m, const uint32_t* w) {\n"
            "    Vtop& t = static_cast<EcovVtop*>(m)->model;\n" + "".join(apply) + "}\n"
            "static void ecov_outputs(EcovModel* m, uint32_t* out) {\n"
            "    const Vtop& t = static_cast<EcovVtop*>(m)->model;\n"
            + "".join(f"    out = ecov_get(t.{n}, out, {int(w)}u);\n" for n, w in outputs) + "    (void)out;\n}\n"
            "int main(int argc, char** argv, char**) {\n"
            f"    const EcovHooks hooks{{ecov_make, {_cstring(rec_scope)}, 0ULL, &ecov_recorder_info, &ecov_recorder_step, "
            "nullptr, nullptr};\n"
            f"    const EcovReplayPorts ports{{ecov_in_widths, {len(inputs)}, ecov_out_names, ecov_out_widths, {len(outputs)}, "
            "&ecov_apply, &ecov_outputs};\n"
            "    return ecov_replay_main(argc, argv, hooks, ports);\n}\n")


__all__ = ["BUGHUNT_LIB", "CONTRACT_CPP", "COVERAGE_LIB", "DIGEST", "LIB_SOURCES", "MAIN_API_CPP", "MAIN_INPUT_CPP",
           "REPLAY_LIB", "TRACE_CAP", "bughunt_glue", "coverage_glue", "replay_glue"]
