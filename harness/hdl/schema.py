"""The mutant schema: one copy of the design with every mutant behind a harness-owned selector.

Each mutated expression ``e`` becomes ``((SEL == K) ? (e') : (e))`` where ``K`` is that mutant's key,
a random 32-bit value (a ``?:`` is signed only when both its branches are, so an unsized literal ``e'``
such as ``'1`` standing for a signed ``e`` is written ``$signed('1)``: otherwise the golden branch would
lose its sign and be zero-extended); nested sites render inside the original branch only (one mutant is
active at a time), and several mutants of one expression chain. ``SEL`` is a variable of every mutated module, set
at time 0 from a DPI import (``GET``) that the harness main answers with the run's key, which arrives on
the run's private channel (its standard input). No run's key is 0 or another run's, so the golden
design is just a key that no site knows. The names (``SEL``, ``GET`` and the probe's) are random per
build: no testbench text can name them. The DUT's top also gets the port probe: a DPI export
(``PROBE``) the main calls after every time step, which hands each port's value, 32 bits at a time, to
``PUT`` (its trace, ecov.harness.sim.porttrace).

Pure: text in, text out. The names and keys come from ``secrets``, so two builds never share them.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass

from ecov.harness.core.records import Mutant, SourceFile

_lock = threading.Lock()  # pyslang from one thread at a time


class SchemaError(ValueError):
    """Mutants that cannot share one build (overlapping spans, text that does not match its file)."""

    def __init__(self, message: str, ids: tuple[str, ...] = ()):
        super().__init__(message)
        self.ids = ids


@dataclass(frozen=True)
class ProbePort:
    name: str
    direction: str  # input | output | inout
    array: bool = False  # an unpacked array: packed with a streaming concatenation first


@dataclass(frozen=True)
class Schema:
    files: tuple[SourceFile, ...]
    selector: str  # SV variable in each mutated module
    getter: str  # DPI import: the run's key
    probe: str  # DPI export in the DUT top: hands every port to ``put``
    put: str  # DPI import: (port index, 32-bit word index, value)
    keys: dict[str, int]  # mutant id -> its key
    golden_key: int
    ports: tuple[ProbePort, ...]  # probe index order


def _token() -> str:
    return secrets.token_hex(8)


def _keys(ids: list[str]) -> tuple[dict[str, int], int]:
    used: set[int] = {0}
    out: dict[str, int] = {}
    for i in [*ids, ""]:
        k = 0
        while k in used:
            k = secrets.randbits(32)
        used.add(k)
        out[i] = k
    golden = out.pop("")
    return out, golden


def build_schema(files: tuple[SourceFile, ...] | list[SourceFile], top: str, mutants: tuple[Mutant, ...] | list[Mutant],
                 ports: tuple[ProbePort, ...] | list[ProbePort]) -> Schema:
    """The design with ``mutants`` behind the selector and the probe in module ``top``; SchemaError when a
    mutant's text does not stand at its span or two spans overlap without nesting."""
    tag = _token()
    sel, get, probe, put = (f"ecov_bh_{w}_{tag}" for w in ("sel", "get", "probe", "put"))
    keys, golden = _keys([m.id for m in mutants])
    decl = (f"\n  int unsigned {sel};\n  import \"DPI-C\" function int unsigned {get}();\n"
            f"  initial {sel} = {get}();\n")
    out = _schema_files(files, top, mutants, keys, sel, decl, _probe_text(probe, put, ports))
    return Schema(out, sel, get, probe, put, keys, golden, tuple(ports))


REPLAY_SELECTOR = "ecov_bh_sel"  # the trusted replay's selector: a plusarg (no testbench code runs there)


def replay_schema(files: tuple[SourceFile, ...] | list[SourceFile], top: str,
                  mutants: tuple[Mutant, ...] | list[Mutant]) -> tuple[tuple[SourceFile, ...], dict[str, int]]:
    """The schema of the trusted replay's mutant model (ecov.harness.tracks.sv.bughunt): the same edits,
    the selector read from the plusarg ``+ecov_bh_sel=K`` at time 0, mutant ``i`` (0-based) under key
    ``i + 1``; no probe. Deterministic, so the DUT-only build is made once per task and mutant set."""
    keys = {m.id: i + 1 for i, m in enumerate(mutants)}
    sel = REPLAY_SELECTOR
    decl = (f"\n  int unsigned {sel};\n"
            f"  initial if (!$value$plusargs(\"{sel}=%d\", {sel})) {sel} = 0;\n")
    return _schema_files(files, top, mutants, keys, sel, decl, ""), keys


def _schema_files(files, top: str, mutants, keys: dict[str, int], sel: str, decl: str, probe: str
                  ) -> tuple[SourceFile, ...]:
    by_file: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_file.setdefault(m.file, []).append(m)
    unknown = sorted(set(by_file) - {f.name for f in files})
    if unknown:
        raise SchemaError(f"mutants name files the design does not have: {', '.join(unknown)}",
                          tuple(m.id for f in unknown for m in by_file[f]))
    out: list[SourceFile] = []
    found_top = False
    with _lock:
        signed = _signed_spans(files) if mutants else {}
        for f in files:
            data = f.content.encode()
            mods = _modules(f)
            inserts: dict[int, str] = {}
            for name, header_end, end_at in mods:
                if any(header_end <= m.start < end_at for m in by_file.get(f.name, [])):
                    inserts[header_end] = inserts.get(header_end, "") + decl
                if name == top and not found_top:
                    found_top = True
                    if probe:
                        inserts[end_at] = inserts.get(end_at, "") + probe
            for m in by_file.get(f.name, []):
                if data[m.start:m.end].decode(errors="replace") != m.original:
                    raise SchemaError(f"mutant {m.id}: {m.file} does not hold {m.original!r} at bytes "
                                      f"{m.start}..{m.end}", (m.id,))
                if not any(h <= m.start and m.end <= e for _, h, e in mods):
                    raise SchemaError(f"mutant {m.id} lies outside every module body", (m.id,))
            out.append(SourceFile(f.name, _render(data, by_file.get(f.name, []), keys, sel, inserts,
                                                  signed.get(f.name, set()))))
    if not found_top:
        raise SchemaError(f"module {top!r} is not defined in the design files")
    return tuple(out)


def _modules(f: SourceFile) -> list[tuple[str, int, int]]:
    """(name, offset after the header's ';', offset of ``endmodule``) of each module in the file."""
    import pyslang
    from pyslang.syntax import SyntaxTree

    sm = pyslang.SourceManager()
    tree = SyntaxTree.fromText(f.content, sm, f.name)
    out = []
    stack = [tree.root]
    while stack:
        n = stack.pop()
        if n is None or not hasattr(n, "kind") or n.__class__.__name__ == "Token":
            continue
        if n.kind.name == "ModuleDeclaration":
            h, e = n.header.sourceRange.end, n.endmodule.location
            if not sm.isMacroLoc(h) and not sm.isMacroLoc(e):
                out.append((str(n.header.name.valueText), h.offset, e.offset))
            continue
        try:
            stack.extend(c for c in n if c is not None)
        except TypeError:
            continue
    return sorted(out, key=lambda t: t[1])


def _signed_spans(files) -> dict[str, set[tuple[int, int]]]:
    """Per file, the byte spans of the expressions the elaborated design types as signed (pyslang's
    semantic model of all the files together, so packages and parameters count)."""
    import pyslang
    from pyslang.ast import Compilation, Expression
    from pyslang.syntax import SyntaxTree

    sm = pyslang.SourceManager()
    comp = Compilation()
    for f in files:
        comp.addSyntaxTree(SyntaxTree.fromText(f.content, sm, f.name))
    out: dict[str, set[tuple[int, int]]] = {}

    def visit(x) -> bool:
        if isinstance(x, Expression) and x.kind.name != "Conversion" and x.type is not None and x.type.isSigned:
            r = x.sourceRange
            if not sm.isMacroLoc(r.start) and not sm.isMacroLoc(r.end):
                out.setdefault(str(sm.getFileName(r.start)), set()).add((r.start.offset, r.end.offset))
        return True

    comp.getRoot().visit(visit)
    return out


def _replacement(m: Mutant, signed: set[tuple[int, int]]) -> str:
    """The mutant's text in the schema: an unsized literal for a signed expression keeps the sign."""
    if (m.start, m.end) in signed and m.replacement.strip().startswith("'"):
        return f"$signed({m.replacement})"
    return m.replacement


def _render(data: bytes, mutants: list[Mutant], keys: dict[str, int], sel: str, inserts: dict[int, str],
            signed: set[tuple[int, int]] = frozenset()) -> str:
    spans: dict[tuple[int, int], list[Mutant]] = {}
    for m in mutants:
        spans.setdefault((m.start, m.end), []).append(m)
    order = sorted(spans, key=lambda s: (s[0], -s[1]))
    # Spans nest or are disjoint: a stack check finds any that overlap otherwise.
    stack: list[tuple[int, int]] = []
    for s in order:
        while stack and stack[-1][1] <= s[0]:
            stack.pop()
        if stack and s[1] > stack[-1][1]:
            ids = tuple(m.id for m in spans[s] + spans[stack[-1]])
            raise SchemaError(f"mutants {', '.join(ids)} overlap without nesting", ids)
        stack.append(s)

    def render(lo: int, hi: int, inner: list[tuple[int, int]]) -> str:
        parts: list[str] = []
        pos = lo
        points = sorted(p for p in inserts if lo <= p <= hi) if lo == 0 and hi == len(data) else []
        tops: list[tuple[int, int]] = []
        for s in inner:
            if not tops or s[0] >= tops[-1][1]:
                tops.append(s)
        events = sorted([(p, 0, None) for p in points] + [(s[0], 1, s) for s in tops], key=lambda t: (t[0], t[1]))
        for at, kind, s in events:
            parts.append(data[pos:at].decode(errors="replace"))
            pos = at
            if kind == 0:
                parts.append(inserts[at])
                continue
            nested = [t for t in inner if s[0] <= t[0] and t[1] <= s[1] and t != s]
            expr = f"({render(s[0], s[1], nested)})"
            for m in reversed(spans[s]):
                expr = f"(({sel} == 32'h{keys[m.id]:08x}) ? ({_replacement(m, signed)}) : {expr})"
            parts.append(expr)
            pos = s[1]
        parts.append(data[pos:hi].decode(errors="replace"))
        return "".join(parts)

    return render(0, len(data), order)


def _probe_text(probe: str, put: str, ports) -> str:
    lines = [f"  import \"DPI-C\" function void {put}(input int unsigned idx, input int unsigned word, "
             "input int unsigned value);",
             f"  export \"DPI-C\" function {probe};",
             f"  function automatic void {probe}();"]
    lines += [f"    logic [$bits({p.name})-1:0] ecov_bh_v{i};" for i, p in enumerate(ports) if p.array]
    for i, p in enumerate(ports):
        value = p.name
        if p.array:
            lines.append(f"    ecov_bh_v{i} = {{>>{{{p.name}}}}};")
            value = f"ecov_bh_v{i}"
        lines.append(f"    for (int unsigned w = 0; w < ($bits({value}) + 31) / 32; w++) "
                     f"{put}({i}, w, 32'({value} >> (32 * w)));")
    lines.append("  endfunction\n")
    return "\n" + "\n".join(lines)


__all__ = ["REPLAY_SELECTOR", "ProbePort", "Schema", "SchemaError", "build_schema", "replay_schema"]
