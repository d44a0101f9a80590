"""Port lists of a DUT top module, and which ports are clocks, resets and data.

The random baseline needs exact widths to emit a lint-clean testbench, so ports are read from an
elaborated design (pyslang, default parameter values). When pyslang cannot elaborate the files, a
regex parser reads the module header and evaluates simple width expressions against the parameter
defaults. Clock/reset roles come from names first, refined by how the RTL uses the signal
(``@(negedge rst)``, ``if (!rst)``), since names alone get polarity wrong for plain ``rst``.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from dataclasses import dataclass, field, replace

from ecov.harness.core.records import SourceFile
from ecov.harness.hdl.text import strip_comments

INPUT, OUTPUT, INOUT = "input", "output", "inout"


class PortParseError(ValueError):
    """The DUT module or its ports could not be found in the RTL."""


@dataclass(frozen=True)
class Port:
    name: str
    direction: str  # input | output | inout
    width: int  # packed width of one element, in bits
    signed: bool = False
    unpacked: tuple[tuple[int, int], ...] = ()  # unpacked dimensions as (left, right)
    type_name: str = ""  # a named type (package enum) the testbench must declare and cast to

    @property
    def is_array(self) -> bool:
        return bool(self.unpacked)


@dataclass
class ModulePorts:
    module: str
    ports: list[Port]
    parameters: dict[str, str] = field(default_factory=dict)  # name -> default value (text)
    parser: str = "pyslang"  # which parser produced this (pyslang | regex)
    # name -> integral | real | string | type, for each overridable parameter (pyslang only; empty from regex)
    param_kinds: dict[str, str] = field(default_factory=dict)
    fallback_reason: str = ""  # why pyslang could not read the module, when the regex parser did

    @property
    def inputs(self) -> list[Port]:
        return [p for p in self.ports if p.direction == INPUT]


@dataclass
class Roles:
    clocks: list[str]
    resets: dict[str, bool]  # name -> active_low
    data: list[Port]  # inputs driven with stimulus


# --------------------------------------------------------------------------------------------
# Parsing


_cache: dict[str, ModulePorts] = {}
_lock = threading.Lock()


def parse_ports(files: list[SourceFile] | tuple[SourceFile, ...], module: str) -> ModulePorts:
    """Ports of ``module`` with widths at default parameter values.

    Memoised per (files, module), since every round of every sample asks again; the lock also keeps
    pyslang to one thread at a time.
    """
    h = hashlib.sha256(module.encode())
    for f in files:
        h.update(b"\0" + f.name.encode() + b"\0" + f.content.encode())
    key = h.hexdigest()
    with _lock:
        if key not in _cache:
            _cache[key] = _parse_uncached(files, module)
        return _cache[key]


def _parse_uncached(files, module: str) -> ModulePorts:
    err: Exception | None = None
    try:
        return _parse_pyslang(files, module)
    except ImportError as e:  # pragma: no cover - pyslang is a declared dependency of the wheel
        err = e
    except PortParseError as e:
        err = e
    try:
        return replace(_parse_regex(files, module), fallback_reason=str(err))
    except PortParseError as e:
        raise PortParseError(f"{e} (pyslang: {err})") from e


def _parse_pyslang(files, module: str) -> ModulePorts:
    from pyslang import Bag
    from pyslang.ast import ArgumentDirection, Compilation, CompilationOptions
    from pyslang.syntax import SyntaxTree

    opts = CompilationOptions()
    opts.topModules = {module}
    comp = Compilation(Bag([opts]))
    # One buffer, as Verilator reads the files in order: macros defined in one file reach the next.
    comp.addSyntaxTree(SyntaxTree.fromText(source_text(files), name="ecov_rtl.sv"))
    tops = [i for i in comp.getRoot().topInstances if i.name == module]
    if not tops:
        raise PortParseError(f"module {module!r} not found by pyslang")
    body = tops[0].body
    ports: list[Port] = []
    directions = {ArgumentDirection.In: INPUT, ArgumentDirection.Out: OUTPUT, ArgumentDirection.InOut: INOUT}
    for sym in body.portList:
        if not hasattr(sym, "direction") or not hasattr(sym, "type"):
            raise PortParseError(f"port {sym.name!r} of {module} is an interface port; not supported")
        direction = directions.get(sym.direction)
        if direction is None:
            raise PortParseError(f"port {sym.name!r} has unsupported direction {sym.direction}")
        ports.append(_port_from_type(sym.name, direction, sym.type))
    if any(p.width <= 0 for p in ports):
        bad = [p.name for p in ports if p.width <= 0]
        raise PortParseError(f"could not size ports {bad} of {module}")
    params, kinds = {}, {}
    for prm in body.parameters:
        if not prm.isLocalParam:
            params[prm.name] = str(getattr(prm, "value", ""))
            kinds[prm.name] = _param_kind(prm)
    return ModulePorts(module, ports, params, "pyslang", kinds)


def _param_kind(prm) -> str:
    typ = getattr(prm, "type", None)
    if prm.kind.name == "TypeParameter" or typ is None:
        return "type"
    if typ.isIntegral:
        return "integral"
    return "real" if typ.isFloating else "string"


def _port_from_type(name: str, direction: str, typ) -> Port:
    unpacked: list[tuple[int, int]] = []
    t = typ.canonicalType
    while t.isUnpackedArray:
        rng = getattr(t, "range", None)
        if rng is None:  # dynamic / associative arrays cannot be ports we drive
            raise PortParseError(f"port {name!r} has an unsupported unpacked type {typ}")
        unpacked.append((int(rng.left), int(rng.right)))
        t = t.elementType.canonicalType
    type_name = ""
    if t.isEnum:
        text = str(typ if not unpacked else t)
        if "::" in text:  # only package types can be named from the testbench
            type_name = text
    return Port(name, direction, int(t.bitWidth), bool(getattr(t, "isSigned", False)), tuple(unpacked), type_name)


HEADER_SUFFIXES = (".vh", ".svh", ".h", ".inc")
_INCLUDE_RE = re.compile(r'^[ \t]*`include\s+"([^"]+)"[^\n]*$', re.M)


def source_text(files) -> str:
    """All compilation units in order, with `` `include "x" `` replaced by the RTL file named x."""
    by_name = {f.name.rsplit("/", 1)[-1]: f.content for f in files}

    def inline(text: str, depth: int) -> str:
        def sub(m: re.Match) -> str:
            body = by_name.get(m.group(1).rsplit("/", 1)[-1])
            if body is None or depth > 8:
                return f"// ecov: include {m.group(1)} not found"
            return inline(body, depth + 1)

        return _INCLUDE_RE.sub(sub, text)

    units = [f for f in files if not f.name.lower().endswith(HEADER_SUFFIXES)]
    return "\n".join(inline(f.content, 0) for f in units)


_DEFINE_RE = re.compile(r"^[ \t]*`define\s+([A-Za-z_]\w*)[ \t]+([^\n]*?)\s*$", re.M)


def expand_simple_macros(text: str) -> str:
    """Substitute object-like `` `define NAME value `` macros (for the regex parser only)."""
    defs = {m.group(1): strip_comments(m.group(2)).strip() for m in _DEFINE_RE.finditer(text)}
    if not defs:
        return text
    pattern = re.compile(r"`(" + "|".join(map(re.escape, sorted(defs, key=len, reverse=True))) + r")\b")
    for _ in range(4):  # macros defined from other macros
        text = pattern.sub(lambda m: defs[m.group(1)], text)
    return text


_DIR_RE = re.compile(r"\b(input|output|inout)\b")


def _parse_regex(files, module: str) -> ModulePorts:
    """A forgiving header parser for RTL pyslang cannot elaborate (missing includes, vendor macros)."""
    text = expand_simple_macros(strip_comments(source_text(files)))
    m = re.search(rf"\bmodule\s+(?:automatic\s+|static\s+)?{re.escape(module)}\b", text)
    if not m:
        raise PortParseError(f"module {module!r} not found in the RTL files")
    end = re.search(r"\bendmodule\b", text[m.end():])
    body = text[m.end(): m.end() + end.start()] if end else text[m.end():]
    params = _regex_params(body)
    env = {k: _eval(v, {}) for k, v in params.items()}
    for k, v in params.items():  # second pass for parameters defined from others
        env[k] = _eval(v, env)
    body = re.sub(r"^\s*(import\s+[\w:*,\s]+;\s*)+", " ", body)  # module m import pkg::*; #(...)
    header_end = _header_end(body)
    header, rest = body[:header_end], body[header_end:]
    ports: list[Port] = []
    # ANSI style: directions inside the header's port list.
    plist = header[_last_paren_group(header): header.rfind(")")] if "(" in header else ""
    if _DIR_RE.search(plist):
        ports = _regex_decls(plist, env, ansi=True)
    else:
        names = [n for n in re.findall(r"[A-Za-z_]\w*", plist)]
        decls = {p.name: p for p in _regex_decls(rest, env, ansi=False)}
        ports = [decls[n] for n in names if n in decls]
    if not ports:
        raise PortParseError(f"no ports found for module {module!r}")
    return ModulePorts(module, ports, {k: str(v) for k, v in params.items()}, "regex")


def _header_end(body: str) -> int:
    """Index just after the ';' that closes the module header (skipping parenthesised text)."""
    depth = 0
    for i, ch in enumerate(body):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == ";" and depth == 0:
            return i + 1
    return len(body)


def _last_paren_group(header: str) -> int:
    """Start of the last top-level parenthesised group (the port list)."""
    depth, start = 0, 0
    for i, ch in enumerate(header):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
    return start + 1


def _regex_params(body: str) -> dict[str, str]:
    params: dict[str, str] = {}
    for m in re.finditer(r"\b(?:parameter|localparam)\b([^;)]*?)(?=[;)]|\bparameter\b|\blocalparam\b)", body):
        for part in _split_top(m.group(1)):
            pm = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=\s*(.+)$", part.strip(), re.S)
            if pm:
                params.setdefault(pm.group(1), pm.group(2).strip())
    return params


def _split_top(text: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


_DECL_RE = re.compile(
    r"\b(input|output|inout)\b\s*((?:wire|reg|logic|bit|var|tri|signed|unsigned|integer|int)\s*)*"
    r"((?:\[[^\]]*\]\s*)*)([^;]*?)(?=\b(?:input|output|inout)\b|;|$)",
    re.S,
)


def _regex_decls(text: str, env: dict[str, int], ansi: bool) -> list[Port]:
    ports = []
    for m in _DECL_RE.finditer(text):
        direction, dims, names = m.group(1), m.group(3), m.group(4)
        kw = m.group(0)[: m.start(3) - m.start(0)]
        width = 1
        for lo_hi in re.findall(r"\[([^\]]*)\]", dims):
            width *= _range_width(lo_hi, env)
        if re.search(r"\b(integer|int)\b", kw) and not dims:
            width = 32
        for raw in names.split(","):
            nm = re.match(r"\s*(?:[A-Za-z_][\w:]*\s+(?=[A-Za-z_]))?([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*)", raw)
            if not nm:
                continue
            unpacked = tuple(_range(r, env) for r in re.findall(r"\[([^\]]*)\]", nm.group(2)))
            ports.append(Port(nm.group(1), direction, width, "signed" in kw, unpacked))
    return ports


def _range(text: str, env: dict[str, int]) -> tuple[int, int]:
    if ":" in text:
        left, right = text.split(":", 1)
        return _eval(left, env), _eval(right, env)
    n = _eval(text, env)
    return 0, n - 1


def _range_width(text: str, env: dict[str, int]) -> int:
    left, right = _range(text, env)
    return abs(left - right) + 1


_SV_NUM_RE = re.compile(r"(\d+)?\s*'\s*[sS]?([hHdDbBoO])\s*([0-9a-fA-F_]+)")


def _eval(expr: str, env: dict[str, int]) -> int:
    """Evaluate a constant width expression (parameters, + - * / %, shifts, $clog2); 1 on failure."""
    e = expr.strip()
    e = re.sub(r"\b(int|integer|unsigned|signed|logic|bit)\b", "", e)

    def num(m: re.Match) -> str:
        base = {"h": 16, "d": 10, "b": 2, "o": 8}[m.group(2).lower()]
        return str(int(m.group(3).replace("_", ""), base))

    e = _SV_NUM_RE.sub(num, e)
    e = e.replace("$clog2", "_clog2").replace("/", "//")
    e = re.sub(r"\b([A-Za-z_]\w*)\b", lambda m: m.group(1) if m.group(1) == "_clog2" else
               str(env.get(m.group(1), m.group(1))), e)
    if re.search(r"[A-Za-z]", e.replace("_clog2", "")):
        return 1
    try:
        val = eval(e, {"__builtins__": {}}, {"_clog2": lambda n: max(0, math.ceil(math.log2(n))) if n > 0 else 0})
        return int(val)
    except Exception:
        return 1


# --------------------------------------------------------------------------------------------
# Roles

_CLOCK_TOKEN = re.compile(r"^([a-z]?clk\d*|clock\d*|ck)$")
_NOT_CLOCK_TOKENS = {"en", "ena", "enable", "sel", "gate", "gated", "div", "cnt", "count", "out", "o",
                     "stb", "req", "ack", "valid", "rdy", "ready", "cfg", "mux", "edge", "sync"}
_RESET_TOKEN = re.compile(r"^[a-z]?n?[as]?(rst|reset|rset|clr_n)n?\d*$")
_ACTIVE_LOW = (
    re.compile(r"(rst|reset|clr)_?(n|ni|b|l|neg|low|bar|_n)(_i|_in)?$"),
    re.compile(r"^(i_)?n_?[as]?(rst|reset)"),
    re.compile(r"(rst|reset|clr|clear|set)n(_i|_in)?$"),
    re.compile(r"^(i_)?n_?(clr|clear|set|preset)"),
)


def looks_like_clock(name: str) -> bool:
    toks = [t.lower() for t in re.split(r"_+", name) if t]
    return any(_CLOCK_TOKEN.match(t) for t in toks) and not any(t in _NOT_CLOCK_TOKENS for t in toks)


_CLEAR_TOKEN = re.compile(r"^n?(a?clr|clear|a?set|preset|pre)n?$")


def looks_like_reset(name: str, edge: bool = False) -> bool:
    """Reset by name; an asynchronous clear/set (used as an edge in the RTL) counts too."""
    toks = [t.lower() for t in re.split(r"_+", name) if t]
    low = name.lower()
    if any(_RESET_TOKEN.match(t) for t in toks) or low in ("nrst", "nreset", "por", "por_n"):
        return True
    return edge and any(_CLEAR_TOKEN.match(t) for t in toks)


def reset_active_low(name: str, rtl: str = "") -> bool:
    """Polarity from RTL usage when it is explicit, else from the name."""
    n = re.escape(name)
    if rtl:
        if re.search(rf"\bnegedge\s+{n}\b", rtl):
            return True
        if re.search(rf"\bposedge\s+{n}\b", rtl):
            return False
        if re.search(rf"\bif\s*\(\s*(!|~)\s*{n}\s*\)", rtl) or re.search(rf"\b{n}\s*==\s*1'b0\b", rtl):
            return True
        if re.search(rf"\bif\s*\(\s*{n}\s*\)", rtl) or re.search(rf"\b{n}\s*==\s*1'b1\b", rtl):
            return False
    low = name.lower()
    return any(p.search(low) for p in _ACTIVE_LOW)


def edge_signals(rtl: str) -> set[str]:
    """Signals used as ``posedge X`` / ``negedge X`` anywhere in the RTL."""
    return set(re.findall(r"\b(?:posedge|negedge)\s+([A-Za-z_]\w*)", rtl))


def classify(mp: ModulePorts, rtl: str) -> Roles:
    """Split the inputs into clocks, resets and data.

    A 1-bit input is a clock when its name says so, or when the RTL uses it as an edge and it is not a
    reset; a reset when its name says so. Everything else is data.
    """
    rtl = strip_comments(rtl)
    edges = edge_signals(rtl)
    clocks: list[str] = []
    resets: dict[str, bool] = {}
    data: list[Port] = []
    for p in mp.inputs:
        scalar = p.width == 1 and not p.is_array and not p.type_name
        if scalar and looks_like_reset(p.name, edge=p.name in edges):
            resets[p.name] = reset_active_low(p.name, rtl)
        elif scalar and (looks_like_clock(p.name) or (p.name in edges and not _looks_like_data(p.name))):
            clocks.append(p.name)
        else:
            data.append(p)
    return Roles(clocks, resets, data)


def _looks_like_data(name: str) -> bool:
    toks = {t.lower() for t in re.split(r"_+", name) if t}
    return bool(toks & {"en", "valid", "req", "start", "data", "din", "in", "sel", "d"})
