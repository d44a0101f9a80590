"""Test rules checked before anything compiles: what a testbench may not do to the design or the host.

The rules run on what Verilator will compile, not on the raw text: the design files and the testbench
are first put through Verilator's own preprocessor (``verilator -E``, same flags and file order as the
build, so the same predefined macros, token pasting and ``ifdef`` branches), and the testbench's part of
that output is then read with pyslang's parser. Macros, `` ` `` pasting and odd spacing cannot hide a
construct. Checks, in three kinds:

- lexical, on the preprocessed text: the comments Verilator keeps are exactly the metacomments it acts
  on (``/*verilator ...*/``); every one but ``lint_*`` is refused. Compiler directives other than the
  harmless standard ones (``timescale``, ``default_nettype``, ...) are refused (``verilator_config``,
  ``systemc_*``, ``pragma``, ``uselib``, ...); a `` `line`` naming another file means an include.
- tokens: system tasks/functions must be on an allow-list (``$c``/``$cpure``/``$system``/``$coverage_*``
  and anything unknown are refused); ``force``/``release``/``bind``/``defparam``/``alias``/``config``
  and DPI imports/exports are refused.
- syntax tree: definitions named like design definitions; file names of file tasks; every write into a
  hierarchy other than the testbench's own variables (assignments of every kind, ``++``/``--``, port
  connections, output arguments, method and task calls on hierarchical names, event triggers, clocking
  and modport expressions, virtual interfaces bound to hierarchical instances).

The complete list, with reasons, is in docs/scoring.md ("Test rules"). The sandbox enforces the host side
again at run time, and the coverage read back is checked by harness/sim/integrity.py.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ecov.harness.core.paths import jobs_dir
from ecov.harness.hdl.text import LEXICAL, TESTBENCH_UNITS, declared_names, find_top, strip_comments
from ecov.harness.sandbox.base import Limits
from ecov.harness.sandbox.rlimit import RlimitSandbox
from ecov.harness.sim.jobfiles import write_design
from ecov.harness.sim.verilator import VERILATOR_FLAGS, verilator_root

TB_FILE = "testbench.sv"
# Bump when a rule is added or changed: part of every score cache key (harness/tracks/sv/scorer.py).
RULES_VERSION = "5"  # 3: dut-output-write, parameter-override, event-string, interface-handle, escaped-name;
# 4: on an unparsable testbench the tree rules give only the parse verdict (its build decides);
# 5: clocking-block drives of the testbench's own signals, metacomments Verilator ignores, the decoy-proof
# parameter check

# ---------------------------------------------------------------------------------------------------
# The allow-lists. A system task/function not named here is refused (rule "system-task").

# Pure: they only read their arguments, so hierarchical references (reads of design signals) may appear.
READONLY_SYSTEM = frozenset("""
$display $displayb $displayh $displayo $write $writeb $writeh $writeo $strobe $strobeb $strobeh $strobeo
$monitor $monitorb $monitorh $monitoro $monitoron $monitoroff
$fdisplay $fdisplayb $fdisplayh $fdisplayo $fwrite $fwriteb $fwriteh $fwriteo $fstrobe $fstrobeb
$fstrobeh $fstrobeo $fmonitor $fmonitorb $fmonitorh $fmonitoro
$info $warning $error $fatal $sformatf $psprintf
$time $stime $realtime $signed $unsigned $bits $size $clog2 $countones $onehot $onehot0 $isunknown
$countbits $past $rose $fell $stable $changed $sampled $typename $isunbounded
$left $right $low $high $increment $dimensions $unpacked_dimensions
$itor $rtoi $realtobits $bitstoreal $shortrealtobits $bitstoshortreal
$ln $log10 $exp $sqrt $pow $floor $ceil $sin $cos $tan $asin $acos $atan $atan2 $hypot $sinh $cosh
$tanh $asinh $acosh $atanh
$dumpvars $dumpports
$root $unit
""".split())

# Allowed, but their arguments may be written (or name files): hierarchical references are refused there.
OTHER_SYSTEM = frozenset("""
$finish $stop $exit $random $urandom $urandom_range $dist_uniform $dist_normal $dist_exponential
$dist_poisson $dist_chi_square $dist_t $dist_erlang
$fopen $fclose $fflush $fgetc $fgets $fscanf $sscanf $fread $feof $ferror $fseek $ftell $rewind $ungetc
$readmemh $readmemb $writememh $writememb
$dumpfile $dumpon $dumpoff $dumpall $dumplimit $dumpflush $dumpportson $dumpportsoff $dumpportsall
$dumpportsflush $dumpportslimit
$sformat $swrite $swriteb $swriteh $swriteo $value$plusargs $test$plusargs $cast
$timeformat $printtimescale $asserton $assertoff $assertkill
""".split())

ALLOWED_SYSTEM = READONLY_SYSTEM | OTHER_SYSTEM

# Arguments these system tasks may write (0-based; None: from that index on); the others are reads.
OUTPUT_ARGS: dict[str, tuple[int, ...] | int] = {
    "$sformat": (0,), "$swrite": (0,), "$swriteb": (0,), "$swriteh": (0,), "$swriteo": (0,),
    "$sscanf": 2, "$fscanf": 2, "$fgets": (0,), "$fread": (0,), "$readmemh": (1,), "$readmemb": (1,),
    "$value$plusargs": (1,), "$cast": (0,), "$random": (0,), "$urandom": (0,), "$dist_uniform": (0,),
    "$dist_normal": (0,), "$dist_exponential": (0,), "$dist_poisson": (0,), "$dist_chi_square": (0,),
    "$dist_t": (0,), "$dist_erlang": (0,), "$writememh": (), "$writememb": (), "$fopen": (), "$fclose": (),
    "$fflush": (), "$fgetc": (), "$ungetc": (), "$feof": (), "$ferror": (0,), "$fseek": (), "$ftell": (),
    "$rewind": (), "$urandom_range": (), "$test$plusargs": (), "$finish": (), "$stop": (), "$exit": (),
}

# Built-in methods whose arguments are only read (queue/array/string/mailbox ones). Unknown subroutines
# are treated as if every argument could be output/inout/ref.
INPUT_ONLY_METHODS = frozenset("""
push_back push_front insert find find_index find_first find_first_index find_last find_last_index exists
delete size num sum product and or xor min max unique unique_index sort rsort reverse shuffle len putc
getc toupper tolower compare icompare substr atoi atohex atooct atobin atoreal itoa hextoa octtoa bintoa
realtoa put try_put
""".split())
MAX_TESTBENCH_BYTES = 1_000_000
# The harness's contract monitor (ecov.harness.contracts) and its DPI functions: off limits by name.
HARNESS_PREFIX = "ecov_contract"
MAX_PREPROCESSED_BYTES = 8_000_000  # design + testbench after macro expansion
FILE_TASKS = ("$fopen", "$readmemh", "$readmemb", "$writememh", "$writememb", "$dumpfile")

# Directives that only set defaults for the testbench's own code.
ALLOWED_DIRECTIVES = frozenset("""
timescale default_nettype celldefine endcelldefine resetall unconnected_drive nounconnected_drive
begin_keywords end_keywords default_decay_time default_trireg_strength delay_mode_distributed
delay_mode_path delay_mode_unit delay_mode_zero line
""".split())

# The metacomments Verilator 5.048 acts on (src/verilog.l): ``/*verilator WORD*/`` with exactly one of these
# words, and ``/*verilator tag...*/``. Its preprocessor turns ``// verilator ...`` into ``/*verilator ...*/``
# and keeps no other comment, so every comment in its -E output is one of these, ``/**/``, or text it
# reports as an unknown metacomment (BADVLTPRAGMA, a warning) and ignores: ``// Verilator 5.048 ...``.
ACTING_METACOMMENTS = frozenset("""
clock_enable clocker coverage_block_off coverage_off coverage_on forceable full_case hier_block inline_module
isolate_assignments no_clocker no_inline_module no_inline_task parallel_case public public_flat
public_flat_on public_flat_rd public_flat_rd_on public_flat_rw public_flat_rw_on public_flat_rw_on_sns
public_module public_on public_off sc_biguint sc_bv sc_clock sformat split_var fsm_arc_include_cond
fsm_reset_arc fsm_state timing_off timing_on tracing_off tracing_on unroll_disable unroll_full tag
""".split())
# Those that only change which warnings are printed (-Wno-fatal is on anyway): allowed.
LINT_METACOMMENTS = ("lint_off", "lint_on", "lint_save", "lint_restore")
_METACOMMENT = re.compile(r"^/\*\s*verilator(?P<body>[^*]*)\*/$", re.S)


def acting_metacomment(comment: str) -> bool:
    """Whether Verilator acts on ``comment`` (a comment its preprocessor kept): a metacomment word other than
    the lint ones, or one shaped like a newer release's (a single word with ``_``). Anything else kept is
    either empty (``/**/``) or a comment Verilator ignores with a warning."""
    m = _METACOMMENT.match(comment)
    if m is None:
        return comment.strip() != "/**/"
    body = m.group("body").strip()
    if not body or body.startswith(LINT_METACOMMENTS):
        return False
    word = body.split()[0]
    return body.startswith("tag") or (len(body.split()) == 1 and (word in ACTING_METACOMMENTS or "_" in word))

_TOKEN_RULES = {
    "ForceKeyword": ("force-release", "'force' overrides design signals; drive the ports instead"),
    "ReleaseKeyword": ("force-release", "'release' belongs to force, which is not allowed"),
    "BindKeyword": ("bind", "'bind' puts testbench code into the design"),
    "DefParamKeyword": ("defparam", "'defparam' changes parameters through the hierarchy; use #(...) on "
                                    "the instance"),
    "AliasKeyword": ("alias", "'alias' connects nets through the hierarchy"),
    "ConfigKeyword": ("config", "'config' declarations choose which cells the design is built from"),
}


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int
    message: str
    # True only for "unparsable"/"preprocess": the engine still builds, so that a testbench with a plain
    # syntax error gets Verilator's own messages (compile_error); if Verilator accepts what the rules
    # could not read, the testbench is rejected.
    deferred: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        return f"rule '{self.rule}' (testbench line {self.line}): {self.message}"


def _unsafe_path(path: str) -> bool:
    return (not path or path.startswith("/") or path.startswith("~") or ".." in path.split("/")
            or "\\" in path or "\0" in path)


# ---------------------------------------------------------------------------------------------------
# Preprocessing with Verilator itself.


@dataclass
class Preprocessed:
    text: str  # verilator -E output for design files + testbench, with `line markers
    ok: bool
    error: str = ""


def preprocess(design_files: list[tuple[str, str]], testbench: str, sandbox=None) -> Preprocessed:
    """``verilator -E`` over the design files and the testbench, laid out and ordered as the build does.

    Hostile text goes through a C++ program here, so it runs like the build step: in ``sandbox`` (the
    engine's: bwrap, Docker) when given, else under rlimits and a wall clock, in a scratch folder under
    the jobs folder that is removed afterwards. It only reads what `` `include`` names; an include is
    refused, by file name only, so no included text is ever echoed.
    """
    root = verilator_root()
    work = Path(tempfile.mkdtemp(prefix="pp-", dir=jobs_dir()))
    try:
        sources = write_design(work, design_files)
        (work / TB_FILE).write_text(testbench)
        flags = [f for f in VERILATOR_FLAGS if f not in ("--cc", "--exe", "--main")]
        argv = ["/bin/sh", "-c", 'exec "$@" > pp.out', "sh", str(root / "bin" / "verilator_bin"), "-E", *flags,
                *sources, TB_FILE]
        limits = Limits(wall_seconds=60, cpu_seconds=60, memory_mb=2048, file_mb=16, output_bytes=200_000,
                        processes=64)
        env = {"VERILATOR_ROOT": str(root), "PATH": "/usr/bin:/bin"}
        res = (sandbox or RlimitSandbox()).run(argv, work, limits, untrusted=False, ro_paths=(str(root),), env=env)
        out = work / "pp.out"
        text = out.read_text(errors="replace") if out.exists() else ""
        if res.timed_out or res.returncode != 0:
            return Preprocessed(text, False, res.output.strip()[-1500:] or "verilator -E failed")
        return Preprocessed(text, True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


_LINE_DIRECTIVE = re.compile(r'^\s*`line\s+(\d+)\s+"([^"]*)"\s*(\d*)')
_DIRECTIVE = re.compile(r"`\s*([A-Za-z_]\w*)")


def _blank_strings(text: str) -> str:
    """String literals and comments become spaces (same length), so a backtick in them is not seen."""
    return LEXICAL.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


@dataclass
class _Region:
    """The testbench's part of the preprocessed text: physical line -> testbench line."""

    lines: dict[int, int]  # 1-based physical line of the -E output -> testbench line
    includes: list[tuple[int, str]]  # (testbench line, file) for text that came from another file


def _tb_region(pp: str) -> _Region:
    """Follow the `` `line`` markers: the testbench comes last; any other file named after it started
    was included from it (or named by a `` `line`` the testbench wrote)."""
    region = _Region({}, [])
    file, line, in_tb, tb_line = "", 0, False, 1
    for phys, raw in enumerate(pp.splitlines(), 1):
        m = _LINE_DIRECTIVE.match(raw)
        if m:
            if file == TB_FILE:
                tb_line = max(1, line)  # where the testbench left off: the `include's own line
            file, line = m.group(2), int(m.group(1))
            in_tb = in_tb or file == TB_FILE
            if in_tb and file != TB_FILE and (not region.includes or region.includes[-1][1] != file):
                region.includes.append((tb_line, file))
            continue
        if in_tb and file == TB_FILE:
            region.lines[phys] = line
        line += 1
    return region


# ---------------------------------------------------------------------------------------------------
# The checks.

_lock = threading.Lock()  # pyslang is used from one thread at a time (see harness/hdl/ports.py)


def check_design(design, testbench: str, sandbox=None) -> list[Violation]:
    """The rules for ``testbench`` against a ``ecov.harness.core.records.Design`` (preprocessed in ``sandbox``)."""
    return check_testbench(testbench, [design.top], [f.name for f in design.files], design.instance,
                           design_sources=[(f.name, f.content) for f in design.files], sandbox=sandbox,
                           params=getattr(design, "params", ()))


def check_testbench(tb: str, design_modules: list[str] | None = None, design_files: list[str] | None = None,
                    instance: str = "", *, design_sources: list[tuple[str, str]] | None = None,
                    sandbox=None, params: tuple = ()) -> list[Violation]:
    """Every rule the testbench breaks, in line order. Empty means it may be built and run.

    ``design_sources`` are (file name, text) of the design, needed for the preprocessor (macros and
    headers of the design reach the testbench, as in the build) and to find the design's definitions;
    ``design_modules`` adds names the testbench may not define (for callers without the sources).
    """
    if len(tb) > MAX_TESTBENCH_BYTES:
        return [Violation("too-large", 1, f"the testbench has {len(tb)} characters; the limit is "
                          f"{MAX_TESTBENCH_BYTES}")]
    return list(_check_cached(tb, tuple(design_modules or ()), tuple(design_files or ()), instance,
                              tuple(design_sources or ()), sandbox, tuple(params)))


@lru_cache(maxsize=64)
def _preprocessed(design_sources: tuple[tuple[str, str], ...], tb: str, sandbox) -> Preprocessed:
    return preprocess(list(design_sources), tb, sandbox)


@lru_cache(maxsize=256)
def _check_cached(tb: str, design_modules: tuple[str, ...], design_files: tuple[str, ...], instance: str,
                  design_sources: tuple[tuple[str, str], ...], sandbox, params: tuple = ()) -> tuple[Violation, ...]:
    """Memoised: an agent's rounds and verify's re-scoring ask again for the same testbench."""
    pp = _preprocessed(design_sources, tb, sandbox)
    if not pp.ok:
        return (Violation("preprocess", 1, "the preprocessor failed: " + pp.error.splitlines()[0][:300]
                          if pp.error else "the preprocessor failed", deferred=True),)
    if len(pp.text) > MAX_PREPROCESSED_BYTES:
        return (Violation("too-large", 1, f"the preprocessed testbench is over {MAX_PREPROCESSED_BYTES} "
                          "characters (macro expansion)"),)
    names = {Path(n).name for n in design_files or []} | {Path(n).name for n, _ in design_sources}
    # The top the build will use (the scorers' own choice): the parameter check reads the DUT there.
    units = declared_names(tb, TESTBENCH_UNITS)
    top = find_top(tb, units) or (units[0] if units else "")
    found = _check_preprocessed(pp.text, set(design_modules or []), instance, names, params, top)
    unique = {(v.rule, v.line): v for v in found}
    return tuple(sorted(unique.values(), key=lambda v: (v.line, v.rule)))


def _check_preprocessed(text: str, extra_defs: set[str], instance: str, design_files: set[str],
                        params: tuple = (), top: str = "") -> list[Violation]:
    region = _tb_region(text)
    found: list[Violation] = []
    for line, file in region.includes:
        rule = "includes-design-file" if Path(file).name in design_files else "include"
        found.append(Violation(rule, line, f"includes {file!r}: only the single testbench file is compiled "
                               "(the design is compiled by the harness); inline what you need"))
    phys_lines = text.splitlines()
    # Lexical: directives and the comments Verilator kept (its metacomments).
    tb_text = "\n".join(phys_lines[p - 1] if p in region.lines else "" for p in range(1, len(phys_lines) + 1))
    # Any backtick left after preprocessing is a directive for Verilator's parser, wherever it stands.
    for m in _DIRECTIVE.finditer(_blank_strings(tb_text)):
        if m.group(1) not in ALLOWED_DIRECTIVES:
            phys = tb_text.count("\n", 0, m.start()) + 1
            found.append(Violation("tool-control", region.lines.get(phys, 1),
                                   f"directive `{m.group(1)} controls Verilator or embeds C++; not allowed"))
    for m in LEXICAL.finditer(tb_text):
        comment = m.group(0)
        if comment.startswith('"'):
            continue
        if acting_metacomment(comment):
            phys = tb_text.count("\n", 0, m.start()) + 1
            found.append(Violation("verilator-metacomment", region.lines.get(phys, 1),
                                   f"Verilator metacomment {comment[:60]!r}: only lint_off/lint_on/lint_save/"
                                   "lint_restore are allowed (others change coverage, visibility or embed C++)"))
    with _lock:
        found += _check_tree(text, region, extra_defs, instance, params, top)
    return found


def _check_tree(text: str, region: _Region, extra_defs: set[str], instance: str, params: tuple = (),
                top: str = "") -> list[Violation]:
    import pyslang

    sm, tree, index = _parsed(text)
    walker = _Walker(sm, instance, index)
    walker.collect()
    walker.design_defs_parsed = set(walker.design_defs)
    walker.design_defs |= extra_defs
    walker.check(tree.root)
    found = walker.found
    dut = next(iter(sorted(extra_defs)), "") if len(extra_defs) == 1 else ""
    # Only with the design's own text parsed (check_design always gives it; callers that pass module
    # names alone cannot have parameters elaborated).
    if dut and instance and walker.overrides(dut) and dut in walker.design_defs_parsed:
        found += _check_parameters(tree, dut, instance, walker.tb_modules, walker.line(walker.param_overrides[dut]),
                                   params, top)
    de = pyslang.DiagnosticEngine(sm)
    for d in tree.diagnostics:
        if d.isError() and sm.getFileName(d.location) == TB_FILE:
            # Rules judge only testbenches that parse: what they found on a recovered tree is noise. The
            # build decides (Verilator's own message, a compile error) or, if Verilator accepts what the
            # rules cannot read, this deferred verdict refuses it.
            return [Violation("unparsable", sm.getLineNumber(d.location),
                              f"the rules checker cannot parse this: {de.formatMessage(d)}", deferred=True)]
    return found


@lru_cache(maxsize=2)
def _parsed(text: str):
    """(source manager, tree, its index) of a preprocessed testbench: the bug hunt's ``foreign_names`` reads
    the tree ``check_testbench`` parsed just before. Only read, never changed (under ``_lock``)."""
    import pyslang
    from pyslang.syntax import SyntaxTree

    sm = pyslang.SourceManager()
    tree = SyntaxTree.fromText(text, sm, "ecov_pp.sv")
    return sm, tree, _TreeIndex(tree.root, sm)


# pyslang's objects are freed before the interpreter tears its module down (nanobind reports any left alive).
atexit.register(_parsed.cache_clear)


def parses(tb: str) -> bool:
    """Whether the rules' parser reads ``tb`` (unpreprocessed) without a syntax error: callers that give
    hints before a build (ecov-score's instance check) give them only on testbenches that parse."""
    from pyslang.syntax import SyntaxTree

    with _lock:
        return not any(d.isError() for d in SyntaxTree.fromText(tb).diagnostics)


# In an escaped identifier: what could end a C++ string literal or comment when Verilator prints the name.
_UNSAFE_ESCAPED = re.compile(r'["\\\\]|/\*|\*/|//|\?\?|[^\x21-\x7e]')
_EVENT_KINDS = {"EventControlWithExpression", "WaitStatement", "SignalEventExpression", "EventControl"}
_PRIMITIVE_BIDIR = {"tran", "rtran", "tranif0", "tranif1", "rtranif0", "rtranif1", "pullup", "pulldown"}

_ASSIGN_KINDS = {
    "AssignmentExpression", "AddAssignmentExpression", "SubtractAssignmentExpression",
    "MultiplyAssignmentExpression", "DivideAssignmentExpression", "ModAssignmentExpression",
    "AndAssignmentExpression", "OrAssignmentExpression", "XorAssignmentExpression",
    "LogicalLeftShiftAssignmentExpression", "LogicalRightShiftAssignmentExpression",
    "ArithmeticLeftShiftAssignmentExpression", "ArithmeticRightShiftAssignmentExpression",
    "NonblockingAssignmentExpression",
}
_INCDEC_KINDS = {"PostincrementExpression", "PostdecrementExpression", "UnaryPreincrementExpression",
                 "UnaryPredecrementExpression"}
_DEFINITION_KINDS = {"ModuleDeclaration", "InterfaceDeclaration", "ProgramDeclaration", "PackageDeclaration",
                     "ClassDeclaration", "UdpDeclaration", "CheckerDeclaration"}
_SCOPE_LABEL_KINDS = {"NamedBlockClause", "NamedLabel"}
# The node kinds the rules' first pass reads (``_Walker.collect``): definitions, instantiations, declarations.
_COLLECT_KINDS = frozenset({
    *_DEFINITION_KINDS, *_SCOPE_LABEL_KINDS, "HierarchyInstantiation", "ModportItem", "DataDeclaration",
    "ParameterDeclaration", "Declarator", "ClockingDeclaration", "TaskDeclaration", "FunctionDeclaration",
    "ClassMethodPrototype", "DPIImport", "ExternInterfaceMethod", "ForeachLoopList",
})


def _kind(node) -> str:
    return node.kind._name_  # the Enum member's own attribute: ``.name`` is a property, 3x the cost


_TOKEN: type | None = None  # pyslang's Token class, set on first use (pyslang is imported lazily)


def _token_type() -> type:
    """pyslang's Token class, imported once: the walks ask millions of times whether a node is a token."""
    global _TOKEN
    if _TOKEN is None:
        from pyslang.parsing import Token

        _TOKEN = Token
    return _TOKEN


def _children(node):
    if isinstance(node, _TOKEN or _token_type()):
        return []
    try:
        return [c for c in node if c is not None]
    except TypeError:
        return []


def _is_token(node) -> bool:
    return isinstance(node, _TOKEN or _token_type())


def _tokens(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if _is_token(n):
            yield from _with_skipped(n)
        else:
            stack.extend(reversed(_children(n)))


def _with_skipped(tok):
    """A token, then the tokens the parser skipped after it."""
    yield tok
    yield from _skipped(tok)


def _skipped(tok):
    """The tokens the parser skipped after ``tok`` (kept in its trivia)."""
    for tr in tok.trivia:
        if tr.kind.name in ("SkippedTokens",):
            yield from tr.getSkippedTokens()


class _TreeIndex:
    """A parsed tree walked once by pyslang's own ``visit``: every node's child nodes and first token, and
    every token, in order, with whether it lies in the testbench. The rules walk a large testbench's ~100k
    nodes several times; asking pyslang for each node's children, first token and file from Python cost
    ten times as much. Walks over it see the same nodes in the same order as over ``_children`` (tokens
    aside). Where a node's ``parent`` is not the object ``visit`` gave (``complete`` false), the walks fall
    back to asking pyslang."""

    def __init__(self, root, sm):
        token = _token_type()
        self.sm = sm
        self.tokens: list = []
        self.complete = True
        kids: dict[int, list] = {id(root): []}  # holds every node but the root (the tree holds it): ids stay theirs
        parents: dict[int, object] = {}
        kinds: dict[int, str] = {}
        first: dict[int, int] = {}  # node id -> index of its first token in ``tokens``
        # Ids of the nodes seen since the last token, each the parent of the next: their first token is the
        # next one, unless a node arrives whose parent is above them (their subtrees ended with no token).
        pending: list[int] = []
        toks = self.tokens

        def one(n) -> None:
            if isinstance(n, token):
                if pending:
                    at = len(toks)
                    for p in pending:
                        first[p] = at
                    pending.clear()
                toks.append(n)
                return
            me = id(n)
            parent = n.parent
            if parent is not None:
                up = id(parent)
                siblings = kids.get(up)
                if siblings is None:
                    self.complete = False
                else:
                    siblings.append(n)
                parents[me] = parent
                while pending and pending[-1] != up:
                    pending.pop()
            kids[me] = []
            kinds[me] = n.kind._name_
            pending.append(me)

        root.visit(one)
        self._kids, self._kinds, self._parents = kids, kinds, parents
        tb = [sm.getFileName(t.location) == TB_FILE for t in toks] if self.complete else []
        self._tok_tb = tb
        self._tb = {k: tb[at] for k, at in first.items()}  # a node with no token is not in the testbench
        self._root, self._preorder = root, None
        self._scopes: dict[int, str] = {}

    def _token_in_tb(self, tok) -> bool:
        return self.sm.getFileName(tok.location) == TB_FILE

    def children(self, node) -> list:
        """``node``'s child nodes (tokens left out), in order."""
        kids = self._kids.get(id(node)) if self.complete else None
        if kids is not None:
            return kids
        return [c for c in _children(node) if not _is_token(c)]

    def all_tokens(self):
        """Every token of the tree, skipped ones too, in order."""
        if not self.complete:
            yield from _tokens(self._root)
            return
        for tok in self.tokens:
            yield from _with_skipped(tok)

    def tb_tokens(self):
        """``all_tokens`` that lie in the testbench file."""
        if not self.complete:
            yield from (t for t in _tokens(self._root) if self._token_in_tb(t))
            return
        for tok, tb in zip(self.tokens, self._tok_tb, strict=True):
            if tb:
                yield tok
            yield from (t for t in _skipped(tok) if self._token_in_tb(t))

    def scope(self, node) -> str:
        """``_scope(node)``, remembered per node of the tree."""
        if not self.complete or id(node) not in self._kids:
            return _scope(node)
        path, n, found = [], node, ""
        while n is not None:
            me = id(n)
            if me in self._scopes:
                found = self._scopes[me]
                break
            path.append(me)
            if self._kinds[me] in ("ModuleDeclaration", "InterfaceDeclaration", "ProgramDeclaration"):
                found = _ident(n.header.name)
                break
            n = self._parents.get(me)
        for me in path:
            self._scopes[me] = found
        return found

    def in_tb(self, node) -> bool:
        """Whether ``node``'s first token lies in the testbench file."""
        if self.complete and id(node) in self._kids:
            return self._tb.get(id(node), False)
        tok = node if _is_token(node) else node.getFirstToken()
        return tok is not None and self._token_in_tb(tok)

    def kind(self, node) -> str:
        return self._kinds.get(id(node)) or _kind(node)

    def preorder(self) -> list:
        """Every node of the tree, each before its children, the last child first: the order of the rules'
        stack walks, on which "the first one wins" choices depend."""
        if self._preorder is None:
            out, stack = [], [self._root]
            while stack:
                n = stack.pop()
                out.append(n)
                stack.extend(self.children(n))
            self._preorder = out
        return self._preorder


def _ident(tok) -> str:
    text = tok.valueText
    return text[1:] if text.startswith("\\") else text


def _definition_name(node) -> str | None:
    k = _kind(node)
    if k in ("ModuleDeclaration", "InterfaceDeclaration", "ProgramDeclaration", "PackageDeclaration"):
        return _ident(node.header.name)
    if k in ("ClassDeclaration", "UdpDeclaration", "CheckerDeclaration"):
        return _ident(node.name)
    return None


def _scope(node) -> str:
    """The module, interface or program a node lies in ("" at file level)."""
    n = node
    while n is not None:
        if not _is_token(n) and _kind(n) in ("ModuleDeclaration", "InterfaceDeclaration", "ProgramDeclaration"):
            return _ident(n.header.name)
        n = n.parent
    return ""


class _NameRef:
    """A port connected by name only (``.q``, ``.*``): the testbench's signal of the same name."""

    def __init__(self, name: str):
        self.name = name


def _plain_names(expr) -> list[str]:
    """The testbench's own names an expression connected to a port denotes (heads of selects/concats)."""
    if isinstance(expr, _NameRef):
        return [expr.name]
    out = []
    stack = [expr]
    while stack:
        n = stack.pop()
        if _is_token(n):
            continue
        k = _kind(n)
        if k in ("IdentifierName", "IdentifierSelectName"):
            out.append(_ident(n.identifier))
            continue
        if k == "ScopedName":
            continue
        if k == "ElementSelectExpression":
            stack.append(n.left)
            continue
        if k == "MemberAccessExpression":
            stack.append(n.left)
            continue
        stack.extend(_children(n))
    return out


def _parameter_values(tree, top: str, path: list[str] | None, dut: str) -> dict[str, str] | None:
    """Elaborate ``tree`` with ``top`` as root; the DUT's parameter values at the instance named by
    ``path`` (None: ``top`` is the DUT itself); None when it is not found."""
    from pyslang import Bag
    from pyslang.ast import Compilation, CompilationOptions

    opts = CompilationOptions()
    opts.topModules = {top}
    comp = Compilation(Bag([opts]))
    comp.addSyntaxTree(tree)
    tops = [t for t in comp.getRoot().topInstances if t.name == top]
    if not tops:
        return None
    found = tops[0] if path is None else _find_instance(tops[0].body, path[-1], dut)
    if found is None:
        return None
    return {p.name: str(p.value) if hasattr(p, "value") else str(getattr(p, "targetType", "")) for p in
            found.body.parameters if not getattr(p, "isLocalParam", False)}


def _find_instance(scope, name: str, dut: str, depth: int = 0):
    """The instance ``name`` of module ``dut`` anywhere below ``scope`` (instances, generate blocks)."""
    if depth > 12:
        return None
    for m in scope:
        k = m.kind.name
        if k == "Instance":
            if m.name == name and m.definition.name == dut:
                return m
            got = _find_instance(m.body, name, dut, depth + 1)
        elif k in ("GenerateBlock", "GenerateBlockArray"):
            got = _find_instance(m, name, dut, depth + 1)
        else:
            continue
        if got is not None:
            return got
    return None


@lru_cache(maxsize=512)
def reference_parameters(files: tuple, dut: str, instance: str, references: tuple[str, ...]
                         ) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The DUT parameter sets the task's own (trusted, shipped) reference testbenches use where they differ
    from the defaults: what ``Design.params`` allows besides them. Read with pyslang alone (no sandbox
    needed for the benchmark's own files); a reference it cannot elaborate adds nothing."""
    from pyslang.syntax import SyntaxTree

    out: list[tuple[tuple[str, str], ...]] = []
    pat = re.compile(rf"\b{re.escape(dut)}\s*#")
    for ref in references:
        if not pat.search(strip_comments(ref)):
            continue
        text = "".join(f.content + "\n" for f in files) + ref
        with _lock:
            try:
                tree = SyntaxTree.fromText(text)
                walker_tops = [_ident(n.header.name) for n in _iter_nodes(tree.root) if _kind(n) == "ModuleDeclaration"]
                want = _parameter_values(tree, dut, None, dut)
                got = None
                for top in reversed(walker_tops):
                    if top != dut:
                        got = _parameter_values(tree, top, [instance], dut)
                        if got is not None:
                            break
            except Exception:  # noqa: BLE001 - pyslang failing on a reference adds no allowance
                continue
        if got is not None and got != want:
            key = tuple(sorted(got.items()))
            if key not in out:
                out.append(key)
    return tuple(out)


def _check_parameters(tree, dut: str, instance: str, tb_modules: list[str], line: int,
                      allowed: tuple = (), top: str = "") -> list[Violation]:
    """The design under test is the task's design: a ``#(...)`` override of the DUT must leave every
    parameter at the value the task's design has (its defaults); one that changes it changes what is
    scored (fewer toggle points, an easier mode) and is refused. The instance is read under ``top``, the
    module the build makes the top, first: another module holding a default instance of the same name (a
    decoy defined before the top) must not stand in for it. Feedback: the trusted replay builds the DUT
    with the task's parameters whatever the testbench instantiates."""
    order = [top] if top in tb_modules else []
    order += [m for m in reversed(tb_modules) if m != top]
    try:
        want = _parameter_values(tree, dut, None, dut)
        got = None
        for candidate in order:
            got = _parameter_values(tree, candidate, [instance], dut)
            if got is not None:
                break
    except Exception as e:  # pyslang failing to elaborate is a reason to refuse, not to pass
        return [Violation("parameter-override", line, f"the DUT's parameters could not be evaluated ({e}); "
                          "instantiate it without #(...)")]
    if want is None or got is None:
        return [Violation("parameter-override", line, f"the DUT instance '{instance}' with #(...) could not be "
                          "elaborated to check its parameters; instantiate it without #(...)")]
    changed = [f"{k}={got.get(k)} (the task's design: {v})" for k, v in sorted(want.items()) if got.get(k) != v]
    if not changed or tuple(sorted(got.items())) in allowed:
        return []
    also = "; or, as the task allows, " + " | ".join(", ".join(f"{k}={v}" for k, v in ps if want.get(k) != v)
                                                     for ps in allowed) if allowed else ""
    return [Violation("parameter-override", line, f"#(...) changes the design under test: {', '.join(changed)}; "
                      f"the task scores its own design, with these parameters at the values shown{also}")]


def _iter_nodes(root):
    stack = [root]
    while stack:
        n = stack.pop()
        if _is_token(n):
            continue
        yield n
        stack.extend(_children(n))


def _ports(decl) -> list[tuple[str, str]]:
    """(port, direction) in order for a module/interface/program declaration (ANSI or not)."""
    out: list[tuple[str, str]] = []
    ports = getattr(decl.header, "ports", None)
    if ports is None:
        return out
    direction = "inout"
    if _kind(ports) == "AnsiPortList":
        for p in ports.ports:
            if _is_token(p):
                continue
            hdr = getattr(p, "header", None)
            d = getattr(hdr, "direction", None)
            if _kind(p) == "ImplicitAnsiPort" and hdr is not None and _kind(hdr) == "InterfacePortHeader":
                out.append((_ident(p.declarator.name), "interface"))
                continue
            if d is not None and d.valueText:
                direction = d.valueText
            name = getattr(p, "declarator", None) or getattr(p, "name", None)
            if name is not None:
                out.append((_ident(name.name) if hasattr(name, "name") else _ident(name), direction))
        return out
    if _kind(ports) == "NonAnsiPortList":
        dirs: dict[str, str] = {}
        for m in decl.members:
            if not _is_token(m) and _kind(m) == "PortDeclaration":
                d = getattr(m.header, "direction", None)
                for dd in m.declarators:
                    if not _is_token(dd):
                        dirs[_ident(dd.name)] = d.valueText if d is not None and d.valueText else "inout"
        for p in ports.ports:
            if _is_token(p):
                continue
            names = [t for t in _tokens(p) if t.kind.name == "Identifier"]
            if names:
                n = _ident(names[0])
                out.append((n, dirs.get(n, "inout")))
    return out


def _port_writes(ports: list[tuple[str, str]], port: str) -> bool:
    """Whether the instance drives what is connected to ``port`` (output, inout, ref; unknown ports too)."""
    for name, direction in ports:
        if name == port:
            return direction in ("output", "inout", "ref")
    return True


def _args(arg_list) -> list:
    """The arguments of an argument list, without the comma tokens of the separated list."""
    return [a for a in arg_list.parameters if not _is_token(a)]


def _last_name(name) -> str:
    """``t`` of ``t``, ``obj.t``, ``C::t``, ``std::randomize``."""
    toks = [t for t in _tokens(name) if t.kind.name in ("Identifier", "NewKeyword")]
    if toks:
        return _ident(toks[-1])
    return str(name).strip()


def _formals(proto) -> list[tuple[str, bool]]:
    """(name, may write) per formal; a formal without a direction inherits the previous one's."""
    out: list[tuple[str, bool]] = []
    direction = "input"
    ports = proto.portList.ports if proto.portList is not None else []
    for port in ports:
        if _is_token(port) or _kind(port) != "FunctionPort":
            continue
        d = port.direction.valueText if port.direction is not None else ""
        if d:
            direction = d
        const = port.constKeyword is not None and port.constKeyword.valueText == "const"
        out.append((_ident(port.declarator.name), direction in ("output", "inout", "ref") and not const))
    return out


def _writes(sig: list[tuple[str, bool]], index: int, formal: str | None) -> bool:
    if formal is not None:
        return any(w for n, w in sig if n == formal) or formal not in {n for n, _ in sig}
    return sig[index][1] if index < len(sig) else True


class _Walker:
    """Two passes over the preprocessed tree: collect names (design and testbench), then check."""

    def __init__(self, sm, instance: str, index: _TreeIndex):
        self.sm = sm
        self.instance = instance
        self.index = index
        self.design_defs: set[str] = set()
        self.design_interfaces: set[str] = set()
        self.tb_defs: set[str] = set()
        self.tb_interfaces: set[str] = set()
        self.data_names: set[str] = set()
        self.scope_names: set[str] = {instance} if instance else set()
        self.virtual_vars: set[str] = set()
        # Testbench subroutines: name -> one list per declaration of (formal name, may write it).
        self.subroutines: dict[str, list[list[tuple[str, bool]]]] = {}
        # Every module's ports in order: name -> [(port, direction)] (design and testbench modules).
        self.module_ports: dict[str, list[tuple[str, str]]] = {}
        # Interface instances and modports inside the design: a handle to one reaches the design's state.
        self.design_iface_instances: set[str] = set()
        self.design_modports: set[str] = set()
        # Testbench names whose value is a string (string variables, parameters given a string literal).
        self.string_names: set[str] = set()
        self.design_defs_parsed: set[str] = set()  # design definitions whose text was parsed (not only named)
        self.param_overrides: dict[str, object] = {}  # module -> a testbench instantiation of it with #(...)
        self.tb_modules: list[str] = []
        # Testbench nets/variables connected to an output or inout port of a design module instance: the
        # design drives them (with --flatten they are the design's own variables); name -> (instance, port).
        self.dut_driven: dict[tuple[str, str], tuple[str, str]] = {}  # (module, name) -> (instance, port)
        self.found: list[Violation] = []

    # -- locations
    def in_tb(self, node) -> bool:
        return self.index.in_tb(node)

    def line(self, node) -> int:
        tok = node if _is_token(node) else node.getFirstToken()
        return self.sm.getLineNumber(tok.location) if tok is not None else 1

    def add(self, rule: str, node, message: str) -> None:
        self.found.append(Violation(rule, self.line(node), message))

    # -- pass 1
    def collect(self) -> None:
        instantiations = []
        design_instantiations = []
        for n in self.index.preorder():
            k = self.index.kind(n)
            if k not in _COLLECT_KINDS:  # nothing below looks at other nodes
                continue
            tb = self.in_tb(n)
            name = _definition_name(n)
            if name is not None:
                (self.tb_defs if tb else self.design_defs).add(name)
                if k == "InterfaceDeclaration":
                    (self.tb_interfaces if tb else self.design_interfaces).add(name)
                if k in ("ModuleDeclaration", "InterfaceDeclaration", "ProgramDeclaration"):
                    self.module_ports.setdefault(name, _ports(n))
                if tb and k == "ModuleDeclaration":
                    self.tb_modules.append(name)
            if not tb:
                if k == "HierarchyInstantiation":
                    design_instantiations.append(n)
                elif k == "ModportItem":
                    self.design_modports.add(_ident(n.name))
            if tb and k in ("DataDeclaration", "ParameterDeclaration"):
                self._strings(n)
            if tb:
                if k == "Declarator":
                    self.data_names.add(_ident(n.name))
                elif k == "HierarchyInstantiation":
                    instantiations.append(n)
                elif k in _SCOPE_LABEL_KINDS:
                    self.scope_names.add(_ident(n.name))
                elif k == "ClockingDeclaration" and _is_token(n.blockName) and n.blockName.valueText:
                    # The testbench's own clocking block: ``cb.x <= v`` drives the testbench's ``x`` (its
                    # items are checked as ClockingItem: no design internals, nothing the DUT drives).
                    self.data_names.add(_ident(n.blockName))
                elif k == "DataDeclaration" and "virtual" in str(n.type).split():
                    for d in n.declarators:
                        self.virtual_vars.add(_ident(d.name))
                elif k in ("TaskDeclaration", "FunctionDeclaration", "ClassMethodPrototype", "DPIImport",
                           "ExternInterfaceMethod"):
                    proto = getattr(n, "prototype", None)
                    if proto is not None:
                        self.subroutines.setdefault(_last_name(proto.name), []).append(_formals(proto))
                elif k == "ForeachLoopList":
                    for tok in _tokens(n.loopVariables) if hasattr(n, "loopVariables") else []:
                        if tok.kind.name == "Identifier":
                            self.data_names.add(_ident(tok))
        for inst in instantiations:
            type_name = _ident(inst.type)
            for hi in inst.instances:
                decl = getattr(hi, "decl", None)
                if decl is None:
                    continue
                iname = _ident(decl.name)
                # An interface the testbench instantiates is its own signals (it drives the DUT's
                # interface ports through it), whoever defined the interface.
                if type_name in self.tb_interfaces | self.design_interfaces:
                    self.data_names.add(iname)
                else:
                    self.scope_names.add(iname)
        self.scope_names |= self.design_defs | self.tb_defs
        for inst in design_instantiations:
            if _ident(inst.type) in self.design_interfaces | self.tb_interfaces:
                for hi in inst.instances:
                    if getattr(hi, "decl", None) is not None:
                        self.design_iface_instances.add(_ident(hi.decl.name))
        for inst in instantiations:
            if inst.parameters is not None:
                self.param_overrides.setdefault(_ident(inst.type), inst)
        # What design instances drive, per testbench module; then through testbench modules that pass a
        # design output on through their own output ports (a wrapper), up to the top (a fixpoint).
        driving: dict[str, set[str]] = {d: {p for p, _ in self.module_ports.get(d, [])}
                                         for d in self.design_defs - self.design_interfaces}
        for _ in range(16):
            changed = False
            for inst in instantiations:
                type_name = _ident(inst.type)
                if type_name not in driving or type_name in self.design_interfaces:
                    continue
                scope = self.index.scope(inst)
                for hi in inst.instances:
                    iname = _ident(hi.decl.name) if getattr(hi, "decl", None) is not None else ""
                    for port, expr in self.connections(type_name, hi):
                        if port in driving[type_name] and expr is not None and _port_writes(
                                self.module_ports.get(type_name, []), port):
                            for name in _plain_names(expr):
                                if (scope, name) not in self.dut_driven:
                                    self.dut_driven[(scope, name)] = (iname, port)
                                    changed = True
            for (scope, name) in list(self.dut_driven):
                if scope in self.tb_defs and name in {p for p, d in self.module_ports.get(scope, [])
                                                      if d in ("output", "inout", "ref")}:
                    if name not in driving.setdefault(scope, set()):
                        driving[scope].add(name)
                        changed = True
            if not changed:
                break

    def _strings(self, n) -> None:
        """Record testbench names whose value is a string (they must not reach an event control)."""
        typed = "string" in str(getattr(n, "type", "") or "").split()
        decls = getattr(n, "declarators", None)
        if decls is None and getattr(n, "parameter", None) is not None:
            decls = getattr(n.parameter, "declarators", None)
            typed = typed or "string" in str(getattr(n.parameter, "type", "") or "").split()
        for d in decls or []:
            if _is_token(d) or not hasattr(d, "name"):
                continue
            init = getattr(d, "initializer", None)
            if typed or (init is not None and any(t.kind.name == "StringLiteral" for t in _tokens(init))):
                self.string_names.add(_ident(d.name))

    def connections(self, type_name: str, hi):
        """(port, expression) per connection of one instance; ``.*`` and ``.q`` connect the same name."""
        if _is_token(hi):  # the comma between two instances of one statement (`m a (...), b (...);`)
            return
        ports = self.module_ports.get(type_name, [])
        for i, c in enumerate(c for c in hi.connections if not _is_token(c)):
            ck = _kind(c)
            if ck == "NamedPortConnection":
                implicit = c.openParen is None or c.openParen.kind.name != "OpenParenthesis"
                yield _ident(c.name), (_NameRef(_ident(c.name)) if implicit else c.expr)
            elif ck == "OrderedPortConnection":
                yield (ports[i][0] if i < len(ports) else ""), c.expr
            elif ck == "WildcardPortConnection":
                for port, _ in ports:
                    yield port, _NameRef(port)

    # -- names
    def head(self, name) -> tuple[str, str] | None:
        """(head, separator) of a dotted or scoped name; None for a plain name."""
        k = _kind(name)
        if k != "ScopedName":
            return None
        left = name
        sep = name.separator.valueText
        while _kind(left) == "ScopedName":
            sep = left.separator.valueText
            left = left.left
        lk = _kind(left)
        if lk in ("IdentifierName", "IdentifierSelectName"):
            return _ident(left.identifier), sep
        if lk == "ClassName":
            return _ident(left.identifier), sep
        return left.getFirstToken().valueText, sep  # $root, $unit, this, super, local, ...

    def foreign(self, name) -> bool:
        """A dotted/scoped name reaching outside the testbench's own variables."""
        h = self.head(name)
        if h is None:
            return False
        head, sep = h
        if sep == "::":
            return head in self.design_defs or head == "$unit"
        if head in ("this", "super"):
            return False
        return head not in self.data_names or head in self.scope_names

    def foreign_in(self, expr, *, lvalue: bool = False):
        """Foreign names in ``expr``; with ``lvalue``, only the names written (not index expressions)."""
        stack = [expr]
        while stack:
            n = stack.pop()
            if _is_token(n):
                continue
            k = _kind(n)
            if k == "ScopedName":
                if self.foreign(n):
                    yield n
                    continue
                if not lvalue:
                    stack.extend(self.index.children(n))
                continue
            if lvalue and k == "ElementSelectExpression":
                stack.append(n.left)
                continue
            if lvalue and k == "MemberAccessExpression":
                stack.append(n.left)
                continue
            stack.extend(self.index.children(n))

    # -- pass 2
    def check(self, root) -> None:
        stack = [root]
        while stack:
            n = stack.pop()
            if _is_token(n):
                continue
            if not self.in_tb(n) and _kind(n) != "CompilationUnit":
                continue
            self.visit(n)
            stack.extend(self.index.children(n))
        for tok in self.index.tb_tokens():
            self.visit_token(tok)

    def visit_token(self, tok) -> None:
        k = tok.kind.name
        if k == "SystemIdentifier":
            name = tok.valueText
            if name in ALLOWED_SYSTEM:
                return
            if "coverage" in name:
                rule, why = "coverage-control", "controls, reads or writes coverage"
            elif re.fullmatch(r"\$c(pure)?\d*", name):
                rule, why = "verilator-c-escape", "embeds C++ into the model"
            elif name in ("$system", "$systemf"):
                rule, why = "system-call", "runs host commands"
            else:
                rule, why = "system-task", "is not on the list of allowed system tasks (docs/scoring.md)"
            self.add(rule, tok, f"{name} {why}; not allowed")
        elif k == "Identifier" and tok.rawText.startswith("\\") and _UNSAFE_ESCAPED.search(tok.rawText[1:].strip()):
            self.add("escaped-name", tok, f"escaped identifier {tok.rawText.strip()!r} contains characters that "
                     "Verilator copies unescaped into generated C++ (quote, backslash, comment marks, non-ASCII): "
                     "use a plain name")
        elif k == "Identifier" and tok.rawText.startswith("\\") and "." in tok.rawText:
            self.add("escaped-name", tok, f"escaped identifier {tok.rawText.strip()!r} contains '.': it would "
                     "read as a hierarchy path in the coverage (e.g. a second instance posing as a sub-instance "
                     "of the DUT)")
        elif k in _TOKEN_RULES:
            rule, why = _TOKEN_RULES[k]
            self.add(rule, tok, why)
        if k == "Identifier" and tok.rawText.lstrip("\\").startswith(HARNESS_PREFIX):
            self.add("harness-name", tok, f"'{tok.rawText.strip()}': names starting with '{HARNESS_PREFIX}' belong "
                     "to the harness's interface monitor; a testbench may not define, read or write them")

    def visit(self, n) -> None:
        k = _kind(n)
        name = _definition_name(n)
        if name is not None and name in self.design_defs:
            self.add("redefines-design-module", n, f"defines '{name}', which the design defines; instantiate the "
                     "design's own module instead")
        if k == "AttributeInstance":
            self.add("attribute", n, f"attribute {str(n).strip()[:60]!r}: (* ... *) attributes can carry tool "
                     "directives (Verilator reads some); not allowed in testbenches")
        elif k in ("DPIImport", "DPIExport"):
            self.add("dpi", n, "DPI imports/exports call host code and are not allowed")
        elif k in _ASSIGN_KINDS:
            for bad in self.foreign_in(n.left, lvalue=True):
                self.write(bad)
            self.check_driven(n.left, n)
            self.check_virtual(n.left, n.right)
        elif k in _INCDEC_KINDS:
            operand = n.operand
            for bad in self.foreign_in(operand, lvalue=True):
                self.write(bad)
            self.check_driven(operand, n)
        elif k == "ProceduralDeassignStatement":  # assign/force hold an AssignmentExpression, seen above
            for bad in self.foreign_in(n.variable, lvalue=True):
                self.write(bad)
            self.check_driven(n.variable, n)
        elif k in _EVENT_KINDS:
            self.check_event_text(n)
        elif k == "ScopedName" and not (n.parent is not None and _kind(n.parent) == "ScopedName"):
            self.check_interface_handle(n)
        elif k == "PrimitiveInstantiation":
            prim = n.type.valueText if _is_token(n.type) else str(n.type).strip()
            for inst in n.instances:
                conns = [c for c in getattr(inst, "connections", []) if not _is_token(c)]
                for c in conns if prim in _PRIMITIVE_BIDIR else conns[:1]:
                    self.check_driven(getattr(c, "expr", c), c)
        elif k in ("BlockingEventTriggerStatement", "NonblockingEventTriggerStatement"):
            for bad in self.foreign_in(n.name):
                self.add("hierarchical-write", bad, f"triggers '{bad}' outside the testbench")
        elif k == "HierarchyInstantiation":
            self.check_instance(n)
        elif k in ("ClockingItem", "ModportExplicitPort"):
            for bad in self.foreign_in(n):
                self.add("hierarchical-write", bad, f"'{bad}' in a clocking block or modport can drive the design's "
                         "internals; use the testbench's own signals")
            if k == "ClockingItem" and any(t.valueText in ("output", "inout") for t in _tokens(n.direction)):
                for d in getattr(n, "decls", []):
                    if not _is_token(d) and hasattr(d, "name") and (self.index.scope(n), _ident(d.name)) in self.dut_driven:
                        self.driven(_ident(d.name), d)
        elif k == "Declarator" and n.initializer is not None:
            if (self.index.scope(n), _ident(n.name)) in self.dut_driven and _kind(n.parent) != "ClockingItem":
                self.driven(_ident(n.name), n)
            if _ident(n.name) in self.virtual_vars:
                for bad in self.foreign_in(n.initializer):
                    self.add("hierarchical-write", bad, f"binds a virtual interface to '{bad}' inside the design")
        elif k == "InvocationExpression":
            self.check_call(n)
        elif k == "NewClassExpression":
            if n.argList is not None:
                self.check_user_args("new", n.argList)
        elif k == "ExpressionStatement" and _kind(n.expr) == "ScopedName" and self.foreign(n.expr):
            self.write(n.expr, "calls a task of")

    def check_call(self, n) -> None:
        callee = n.left
        ck = _kind(callee)
        args = n.arguments
        if ck == "SystemName":
            name = callee.systemIdentifier.valueText
            if name in FILE_TASKS:
                self.check_file_arg(n, name)
            if name in READONLY_SYSTEM or args is None:
                return
            outs = OUTPUT_ARGS.get(name, 0)
            for i, arg in enumerate(_args(args)):
                if isinstance(outs, tuple) and i not in outs or isinstance(outs, int) and i < outs:
                    continue
                for bad in self.foreign_in(arg):
                    self.add("hierarchical-write", bad, f"passes '{bad}' to {name}, which may write it; only the "
                             "testbench's own variables may be written")
                self.check_driven(arg, arg)
            return
        if ck == "ScopedName" and self.foreign(callee):
            self.write(callee, "calls a task/function/method of")
            return
        if args is not None:
            self.check_user_args(_last_name(callee), args)

    def check_user_args(self, name: str, args) -> None:
        """Hierarchical names may be passed only where every declaration of ``name`` takes an input."""
        sigs = self.subroutines.get(name)
        for i, arg in enumerate(_args(args)):
            if _kind(arg) == "NamedArgument":
                formal, expr = _ident(arg.name), arg.expr
            else:
                formal, expr = None, getattr(arg, "expr", arg)
            if expr is None:
                continue
            if sigs is None:
                writable = name not in INPUT_ONLY_METHODS
            else:
                writable = any(_writes(sig, i, formal) for sig in sigs)
            if not writable:
                continue
            for bad in self.foreign_in(expr):
                self.add("hierarchical-write", bad, f"passes '{bad}' to {name}(), which may write it "
                         "(output/inout/ref, or not declared in the testbench); pass a copy in a local variable")
            self.check_driven(expr, expr)

    def check_file_arg(self, n, name: str) -> None:
        args = n.arguments
        params = _args(args) if args is not None else []
        first = params[0] if params else None
        toks = [t for t in _tokens(first)] if first is not None else []
        lit = toks[0] if len(toks) == 1 and toks[0].kind.name == "StringLiteral" else None
        if lit is None:
            if name != "$dumpfile" or toks:
                self.add("file-access", n, f"{name} needs a literal relative file name so the harness can check it")
            return
        path = lit.valueText
        if _unsafe_path(path):
            self.add("file-access", n, f'{name}("{path}"): files outside the testbench folder are not allowed')

    def check_virtual(self, lhs, rhs) -> None:
        if _kind(lhs) == "IdentifierName" and _ident(lhs.identifier) in self.virtual_vars:
            for bad in self.foreign_in(rhs):
                self.add("hierarchical-write", bad, f"binds a virtual interface to '{bad}' inside the design")

    def overrides(self, dut: str) -> bool:
        """Whether the testbench instantiates ``dut`` with a parameter value assignment."""
        return dut in self.param_overrides

    def check_driven(self, lhs, node) -> None:
        """A write whose target is a testbench signal that a design instance's output/inout drives."""
        scope = self.index.scope(node)
        for name in _plain_names(lhs):
            if (scope, name) in self.dut_driven:
                self.driven(name, node)

    def driven(self, name: str, node) -> None:
        inst, port = self.dut_driven[(self.index.scope(node), name)]
        self.add("dut-output-write", node, f"writes '{name}', which the design drives through port '{port}' of "
                 f"'{inst}': the testbench may drive only the DUT's inputs (reading '{name}' is fine)")

    def check_instance(self, n) -> None:
        """Port connections: hierarchical names only into inputs; no output of one instance onto a signal
        a design instance drives."""
        type_name = _ident(n.type)
        ports = self.module_ports.get(type_name, [])
        for hi in n.instances:
            iname = _ident(hi.decl.name) if getattr(hi, "decl", None) is not None else ""
            for port, expr in self.connections(type_name, hi):
                if expr is None or isinstance(expr, _NameRef):
                    names = _plain_names(expr) if expr is not None else []
                    bad_hier = []
                else:
                    names = _plain_names(expr)
                    bad_hier = list(self.foreign_in(expr))
                writes = _port_writes(ports, port)
                if writes:
                    for bad in bad_hier:
                        self.add("hierarchical-port", bad, f"connects '{bad}' to port '{port}' of '{iname}', which "
                                 "can drive it: only input ports may be connected to the design's internals")
                    for name in names:
                        owner = self.dut_driven.get((self.index.scope(n), name))
                        if owner is not None and owner[0] != iname:
                            self.driven(name, hi)

    def check_event_text(self, n) -> None:
        """Verilator prints an event control's text into generated C++ unescaped: no strings there."""
        expr = getattr(n, "expr", None) if _kind(n) in ("WaitStatement", "EventControlWithExpression") else n
        for tok in _tokens(expr) if expr is not None else []:
            if tok.kind.name == "StringLiteral" or (tok.kind.name == "Identifier" and _ident(tok) in self.string_names):
                self.add("event-string", tok, f"{tok.valueText!r} in an event control or wait: Verilator copies "
                         "its text into generated C++ without escaping; wait on signals or events instead")
                return

    def check_interface_handle(self, n) -> None:
        """A name that denotes an interface instance (or its modport) inside the design: a handle to it
        (virtual interface, ref argument, class member) would write the design's state."""
        if not self.foreign(n):
            return
        parts = [_ident(t) for t in _tokens(n) if t.kind.name == "Identifier"]
        if not parts:
            return
        last = parts[-1]
        if last in self.design_iface_instances or (
                last in self.design_modports and len(parts) > 1 and parts[-2] in self.design_iface_instances):
            self.add("interface-handle", n, f"'{str(n).strip()}' names an interface instance inside the design: a "
                     "handle to it (virtual interface, ref argument, class member) writes the design's state; "
                     "read its signals by their full name instead")

    def write(self, node, verb: str = "writes") -> None:
        self.add("hierarchical-write", node, f"{verb} '{str(node).strip()}' outside the testbench's own variables "
                 f"(into the design hierarchy: '{self.instance}.…', tb.…, $root.…); drive the DUT's ports only")


def foreign_names(design, testbench: str, sandbox=None) -> list[Violation]:
    """Hierarchical references that name something the task's RTL does not declare (rule
    ``undeclared-name``): the bug hunt (ecov.harness.tracks.sv.bughunt) refuses them, since the names the
    harness adds to the design (its mutant selector, its port probe) are the only such names there.
    Reads only; the other rules (``check_design``) still apply. A testbench the preprocessor or parser
    cannot read gets nothing here (the other rules report it)."""
    sources = tuple((f.name, f.content) for f in design.files)
    pp = _preprocessed(sources, testbench, sandbox)
    if not pp.ok:
        return []
    with _lock:
        sm, tree, index = _parsed(pp.text)
        walker = _Walker(sm, design.instance, index)
        walker.collect()
        known = {"$root", "$unit"} | walker.tb_defs | walker.scope_names | walker.data_names
        known |= {_ident(t) for t in index.all_tokens() if t.kind.name == "Identifier" and not walker.in_tb(t)}
        found: list[Violation] = []
        stack = [tree.root]
        while stack:
            n = stack.pop()
            if _is_token(n):
                continue
            if _kind(n) == "ScopedName" and walker.in_tb(n):
                if walker.foreign(n):
                    for tok in _path_identifiers(n):
                        if _ident(tok) not in known:
                            found.append(Violation("undeclared-name", walker.line(tok), (
                                f"'{str(n).strip()[:80]}' names '{_ident(tok)}', which the task's RTL does not declare: "
                                "a bug-hunt testbench may reference only the design's own names")))
                continue
            stack.extend(index.children(n))
    return sorted({(v.line, v.message): v for v in found}.values(), key=lambda v: v.line)


def _path_identifiers(name) -> list:
    """The identifier tokens of a dotted name's path (``a.b[i].c`` -> a, b, c; never the select's index)."""
    k = _kind(name)
    if k == "ScopedName":
        return _path_identifiers(name.left) + _path_identifiers(name.right)
    if k in ("IdentifierName", "IdentifierSelectName", "ClassName"):
        return [name.identifier]
    return []


__all__ = ["RULES_VERSION", "Violation", "check_testbench", "check_design", "foreign_names", "preprocess",
           "READONLY_SYSTEM", "ALLOWED_SYSTEM", "ALLOWED_DIRECTIVES"]
