"""Mutation candidates of a design, read from its syntax tree (pyslang), never from regexes.

Every candidate is an expression-level edit of one RTL file: a byte span (UTF-8 offsets) of one
expression and the text that replaces it, so that all of them can live in one build behind a runtime
selector (ecov.harness.hdl.schema). Only runtime code is mutated: continuous assignments and the
statements of ``always`` blocks (generate bodies included), never parameter values, ranges, select
indices, replication counts, casts' widths, generate conditions, loop headers, declarations'
initialisers, functions, tasks or initial blocks. The kinds (``OPERATORS``):

- operator swaps: ``arith`` (+ -), ``relational`` (< <= > >= == != === !==), ``logical`` (&& ||),
  ``bitwise`` (& | ^ ~^ and the reductions), ``shift`` (<< >> >>>);
- constants: ``const_inc``/``const_dec`` (±1 in the literal's own width), ``const_flip`` (its top bit,
  or '0 <-> '1);
- ``negate``: an ``if`` or ``?:`` condition becomes ``!(cond)``; ``drop_not``: a ``!``/``~`` dropped;
- ``stuck``: an assignment's right-hand side becomes ``'0`` or ``'1``;
- ``drop_term``: one operand of an ``&&``/``||`` (or 1-bit ``&``/``|``) in an ``if``/``?:`` condition
  dropped (an enable or reset condition that ignores a term);
- ``case_label``: a case item takes the next item's label (the two items' behaviours swap places);
- ``fsm_next``: a next-state assignment of one case label (a state) gets the next state instead;
- ``concat_swap``: two neighbouring elements of a concatenation swap places (wires crossed).

Pure: text in, candidates out, in a deterministic order. Which candidates a task keeps is decided by
simulation (ecov.harness.benchmark.mutants).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ecov.harness.core.records import Mutant, SourceFile

OPERATORS = ("arith", "relational", "logical", "bitwise", "shift", "const_inc", "const_dec", "const_flip",
             "negate", "drop_not", "stuck", "drop_term", "case_label", "fsm_next", "concat_swap")

# Binary operator swaps: syntax kind -> (operator kind, replacement token).
_SWAPS = {
    "AddExpression": ("arith", "-"), "SubtractExpression": ("arith", "+"), "MultiplyExpression": ("arith", "+"),
    "LessThanExpression": ("relational", "<="), "LessThanEqualExpression": ("relational", "<"),
    "GreaterThanExpression": ("relational", ">="), "GreaterThanEqualExpression": ("relational", ">"),
    "EqualityExpression": ("relational", "!="), "InequalityExpression": ("relational", "=="),
    "CaseEqualityExpression": ("relational", "!=="), "CaseInequalityExpression": ("relational", "==="),
    "LogicalAndExpression": ("logical", "||"), "LogicalOrExpression": ("logical", "&&"),
    "BinaryAndExpression": ("bitwise", "|"), "BinaryOrExpression": ("bitwise", "&"),
    "BinaryXorExpression": ("bitwise", "|"), "BinaryXnorExpression": ("bitwise", "^"),
    "LogicalShiftLeftExpression": ("shift", ">>"), "LogicalShiftRightExpression": ("shift", "<<"),
    "ArithmeticShiftRightExpression": ("shift", ">>"), "ArithmeticShiftLeftExpression": ("shift", ">>>"),
}
# Unary reductions: kind -> replacement operator.
_REDUCTIONS = {"UnaryBitwiseAndExpression": "|", "UnaryBitwiseOrExpression": "&", "UnaryBitwiseXorExpression": "~^",
               "UnaryBitwiseNandExpression": "~|", "UnaryBitwiseNorExpression": "~&",
               "UnaryBitwiseXnorExpression": "^"}
_NOTS = ("UnaryLogicalNotExpression", "UnaryBitwiseNotExpression")
_TERMS = ("LogicalAndExpression", "LogicalOrExpression", "BinaryAndExpression", "BinaryOrExpression")
_ASSIGNS = ("AssignmentExpression", "NonblockingAssignmentExpression")
_ALWAYS = ("AlwaysBlock", "AlwaysFFBlock", "AlwaysCombBlock", "AlwaysLatchBlock")
_LOOPS = ("ForLoopStatement", "LoopStatement", "DoWhileStatement", "ForeverStatement", "ForeachLoopStatement",
          "RepeatStatement", "WhileStatement")
_BASES = {"b": 2, "o": 8, "d": 10, "h": 16}
MAX_LITERAL_BITS = 4096
MAX_CONCAT_SWAPS = 4  # neighbouring pairs swapped per concatenation, from the left

_lock = threading.Lock()  # pyslang from one thread at a time (as harness/hdl/ports.py)


@dataclass
class _File:
    name: str
    data: bytes
    sm: object


def candidates(files: list[SourceFile] | tuple[SourceFile, ...]) -> list[Mutant]:
    """Every mutation candidate of the design, in file and source order, with ids ``c0001``...; an edit
    that would repeat an earlier one (same span, same replacement) is made once."""
    out: list[Mutant] = []
    seen: set[tuple[str, int, int, str]] = set()
    with _lock:
        for f in files:
            for m in _file_candidates(f):
                key = (m.file, m.start, m.end, m.replacement)
                if key in seen or m.replacement == m.original:
                    continue
                seen.add(key)
                out.append(m)
    return [Mutant(f"c{i:04d}", m.operator, m.file, m.line, m.start, m.end, m.original, m.replacement, m.note)
            for i, m in enumerate(out, 1)]


def _file_candidates(f: SourceFile) -> list[Mutant]:
    import pyslang
    from pyslang.syntax import SyntaxTree

    sm = pyslang.SourceManager()
    tree = SyntaxTree.fromText(f.content, sm, f.name)
    data = f.content.encode()
    ctx = _Gen(_File(f.name, data, sm))
    for module in _nodes(tree.root, "ModuleDeclaration"):
        ctx.module(module)
    return ctx.found


def _nodes(root, kind: str) -> list:
    from pyslang.parsing import Token

    out, stack = [], [root]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, Token):
            continue
        if n.kind.name == kind:
            out.append(n)
            continue
        stack.extend(reversed([c for c in n if c is not None]))
    return out


def _kind(n) -> str:
    return n.kind.name if n is not None and hasattr(n, "kind") else ""


def _is_token(n) -> bool:
    from pyslang.parsing import Token

    return isinstance(n, Token)


class _Gen:
    """Collects the candidates of one file, module by module."""

    def __init__(self, f: _File):
        self.f = f
        self.found: list[Mutant] = []
        self.states: list[list[str]] = []  # per case statement of the module: its identifier labels

    # -- spans
    def span(self, n) -> tuple[int, int] | None:
        """Byte span of ``n`` when it stands as written in this file (not from a macro or an include)."""
        r = n.sourceRange
        if r.start.buffer != r.end.buffer or self.f.sm.isMacroLoc(r.start) or self.f.sm.isMacroLoc(r.end):
            return None
        if self.f.sm.getFileName(r.start) != self.f.name:
            return None
        s, e = r.start.offset, r.end.offset
        return (s, e) if 0 <= s < e <= len(self.f.data) else None

    def text(self, s: int, e: int) -> str:
        return self.f.data[s:e].decode(errors="replace")

    def add(self, operator: str, n, replacement: str, note: str) -> None:
        sp = self.span(n)
        if sp is None:
            return
        s, e = sp
        original = self.text(s, e)
        if not original.strip() or replacement == original:
            return
        line = self.f.data.count(b"\n", 0, s) + 1
        self.found.append(Mutant("", operator, self.f.name, line, s, e, original, replacement, note))

    # -- module items
    def module(self, module) -> None:
        self.states = [labels for case in _nodes_all(module, "CaseStatement")
                       if len(labels := _identifier_labels(case)) >= 2]
        self.members(module.members)

    def members(self, members) -> None:
        for m in members or []:
            k = _kind(m)
            if k == "ContinuousAssign":
                for a in m.assignments:
                    if _kind(a) == "AssignmentExpression":
                        self.assignment(a)
            elif k in _ALWAYS:
                self.statement(m.statement)
            elif k in ("GenerateRegion", "GenerateBlock"):
                self.members(m.members)
            elif k == "LoopGenerate":
                self.generate_body(m.block)
            elif k == "IfGenerate":
                self.generate_body(m.block)
                if m.elseClause is not None:
                    self.generate_body(m.elseClause.clause)
            elif k == "CaseGenerate":
                for item in m.items:
                    self.generate_body(getattr(item, "clause", None))

    def generate_body(self, n) -> None:
        k = _kind(n)
        if k in ("GenerateBlock", "GenerateRegion"):
            self.members(n.members)
        elif k == "IfGenerate" or k == "LoopGenerate" or k == "CaseGenerate":
            self.members([n])
        elif k == "ContinuousAssign" or k in _ALWAYS:
            self.members([n])

    # -- statements
    def statement(self, n) -> None:
        k = _kind(n)
        if k in ("SequentialBlockStatement", "ParallelBlockStatement"):
            for item in n.items:
                self.statement(item)
        elif k == "ConditionalStatement":
            for cond in n.predicate.conditions:
                if getattr(cond, "matchesClause", None) is None:
                    self.condition(cond.expr)
            self.statement(n.statement)
            if n.elseClause is not None:
                self.statement(n.elseClause.clause)
        elif k == "CaseStatement":
            self.case(n)
        elif k == "ExpressionStatement":
            if _kind(n.expr) in _ASSIGNS:
                self.assignment(n.expr)
        elif k == "TimingControlStatement" or k in _LOOPS:
            self.statement(n.statement)

    def case(self, n) -> None:
        items = [it for it in n.items if _kind(it) == "StandardCaseItem"]
        labels = [[e for e in it.expressions if not _is_token(e)] for it in items]
        firsts = [ls[0] for ls in labels if ls]
        if len(firsts) == len(items) >= 2:
            for i, ls in enumerate(labels):
                other = firsts[(i + 1) % len(firsts)]
                sp = self.span(other)
                if sp is None:
                    continue
                for e in ls:
                    self.add("case_label", e, self.text(*sp),
                             f"case item {str(e).strip()!r} takes the label of the next item ({self.text(*sp)!r})")
        for it in n.items:
            self.statement(getattr(it, "clause", None))

    def assignment(self, a) -> None:
        rhs = a.right
        sp = self.span(rhs)
        if sp is None:
            return
        k = _kind(rhs)
        if k not in ("IntegerVectorExpression", "IntegerLiteralExpression", "UnbasedUnsizedLiteralExpression"):
            self.add("stuck", rhs, "'0", "right-hand side stuck at 0")
            self.add("stuck", rhs, "'1", "right-hand side stuck at all ones")
        if k == "IdentifierName":
            name = self.text(*sp)
            for labels in self.states:
                if name in labels and len(set(labels)) > 1:
                    nxt = labels[(labels.index(name) + 1) % len(labels)]
                    if nxt == name:
                        continue
                    self.add("fsm_next", rhs, nxt, f"next state {name} becomes {nxt}")
                    break
        self.expr(rhs)

    def condition(self, e) -> None:
        """An ``if`` or ``?:`` condition: negated, each term dropped, and its own expressions mutated."""
        sp = self.span(e)
        if sp is None:
            return
        self.add("negate", e, f"!({self.text(*sp)})", "condition negated")
        self.terms(_strip_parens(e))
        self.expr(e)

    def terms(self, e) -> None:
        if _kind(e) not in _TERMS:
            return
        for keep, drop in ((e.left, e.right), (e.right, e.left)):
            ks, ds = self.span(keep), self.span(drop)
            if ks is not None and ds is not None:
                self.add("drop_term", e, f"({self.text(*ks)})", f"term {self.text(*ds)!r} dropped")
        self.terms(_strip_parens(e.left))
        self.terms(_strip_parens(e.right))

    # -- expressions
    def expr(self, n) -> None:
        k = _kind(n)
        if not k or _is_token(n):
            return
        if k in _SWAPS:
            op, new = _SWAPS[k]
            tok = n.operatorToken
            sp = self.span(n)
            old = tok.rawText.encode()
            at = tok.location.offset
            if sp is not None and sp[0] <= at and at + len(old) <= sp[1] and self.f.data[at:at + len(old)] == old:
                replacement = (self.f.data[sp[0]:at] + new.encode() + self.f.data[at + len(old):sp[1]]).decode(
                    errors="replace")
                self.add(op, n, replacement, f"{tok.rawText} becomes {new}")
            self.expr(n.left)
            self.expr(n.right)
        elif k in _REDUCTIONS:
            sp, osp = self.span(n), self.span(n.operand)
            if sp is not None and osp is not None:
                self.add("bitwise", n, f"{_REDUCTIONS[k]}{self.text(*osp)}", f"reduction {n.operatorToken.rawText} "
                         f"becomes {_REDUCTIONS[k]}")
            self.expr(n.operand)
        elif k in _NOTS:
            osp = self.span(n.operand)
            if osp is not None:
                self.add("drop_not", n, f"({self.text(*osp)})", f"{n.operatorToken.rawText} dropped")
            self.expr(n.operand)
        elif k == "ConditionalExpression":
            for cond in n.predicate.conditions:
                if getattr(cond, "matchesClause", None) is None:
                    self.condition(cond.expr)
            self.expr(n.left)
            self.expr(n.right)
        elif k == "ParenthesizedExpression":
            self.expr(n.expression)
        elif k == "ConcatenationExpression":
            self.concat(n)
            for e in n.expressions:
                self.expr(e)
        elif k == "MultipleConcatenationExpression":
            self.expr(n.concatenation)  # never the replication count
        elif k in ("UnaryMinusExpression", "UnaryPlusExpression"):
            self.expr(n.operand)
        elif k == "IntegerVectorExpression":
            self.vector(n)
        elif k == "IntegerLiteralExpression":
            self.integer(n)
        elif k == "UnbasedUnsizedLiteralExpression":
            raw = n.literal.rawText.strip()
            flip = {"'0": "'1", "'1": "'0"}.get(raw)
            if flip:
                self.add("const_flip", n, flip, f"{raw} becomes {flip}")

    def concat(self, n) -> None:
        """Two neighbouring elements of a concatenation swap places (the total width stays)."""
        sp = self.span(n)
        elems = [e for e in n.expressions if not _is_token(e)]
        spans = [self.span(e) for e in elems]
        if sp is None or len(elems) < 2 or any(x is None for x in spans):
            return
        for i in range(min(len(elems) - 1, MAX_CONCAT_SWAPS)):
            (a0, a1), (b0, b1) = spans[i], spans[i + 1]
            d = self.f.data
            text = (d[sp[0]:a0] + d[b0:b1] + d[a1:b0] + d[a0:a1] + d[b1:sp[1]]).decode(errors="replace")
            if d[a0:a1] != d[b0:b1]:
                self.add("concat_swap", n, text, f"{self.text(a0, a1)!r} and {self.text(b0, b1)!r} swap places")

    def integer(self, n) -> None:
        raw = n.literal.rawText.strip()
        digits = raw.replace("_", "")
        if not digits.isdigit():
            return
        v = int(digits)
        self.add("const_inc", n, str(v + 1), f"{raw} becomes {v + 1}")
        if v > 0:
            self.add("const_dec", n, str(v - 1), f"{raw} becomes {v - 1}")

    def vector(self, n) -> None:
        size_tok, base_tok, value_tok = n.size, n.base, n.value
        if base_tok is None or value_tok is None:
            return
        base = base_tok.rawText.strip()  # 'b, 'sh, 'D, ...
        letter = base[-1:].lower()
        radix = _BASES.get(letter)
        digits = value_tok.rawText.strip().replace("_", "")
        size_txt = size_tok.rawText.strip() if size_tok is not None else ""
        if radix is None or not digits:
            return
        try:
            v = int(digits, radix)
            width = int(size_txt) if size_txt else 32
        except ValueError:  # x, z or ? digits, or an odd size
            return
        if not 0 < width <= MAX_LITERAL_BITS:
            return
        mask = (1 << width) - 1
        upper = any(c.isupper() for c in digits)

        def render(x: int) -> str:
            if radix == 10:
                body = str(x)
            else:  # as many digits as the original, at least
                body = format(x, {2: "b", 8: "o", 16: "x"}[radix]).zfill(len(digits))
                body = body.upper() if upper else body
            return f"{size_txt}{base}{body}"

        orig = f"{size_txt}{base}{value_tok.rawText.strip()}"
        if width == 1:
            self.add("const_flip", n, render(v ^ 1), f"{orig} becomes {render(v ^ 1)}")
            return
        inc, dec = (v + 1) & mask, (v - 1) & mask
        self.add("const_inc", n, render(inc), f"{orig} becomes {render(inc)}")
        if dec != inc:
            self.add("const_dec", n, render(dec), f"{orig} becomes {render(dec)}")
        flip = v ^ (1 << (width - 1))
        if flip not in (inc, dec):
            self.add("const_flip", n, render(flip), f"{orig}: top bit flipped ({render(flip)})")


def _strip_parens(e):
    while _kind(e) == "ParenthesizedExpression":
        e = e.expression
    return e


def _nodes_all(root, kind: str) -> list:
    """Every node of ``kind`` under ``root``, nested ones included."""
    out, stack = [], [root]
    while stack:
        n = stack.pop()
        if n is None or _is_token(n):
            continue
        if _kind(n) == kind:
            out.append(n)
        stack.extend(c for c in n if c is not None)
    return out


def _identifier_labels(case) -> list[str]:
    """The plain identifier labels of a case statement's items, in order (its states, for an FSM)."""
    out: list[str] = []
    for it in case.items:
        if _kind(it) != "StandardCaseItem":
            continue
        for e in it.expressions:
            if _kind(e) == "IdentifierName":
                name = str(e).strip()
                if name not in out:
                    out.append(name)
    return out


__all__ = ["OPERATORS", "candidates"]
