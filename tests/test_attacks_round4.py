"""Attacks, round 4 (issue 30): one hostile testbench per class, each scoring at most its honest part.

The honest part is the same stimulus without the attack (or, where the attack changes the stimulus, the
DUT's coverage under the stimulus it really got). Classes, in both tracks where they apply, under
``--sandbox auto``, bwrap and rlimit (cocotb refuses rlimit outright):

- SV ``$fread(mem, fd, start, count)`` with ``start`` past the array, aimed at the model's coverage
  counters ``__Vcoverage`` (offset computed as an attacker would, from the same public Verilator and
  flags): the runtime's VL_FREAD_I is bounds-checked (harness/sim/runtime_patches.py); passes the rules.
- Files a run leaves where the harness reads (FIFO with a reader held open, a link to a device, a hard
  link, a FIFO end marker, the trace swapped): an error status, promptly, no job folder left
  (core/safe_read.py). SV cannot make them without memory corruption, so a sandbox planting them stands
  in; cocotb makes them itself (``os.mkfifo`` has no audit event).
- cocotb forging coverage.dat and the end marker past the guard (a ``str`` subclass whose ``__str__``
  says /dev/null), given the output folder and nonce (what the issue's
  ``marshal`` memory read found; a leaking sandbox stands in for that read).
- Parameter decoy, force on internals, hierarchical writes, C++ injection (``$c``), back-drive of DUT
  outputs: the rules refuse them (feedback); with the rules bypassed, the trusted replay still scores the
  honest part (the figures come from a DUT-only run where no testbench code executes).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from ecov.harness.core.paths import default_cache_dir, jobs_dir
from ecov.harness.core.records import OK, REJECTED, Design, SourceFile
from ecov.harness.core.safe_read import UnsafeFile, read_bytes, remove_tree
from ecov.harness.sandbox.base import Sandbox
from ecov.harness.sandbox.bwrap import bwrap_available
from ecov.harness.sandbox.factory import make_sandbox
from ecov.harness.scoring.config import EngineConfig
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.recorder import TRACE_FILE
from ecov.harness.sim.rules import check_design
from ecov.harness.sim.verilator import TB_CONFIG, VerilatorBackend, cxx
from ecov.harness.tracks.sv.scorer import TB_FILE, Engine

SCORED_FILE = TRACE_FILE  # the run-folder file whose content decides the score: run 1's trace

COUNTER = """module counter #(parameter int LIMIT = 12) (input clk, input rst, input en, output reg [3:0] q,
                                               output reg hit);
  reg [3:0] hidden;
  always @(posedge clk) begin
    if (rst) begin q <= 0; hidden <= 0; hit <= 0; end
    else if (en) begin
      q <= q + 1; hidden <= hidden ^ q;
      if (q == 4'(LIMIT)) hit <= 1;
    end
  end
endmodule
"""
DESIGN = Design(files=(SourceFile("counter.sv", COUNTER),), top="counter", instance="uut")
HEAD = """module tb;
  reg clk = 0, rst = 1, en = 0; logic [3:0] q; logic hit;
  counter uut(.clk(clk), .rst(rst), .en(en), .q(q), .hit(hit));
  always #5 clk = ~clk;
"""
STIM = "  initial begin #12 rst = 0; en = 1; #40 $finish; end\n"
HONEST = HEAD + STIM + "endmodule\n"


def tb(extra: str, head: str = HEAD) -> str:
    return head + extra + "\n" + STIM + "endmodule\n"


class Spy(Sandbox):
    """The engine's real sandbox, noting every folder a command ran in or could write (to check none is
    left), optionally leaking the harness main's channel into the job folder before an untrusted run
    (what reading the process's memory would give) and planting something in the first untrusted run's
    output folder after it (what a process past its rules could leave there)."""

    def __init__(self, inner: Sandbox, plant=None, leak: bool = False):
        self.inner, self.plant, self.leak = inner, plant, leak
        self.name, self.isolated = inner.name, inner.isolated
        self.folders: list[Path] = []

    def carry(self, paths):
        return self.inner.carry(paths)

    def run(self, argv, workdir, limits, *, untrusted, ro_paths=(), rw_paths=(), env=None, stdin=None):
        self.folders += [Path(workdir), *(Path(p) for p in rw_paths)]
        if untrusted and self.leak and stdin:
            (Path(workdir) / "leak.txt").write_bytes(stdin)
        res = self.inner.run(argv, workdir, limits, untrusted=untrusted, ro_paths=ro_paths, rw_paths=rw_paths,
                             env=env, stdin=stdin)
        if untrusted and self.plant is not None and rw_paths:
            plant, self.plant = self.plant, None
            plant(Path(rw_paths[0]))
        return res

    def left_behind(self) -> list[Path]:
        return [f for f in self.folders if jobs_dir() in f.parents and os.path.lexists(f)]


def _sandbox(kind: str) -> Sandbox:
    if kind in ("bwrap", "auto") and not bwrap_available():
        pytest.skip("bubblewrap cannot create namespaces here")
    try:
        return make_sandbox(kind)
    except RuntimeError as e:
        pytest.skip(str(e))


SV_KINDS = ["auto", "bwrap", "rlimit"]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("r4-cache")


def _engine(kind: str, cache: Path, **spy) -> tuple[Engine, Spy]:
    sandbox = Spy(_sandbox(kind), **spy)
    # One cache for the module: ``auto`` resolves to bwrap (or rlimit) here, and its scores are those.
    return Engine(EngineConfig(cache_dir=cache, run_seconds=30), sandbox=sandbox), sandbox


@pytest.fixture(scope="module")
def honest_sv(cache):
    got = {}

    def get(kind: str):
        if kind not in got:
            eng, _ = _engine(kind, cache)
            res = eng.score(DESIGN, HONEST)
            assert res.status == OK and 0 < res.overall < 100, res.errors
            got[kind] = res
        return got[kind]

    return get


_RAN: dict = {}


def _past_rules(make, kind: str, testbench: str, tag: str = "", prepare=None, **spy) -> tuple:
    """(the result, the job folders left) of ``testbench`` built and run with the rules (the cocotb policy)
    skipped, the layers below them, under a wall clock (a hang fails). Once per sandbox: ``auto`` is the
    sandbox it resolves to here, so its run is that one's. ``make(kind, **spy)`` gives (engine, Spy)."""
    key = (make.__name__, _sandbox(kind).name, testbench, tag)
    if key not in _RAN:
        eng, sandbox = make(kind, **spy)
        if prepare is not None:
            prepare(eng)
        res = _promptly(lambda: eng._build_and_run(DESIGN, testbench, 1, eng._base(DESIGN, 1)))
        _RAN[key] = (res, sandbox.left_behind())
    return _RAN[key]


@pytest.fixture(scope="module")
def sv(cache):
    def sv_engine(kind: str, **spy):
        return _engine(kind, cache, **spy)

    return sv_engine


# ------------------------------------------------------------------------------- the file reader

def test_safe_read_refuses_everything_but_a_regular_file(tmp_path):
    (tmp_path / "ok").write_text("C 'x' 1\n")
    (tmp_path / "other").write_text("C 'x' 1\n")
    assert read_bytes(tmp_path / "ok", 100) == b"C 'x' 1\n"
    assert read_bytes(tmp_path / "missing", 100) is None
    os.mkfifo(tmp_path / "fifo")  # no writer: a plain open() would wait forever
    (tmp_path / "dev").symlink_to("/dev/zero")  # a device behind a link: a plain read never ends
    (tmp_path / "link").symlink_to(tmp_path / "ok")
    os.link(tmp_path / "other", tmp_path / "hard")
    (tmp_path / "dir").mkdir()
    with open(tmp_path / "big", "wb") as f:
        f.truncate(1 << 30)  # sparse: over the cap without writing it
    why = {}
    for name in ("fifo", "dev", "link", "hard", "dir", "big"):
        with pytest.raises(UnsafeFile) as e:
            read_bytes(tmp_path / name, 1 << 20)
        why[name] = e.value.strerror
    assert "a FIFO" in why["fifo"] and "a folder" in why["dir"] and "cap" in why["big"], why
    assert "symbolic link" in why["dev"] and "symbolic link" in why["link"] and "hard links" in why["hard"], why
    with pytest.raises(UnsafeFile) as e:
        read_bytes(tmp_path / "ok", 3)
    assert e.value.errno == errno.EFBIG


def test_remove_tree_removes_what_a_run_locked(tmp_path):
    top = tmp_path / "job"
    (top / "a" / "b").mkdir(parents=True)
    (top / "a" / "b" / "f").write_text("x")
    os.mkfifo(top / "a" / "fifo")
    (top / "a" / "out").symlink_to(tmp_path)  # never followed
    (tmp_path / "keep").write_text("k")
    os.chmod(top / "a" / "b", 0)
    os.chmod(top / "a", stat.S_IRUSR | stat.S_IXUSR)
    remove_tree(top)
    assert not top.exists() and (tmp_path / "keep").exists()


# ------------------------------------------------------------------------------- SV: $fread

def _fread_target(design: Design, testbench: str) -> tuple[int, int]:
    """(byte offset from the testbench's ``mem`` to the model's ``__Vcoverage``, the counters' size): what an
    attacker computes offline from the same Verilator and flags as the harness's build."""
    backend = VerilatorBackend(make_sandbox("rlimit"), default_cache_dir())
    work = jobs_dir() / f"fread-probe-{os.getpid()}"
    remove_tree(work)
    work.mkdir()
    try:
        sources = write_design(work, ((f.name, f.content) for f in design.files))
        (work / TB_FILE).write_text(testbench)
        (work / TB_CONFIG).write_text(f'`verilator_config\ncoverage_off -file "{TB_FILE}"\n')
        argv = backend.verilator_argv("tb", [*sources, TB_FILE], TB_FILE)
        env = {**os.environ, "VERILATOR_ROOT": str(backend.runtime.root)}
        subprocess.run(argv, cwd=work, env=env, check=True, capture_output=True)
        (work / "probe.cpp").write_text(
            '#include "Vtop.h"\n#include "Vtop__Syms.h"\n#include <cstddef>\n#include <cstdio>\n'
            "int main() { std::printf(\"%zu %zu\\n\", offsetof(Vtop__Syms, __Vcoverage) - offsetof(Vtop__Syms, TOP)"
            " - offsetof(Vtop___024root, tb__DOT__mem), sizeof(Vtop__Syms::__Vcoverage)); }\n")
        subprocess.run([cxx(), *backend.runtime.cflags(), "-Iobj", "-Wno-invalid-offsetof", "probe.cpp", "-o", "probe"],
                       cwd=work, check=True, capture_output=True)
        offset, size = subprocess.run(["./probe"], cwd=work, check=True, capture_output=True, text=True).stdout.split()
        return int(offset), int(size)
    finally:
        remove_tree(work)


FREAD = """  reg [7:0] mem [0:3];
  integer fd, n, i;
  initial begin
    #45;
    fd = $fopen("cov.bin", "w");
    for (i = 0; i < SIZE; i++) $fwrite(fd, "%c", 8'h01);
    $fclose(fd);
    fd = $fopen("cov.bin", "r");
    n = $fread(mem, fd, OFFSET, SIZE);
    $display("ECOV-R4 fread %0d %h", n, mem[0]);
  end
"""


@pytest.fixture(scope="module")
def fread_attack():
    text = tb(FREAD.replace("SIZE", "16").replace("OFFSET", "4096"))
    offset, size = _fread_target(DESIGN, text)  # the layout does not depend on the two numbers
    return tb(FREAD.replace("SIZE", str(size)).replace("OFFSET", str(offset)))


def test_fread_bound_holds_where_the_counters_live(cache, fread_attack):
    """The direct path (the testbench and the counters in one process: what scored before the replay, kept
    for the fidelity script) is where the offset lands on ``__Vcoverage``: the bounded runtime writes
    nothing (69.44 -> 100.00 with Verilator's own VL_FREAD_I)."""
    eng = Engine(EngineConfig(cache_dir=cache, run_seconds=30, sandbox="rlimit"), direct=True)
    honest = eng.score(DESIGN, HONEST)
    res = eng.score(DESIGN, fread_attack)
    assert res.status == OK and "ECOV-R4 fread 0" in res.log_tail, (res.errors, res.log_tail[-800:])
    assert honest.status == OK and res.coverage == honest.coverage


@pytest.mark.parametrize("kind", SV_KINDS)
def test_fread_past_the_array_cannot_reach_the_counters(kind, cache, honest_sv, fread_attack):
    assert check_design(DESIGN, fread_attack) == []  # allowed tasks only
    eng, spy = _engine(kind, cache)
    res = eng.score(DESIGN, fread_attack)
    assert res.status == OK and "ECOV-R4 fread 0" in res.log_tail, (res.errors, res.log_tail[-800:])
    assert res.overall <= honest_sv(kind).overall
    assert not spy.left_behind()


# ------------------------------------------------------------------------------- files left in the run folder

def _swap(name: str, make):
    def plant(out: Path) -> None:
        os.unlink(out / name)
        make(out / name)
    return plant


PLANTS = {  # each replaces a file the harness reads after the run: (the plant, whether its content counts)
    "fifo-scored": (_swap(SCORED_FILE, os.mkfifo), True),
    "device-link-scored": (_swap(SCORED_FILE, lambda p: os.symlink("/dev/zero", p)), True),
    "hard-link-scored": (_swap(SCORED_FILE, lambda p: os.link(p.parent / "points.dat", p)), True),
    "fifo-end": (_swap("end", os.mkfifo), True),
    # read as well, though the replay's figures do not depend on it: still an error
    "fifo-coverage": (_swap("coverage.dat", os.mkfifo), True),
}


def _promptly(fn, seconds: float = 240):
    """``fn()``'s result, or a failure if it has not returned within ``seconds`` (the harness hung)."""
    box: dict = {}
    worker = threading.Thread(target=lambda: box.update(result=fn()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"the harness did not return within {seconds} s"
    return box["result"]


@pytest.mark.parametrize("kind", SV_KINDS)
@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_files_a_run_leaves_are_an_error_never_a_hang(kind, plant, sv, honest_sv):
    """``auto`` is the run of the sandbox it resolves to (memoised: no extra build)."""
    if kind == "rlimit" and plant in ("hard-link-scored", "fifo-end", "fifo-coverage"):
        pytest.skip("one sandbox is enough for these")
    how, counts = PLANTS[plant]
    res, left = _past_rules(sv, kind, HONEST, plant, plant=how)
    assert res.overall <= honest_sv(kind).overall, (res.status, res.errors)
    if counts:  # an error status that says what was found
        assert res.status != OK and any("regular file" in e or "hard link" in e for e in res.errors), res.errors
    assert not left


def _interrupt(out: Path) -> None:
    raise KeyboardInterrupt


def test_job_folders_go_on_an_interrupt(sv):
    """Ctrl-C while the harness reads a run back: the job folder and the run folder are removed anyway."""
    eng, spy = sv("rlimit", plant=_interrupt)
    with pytest.raises(KeyboardInterrupt):
        eng._build_and_run(DESIGN, HONEST, 1, eng._base(DESIGN, 1))
    assert spy.folders and not spy.left_behind()


# ------------------------------------------------------------------------------- SV: the replay's classes

DECOY = """module decoy;
  reg clk = 0, rst = 1, en = 0; logic [3:0] q; logic hit;
  counter uut(.clk(clk), .rst(rst), .en(en), .q(q), .hit(hit));
endmodule
"""
SV_ATTACKS = {
    # a module defined before the top holds a default instance; the real top overrides the parameter
    "parameter-decoy": DECOY + tb("", head=HEAD.replace("counter uut", "counter #(.LIMIT(1)) uut")),
    "force-internal": tb("  initial begin #22 force uut.hidden = 4'hf; #10 release uut.hidden; end"),
    "hierarchical-write": tb("  initial begin #22 uut.hidden = 4'ha; #10 tb.uut.hidden = 4'h5; end"),
    # C++ that writes the DUT's q register, named by Verilator itself (an expression argument of $c)
    "cpp-injection": tb('  initial begin #31 $c(q, " = 11;"); end'),
    "output-back-drive": tb("  initial begin #31 q = 4'd11; end"),
}
RULES = {"parameter-decoy": "parameter-override", "force-internal": "force-release",
         "hierarchical-write": "hierarchical-write", "cpp-injection": "verilator-c-escape",
         "output-back-drive": "dut-output-write"}


@pytest.mark.parametrize("name", sorted(SV_ATTACKS))
def test_sv_attacks_are_refused_by_the_rules(name):
    assert RULES[name] in {v.rule for v in check_design(DESIGN, SV_ATTACKS[name])}


@pytest.mark.parametrize("kind", SV_KINDS)
@pytest.mark.parametrize("name", sorted(SV_ATTACKS))
def test_sv_attacks_past_the_rules_score_their_honest_part(name, kind, sv, honest_sv):
    res, left = _past_rules(sv, kind, SV_ATTACKS[name])
    assert res.overall <= honest_sv(kind).overall, (res.status, res.errors, res.overall)
    assert not left


# ------------------------------------------------------------------------------- cocotb

COCOTB = """import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


@cocotb.test()
async def t(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.en.value = 0
    await Timer(12, unit="ns")
    dut.rst.value = 0
    dut.en.value = 1
    for _ in range(4):
        await RisingEdge(dut.clk)
ATTACK
"""
# The output folder, as the memory read found it (a leaking sandbox stands in for that read; the
# guard refuses listing the jobs folder, and os.listdir hands its audit hook the converted path).
FIND_OUT = """
    import os

    out = open("leak.txt").read().split("\\n")[0]
"""
LIST_OUT = """
    import os

    parent = os.path.dirname(os.getcwd())
    out = os.path.join(parent, next(n for n in os.listdir(parent) if n.startswith("out-")))
"""
COCOTB_ATTACKS = {
    # coverage.dat a FIFO (os.mkfifo has no audit event), a reader held open so the main's own write goes
    # through, then nothing: the harness's read of it would wait forever.
    "fifo-hang": FIND_OUT + """
    import threading

    fifo = os.path.join(out, "coverage.dat")
    os.mkfifo(fifo)

    def hold():
        fd = os.open(fifo, os.O_RDONLY)
        while os.read(fd, 65536):
            pass
        threading.Event().wait()

    threading.Thread(target=hold, daemon=True).start()
""",
    # Given the channel (the issue read it from ./sim's memory), write coverage and the end marker past the
    # guard (os.open hands the audit hook the path as given: a str whose __str__ says /dev/null) and leave
    # before the main writes anything.
    "forge-past-guard": """
    import os
    import re

    out, nonce = open("leak.txt").read().split("\\n")[:2]

    class P(str):
        def __str__(self):
            return "/dev/null"

    def write(name, text):
        fd = os.open(P(os.path.join(out, name)), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, text.encode())
        os.close(fd)

    points = os.path.join(out, "points.dat")
    if os.path.exists(points):  # a run that counts coverage itself: every point hit
        write("coverage.dat", re.sub(r"' 0$", "' 7", open(points).read(), flags=re.M))
        write("end", f"ecov-end {nonce} finish=1\\n")
    else:  # a run whose figures come from its trace: say the recording is complete
        write("end", f"ecov-end {nonce} finish=1 trace=ok\\n")
    os._exit(0)
""",
    # Internals do not exist for VPI: deposit, Force and a write below the ports all fail; outputs are read-only.
    "internals-and-outputs": """
    from cocotb.handle import Force

    seen = []
    for attempt in (lambda: setattr(dut.hidden, "value", 15), lambda: setattr(dut.hidden, "value", Force(15)),
                    lambda: setattr(dut.uut.hidden, "value", 15)):
        try:
            attempt()
            seen.append("wrote")
        except Exception as e:  # noqa: BLE001
            seen.append(type(e).__name__)
    try:
        dut.q.value = 11
        await Timer(1, unit="ns")  # no further clock edge: the stimulus stays the honest one
        seen.append(f"q={int(dut.q.value)}")
    except Exception as e:  # noqa: BLE001
        seen.append(type(e).__name__)
    print("ECOV-R4", seen)
""",
}
COCOTB_KINDS = ["auto", "bwrap"]


@pytest.fixture(scope="module")
def cocotb_engines(cache):
    from ecov.harness.tracks.cocotb.scorer import CocotbEngine

    def cocotb_engine(kind: str, **spy):
        sandbox = Spy(_sandbox(kind), **spy)
        return CocotbEngine(EngineConfig(cache_dir=cache, run_seconds=30), sandbox=sandbox), sandbox

    return cocotb_engine


@pytest.fixture(scope="module")
def honest_cocotb(cocotb_engines):
    got = {}

    def get(kind: str):
        if kind not in got:
            eng, _ = cocotb_engines(kind)
            res = eng.score(DESIGN, COCOTB.replace("ATTACK", ""))
            assert res.status == OK and 0 < res.overall < 100, (res.errors, res.log_tail[-1500:])
            got[kind] = res
        return got[kind]

    return get


def test_cocotb_simulator_is_stripped(cocotb_engines, honest_cocotb):
    """No symbol table names the harness main's statics (``ecov_out``, ``ecov_nonce``) or the model's
    members to code that reads the process's memory."""
    honest_cocotb("bwrap")
    eng, _ = cocotb_engines("bwrap")
    data = eng.build(DESIGN).binary.read_bytes()
    assert b".symtab\x00" not in data and b"ecov_nonce" not in data and b"ecov_out" not in data


def test_cocotb_refuses_rlimit():
    from ecov.harness.tracks.cocotb.scorer import CocotbEngine, RlimitRefused

    with pytest.raises(RlimitRefused):
        CocotbEngine(EngineConfig(sandbox="rlimit"))


def test_cocotb_policy_refuses_code_in_strings():
    from ecov.harness.tracks.cocotb.policy import check_python_testbench

    hidden = ("    import typing\n\n    class A:\n        x: \"exec('import os')\"\n\n    typing.get_type_hints(A)\n")
    fmt = "    import string\n    string.Formatter().get_field('0.__class__', [dut], {})\n"
    attr = "    print('{0.__class__.__mro__}'.format(dut))\n"
    found = {v.rule for body in (hidden, fmt, attr)
             for v in check_python_testbench(COCOTB.replace("ATTACK", body)).violations}
    assert {"string-annotation", "forbidden-attribute", "format-field"} <= found, found
    assert check_python_testbench(COCOTB.replace("ATTACK", "    print('{:08b}'.format(3), f'{dut.q.value}')\n")).ok


@pytest.mark.parametrize("kind", COCOTB_KINDS)
def test_cocotb_fifo_in_the_run_folder_is_an_error_never_a_hang(kind, cocotb_engines, honest_cocotb):
    res, left = _past_rules(cocotb_engines, kind, COCOTB.replace("ATTACK", COCOTB_ATTACKS["fifo-hang"]), leak=True)
    assert res.overall <= honest_cocotb(kind).overall, (res.status, res.errors)
    assert res.status == REJECTED and any("FIFO" in e for e in res.errors), (res.errors, res.log_tail[-1500:])
    assert not left


SWAP = {  # the scored file replaced while the run goes on (the recorder, if any, keeps writing the old one)
    "device-link": 'os.symlink("/dev/zero", path)',
    "fifo": "os.mkfifo(path)",
}


@pytest.mark.parametrize("kind", COCOTB_KINDS)
@pytest.mark.parametrize("what", sorted(SWAP))
def test_cocotb_scored_file_swapped_is_an_error(kind, what, cocotb_engines, honest_cocotb, tmp_path):
    """With the guard gone too (a testbench that got past it): the scored file a link to /dev/zero or a FIFO
    with no writer left."""
    (tmp_path / "no_guard.py").write_text("def install():\n    pass\n")

    def no_guard(eng):
        eng.guard_file = tmp_path / "no_guard.py"

    attack = LIST_OUT + f"""    path = os.path.join(out, "{SCORED_FILE}")
    if os.path.lexists(path):
        os.unlink(path)
    {SWAP[what]}
"""
    res, left = _past_rules(cocotb_engines, kind, COCOTB.replace("ATTACK", attack), "no-guard", no_guard)
    assert res.overall <= honest_cocotb(kind).overall, (res.status, res.errors)
    assert res.status != OK and any("regular file" in e for e in res.errors), (res.errors, res.log_tail[-1500:])
    assert not left


@pytest.mark.parametrize("kind", COCOTB_KINDS)
def test_cocotb_internals_and_outputs_cannot_be_written(kind, cocotb_engines, honest_cocotb):
    res, left = _past_rules(cocotb_engines, kind, COCOTB.replace("ATTACK", COCOTB_ATTACKS["internals-and-outputs"]))
    seen = re.search(r"ECOV-R4 (.*)", res.log_tail)
    assert seen and "'wrote'" not in seen.group(1), res.log_tail[-1500:]
    assert res.overall <= honest_cocotb(kind).overall and res.coverage == honest_cocotb(kind).coverage
    assert not left


@pytest.mark.parametrize("kind", COCOTB_KINDS)
def test_cocotb_forged_coverage_past_the_guard_scores_its_honest_part(kind, cocotb_engines, honest_cocotb, tmp_path):
    """The policy refuses the forger (feedback), the guard refuses its str-subclass write (feedback: the
    round-3 guard let it through, 69.44 -> 100.00 on main), and with both gone the replay scores what the
    DUT was driven with: the forged files are never read, and the trace cut short by os._exit is refused."""
    attack = COCOTB.replace("ATTACK", COCOTB_ATTACKS["forge-past-guard"])
    assert cocotb_engines(kind)[0].score(DESIGN, attack).status == REJECTED  # the policy: os, open
    guarded, left = _past_rules(cocotb_engines, kind, attack, leak=True)
    assert guarded.status == REJECTED and any("may not write files" in e for e in guarded.errors), guarded.errors
    assert guarded.overall <= honest_cocotb(kind).overall and not left
    (tmp_path / "no_guard.py").write_text("def install():\n    pass\n")

    def no_guard(eng):
        eng.guard_file = tmp_path / "no_guard.py"

    res, left = _past_rules(cocotb_engines, kind, attack, "no-guard", no_guard, leak=True)
    assert res.overall <= honest_cocotb(kind).overall, (res.status, res.errors, res.overall)
    assert not left


# ------------------------------------------------------------------------------- false rejections

CLOCKING = HEAD + """  clocking cb @(posedge clk);
    output en;
  endclocking
  initial begin #12 rst = 0; @(cb); cb.en <= 1'b1; #40 $finish; end
endmodule
"""
COMMENTED = "// Verilator 5.048 testbench for counter (lint: clean)\n" + HONEST


def test_false_rejections_score_as_honest_testbenches(cache, honest_sv):
    """A clocking-block drive of the testbench's own signal and a comment that starts with "Verilator" pass
    the rules and score; their refused twins (a clocking output the DUT drives, a clocking item naming
    the design's internals, a real metacomment) are still refused."""
    assert check_design(DESIGN, CLOCKING) == [] and check_design(DESIGN, COMMENTED) == []
    eng, spy = _engine("rlimit", cache)
    clocked = eng.score(DESIGN, CLOCKING)
    assert clocked.status == OK and clocked.overall > 0, clocked.errors
    assert eng.score(DESIGN, COMMENTED).overall == honest_sv("rlimit").overall
    twins = {
        "dut-output-write": CLOCKING.replace("output en;", "output q;").replace("cb.en <=", "cb.q <="),
        "hierarchical-write": CLOCKING.replace("output en;", "output h = uut.hidden;").replace("cb.en <= 1'b1",
                                                                                              "cb.h <= 4'hf"),
        "verilator-metacomment": "// verilator coverage_off\n" + HONEST,
    }
    for rule, text in twins.items():
        assert rule in {v.rule for v in check_design(DESIGN, text)}, rule
    assert not spy.left_behind()


@pytest.mark.parametrize("comment, acts", [
    ("/*verilator coverage_off*/", True), ("/*verilator public_flat_rw*/", True), ("/*verilator tag foo*/", True),
    ("/*verilator some_future_word*/", True), ("/**/", False), ("/*verilator*/", False),
    ("/*verilator lint_off WIDTH*/", False), ("/*verilator lint_restore*/", False),
    ("/*verilator 5.048 testbench for counter*/", False), ("/*verilator testbench*/", False),
    ("/*verilator public stuff*/", False), ("/*verilator: coverage_off*/", False),
])
def test_metacomments_are_read_as_verilator_reads_them(comment, acts):
    """Verilator 5.048 acts on ``/*verilator WORD*/`` with one of its words and on ``/*verilator tag...*/``;
    anything else it keeps is an unknown metacomment it ignores (BADVLTPRAGMA, off in the build)."""
    from ecov.harness.sim.rules import acting_metacomment

    assert acting_metacomment(comment) is acts
