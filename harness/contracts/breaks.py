"""How a contract's rule is broken, from a probe of the reference run: the monitor self-test's generator
(issue 30; ecov.harness.contracts.selftest builds and runs what this module plans).

Pure: a ``Trace`` (the ports at every rising edge of the rule clocks and at every change, from the probe
run) and a rule's ``breaks`` description in, the list of ``Break`` s (which DUT input to force to which
value over which time window, and by when the monitor must have named the rule) out.

Kinds (``breaks.kind``), with their fields (``clock``: the sampling clock; ``active``: when the rule applies,
an expression, default ``True``):

- ``pulse`` (``ports``): a 1-bit strobe high at two rising edges in a row; offsets time0 (high from time 0
  through the first two active edges), first (the first two active edges), back_to_back and last (a pulse of
  the reference stretched by one edge);
- ``min_hold`` (``ports``, ``edges``): a new value sampled fewer than ``edges`` edges after the previous
  change; offsets first, early (one edge after), last;
- ``min_hold_ns`` (``ports``, ``ns``): a new value less than ``ns`` after the previous change, time 0 counting
  as a setting; offsets time0, early (half the hold after time 0), first, last;
- ``stable`` (``ports``, ``start``, ``until``, ``inclusive``, ``when``): after an edge where ``start`` holds,
  the ports keep their value at every following edge up to the first edge where ``until`` holds (that edge
  too when ``inclusive``; ``when`` narrows the protected edges); offsets first, last, mid, back_to_back (the
  first edge of a transaction that starts at the edge the previous one ended: one of the reference's, or
  one started by forcing ``kick`` (port -> value) at that edge, or the edge after it with ``kick_at: after``);
- ``forbid`` (``set``: port -> value or expression, ``when``): the ports take those values at an edge where
  ``when`` holds. ``state`` (name -> [initial, update]) mirrors what the rule needs from the ports edge by
  edge (a pending request, an allocated set), cleared at inactive edges and, with ``async_reset`` ({port,
  active}), by a reset pulse between edges; ``during`` ({start, until, inclusive}) limits ``when`` to the
  protected edges of a ``stable`` transaction; offsets time0, first, mid, last;
- ``value_any`` (``set``): the ports take those values at any time (combinational rules, checked on every
  change); offsets time0, first, mid, last (just after a change of the reference);
- ``edge_step`` (``ports``): a port changes in the time step of a rising edge of ``clock``; offsets first,
  mid, last;
- ``clock_high`` (``ports``): a port changes while ``clock`` is high, a quarter period after its rising edge;
  offsets first, mid, last;
- ``two_changes`` (``ports``): a port changes twice between two rising edges; offsets first, mid, last.

``skip`` (offset -> why) records an offset that does not apply to a rule (e.g. time 0 of a transaction rule,
whose transactions start after reset).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

DELTA_PS = 1000  # a forced change lands 1 ns after the edge before the one that samples it
MARK = "ECOV-ST"  # what the probe, the breakers and the self-test prelude print


class BreaksError(ValueError):
    """A ``breaks`` description that cannot be read (an unknown kind)."""


# ---------------------------------------------------------------------------------------------- the trace


@dataclass
class Edge:
    index: int
    time: int  # ps
    values: dict[str, int]


@dataclass
class Trace:
    edges: dict[str, list[Edge]] = field(default_factory=dict)  # clock -> rising edges
    changes: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # port -> (time ps, value)
    violations: list[tuple[str, int, str]] = field(default_factory=list)  # (rule, time ps, monitor path)
    forced: list[tuple[str, int]] = field(default_factory=list)

    @property
    def end(self) -> int:
        times = [e[-1].time for e in self.edges.values() if e] + [c[-1][0] for c in self.changes.values() if c]
        return max(times, default=0)


def parse_output(text: str, ports: list[str]) -> Trace:
    tr = Trace()
    for line in text.splitlines():
        if not line.startswith(MARK + " "):
            continue
        f = line.split()
        kind = f[1]
        if kind == "E":
            vals = {p: _hex(v) for p, v in zip(ports, f[5:], strict=False)}
            tr.edges.setdefault(f[2], []).append(Edge(int(f[3]), int(f[4]), vals))
        elif kind == "C":
            tr.changes.setdefault(ports[int(f[2])], []).append((int(f[3]), _hex(f[4])))
        elif kind == "V":
            tr.violations.append((f[2], int(f[3]), f[4] if len(f) > 4 else ""))
        elif kind == "B":
            tr.forced.append((f[2], int(f[3])))
    return tr


def _hex(s: str) -> int:
    try:
        return int(s, 16)
    except ValueError:  # x/z bits (a 4-state simulator); Verilator is two-state
        return int(re.sub(r"[^0-9a-fA-F]", "0", s), 16)


# ---------------------------------------------------------------------------------------------- the breaks


@dataclass
class Break:
    rule: str
    offset: str
    forces: list[tuple[str, int, int, int]]  # (port, on ps, off ps, value)
    by: int  # ps: the monitor must have reported the rule by then
    note: str = ""


HELPERS = {"onehot": lambda v: v != 0 and v & (v - 1) == 0, "lowzero": lambda v: (~v & (v + 1)).bit_length() - 1,
           "popcount": lambda v: bin(v).count("1"), "bit": lambda v, i: (v >> i) & 1, "int": int, "bool": bool}


def _value(expr: Any, env: dict[str, Any]) -> Any:
    if not isinstance(expr, str):
        return expr
    return eval(expr, {"__builtins__": {}, **HELPERS}, env)  # noqa: S307 - the contract's own spec text


def _eval(expr: str | None, values: dict[str, int], extra: dict[str, Any] | None = None) -> bool:
    if expr is None or expr == "":
        return True
    return bool(_value(expr, {**values, **(extra or {})}))


def _active(spec: dict, edges: list[Edge]) -> list[bool]:
    return [_eval(spec.get("active"), e.values) for e in edges]


def _pulsed(trace: Trace, edges: list[Edge], reset: dict | None) -> set[int]:
    """Edges k such that an asynchronous reset (``async_reset``: {port, active}) was asserted after edge k-1
    and up to edge k: the state it clears is clear at k, though the sampled values never show it."""
    if not reset:
        return set()
    times = [t for t, v in trace.changes.get(reset["port"], []) if v == int(reset.get("active", 0))]
    return {k for k in range(1, len(edges)) if any(edges[k - 1].time < t <= edges[k].time for t in times)}


def _states(spec: dict, edges: list[Edge], act: list[bool], pulsed: set[int] = frozenset()) -> list[dict[str, Any]]:
    """Per edge, the spec's ``state`` variables as they stand before that edge (``state``: name -> [initial,
    update]; every update is evaluated at an active edge on the sampled ports and the previous state, all at
    once like nonblocking assignments; an inactive edge (reset) puts them back to their initial values, and
    so does an asynchronous reset pulse between two edges)."""
    decl = spec.get("state") or {}
    cur = {n: _value(init, {}) for n, (init, _) in decl.items()}
    out = []
    for k, (e, a) in enumerate(zip(edges, act, strict=True)):
        if k in pulsed:
            cur = {n: _value(init, {}) for n, (init, _) in decl.items()}
        out.append(dict(cur))
        if not a:
            cur = {n: _value(init, {}) for n, (init, _) in decl.items()}
        else:
            env = {**e.values, **cur}
            cur = {n: _value(upd, env) for n, (_, upd) in decl.items()}
    return out


def _flip(value: int, width: int) -> int:
    return value ^ 1 if width >= 1 else value


def _force_at_edge(port: str, edges: list[Edge], k: int, value: int, through: int | None = None) -> tuple:
    """Force ``port`` to ``value`` so that edge k (through edge ``through``) samples it: from 1 ns after
    edge k-1 to 1 ns after the last edge."""
    on = edges[k - 1].time + DELTA_PS if k > 0 else 0
    last = min(through if through is not None else k, len(edges) - 1)
    return (port, on, edges[last].time + DELTA_PS, value)


def transactions(spec: dict, edges: list[Edge], act: list[bool]) -> list[tuple[int, list[int]]]:
    """(start edge, protected edges) of every transaction of a ``stable``-like spec."""
    out = []
    k, n = 0, len(edges)
    while k < n:
        if act[k] and _eval(spec["start"], edges[k].values):
            prot = []
            j = k + 1
            while j < n and act[j]:
                ended = _eval(spec.get("until"), edges[j].values)
                if ended and not spec.get("inclusive"):
                    break
                prot.append(j)
                if ended:
                    break
                j += 1
            if prot:
                out.append((k, prot))
            k = max(k + 1, prot[-1] if prot and not spec.get("inclusive") else k + 1)
        else:
            k += 1
    return out


def _pick(items: list, offsets: tuple[str, ...]) -> dict[str, Any]:
    if not items:
        return {}
    out = {"first": items[0], "last": items[-1]}
    if len(items) > 2:
        out["mid"] = items[len(items) // 2]
    return {k: v for k, v in out.items() if k in offsets}


def generate(rule: str, specs: dict | list, trace: Trace, widths: dict[str, int]) -> tuple[list[Break], dict[str, str]]:
    """The breaks of one rule (``breaks``: one description or a list) and the offsets that could not be
    placed (offset -> why)."""
    breaks, skipped = [], {}
    for spec in specs if isinstance(specs, list) else [specs]:
        kind = spec.get("kind")
        gen = _KINDS.get(kind)
        if gen is None:
            raise BreaksError(f"rule {rule}: unknown breaks kind {kind!r}")
        got, missing = gen(rule, spec, trace, widths)
        breaks += got
        for off, why in {**(spec.get("skip") or {}), **missing}.items():
            skipped.setdefault(f"{kind}:{off}", why)
    return breaks, skipped


def _edges(spec: dict, trace: Trace) -> tuple[list[Edge], list[bool]]:
    edges = trace.edges.get(spec["clock"], [])
    return edges, _active(spec, edges)


def _gen_pulse(rule, spec, trace, widths):
    edges, act = _edges(spec, trace)
    out, missing = [], {}
    first = next((k for k in range(1, len(edges) - 1) if act[k] and act[k + 1]), None)
    for port in spec["ports"]:
        if first is None:
            missing["first"] = "no two active edges in a row"
            continue
        out.append(Break(rule, "first", [_force_at_edge(port, edges, first, 1, first + 1)], edges[first + 1].time))
        out.append(Break(rule, "time0", [(port, 0, edges[first + 1].time + DELTA_PS, 1)], edges[first + 1].time))
        pulses = [k for k in range(first, len(edges) - 2)
                  if act[k] and act[k + 1] and edges[k].values[port] and not edges[k + 1].values[port]]
        for off, k in _pick(pulses, ("first", "last")).items():
            label = "back_to_back" if off == "first" else "last"
            out.append(Break(rule, label, [_force_at_edge(port, edges, k + 1, 1)], edges[k + 1].time,
                             f"the reference's pulse at edge {k} stretched"))
        if not pulses:
            missing["back_to_back"] = missing["last"] = "the reference drives no pulse to stretch"
    return out, missing


def _changes_at_edges(port: str, edges: list[Edge], act: list[bool]) -> list[int]:
    return [k for k in range(1, len(edges)) if act[k] and act[k - 1] and edges[k].values[port] != edges[k - 1].values[port]]


def _gen_min_hold(rule, spec, trace, widths):
    edges, act = _edges(spec, trace)
    n = int(spec["edges"])
    out, missing = [], {}
    for port in spec["ports"]:
        ch = [k for k in _changes_at_edges(port, edges, act) if k + n + 1 < len(edges) and all(act[k:k + n + 1])
              and all(_eval(spec.get("when"), edges[j].values) for j in range(k - 1, k + n + 1))]
        if not ch:
            missing.update(first="the reference never changes the port while active", last="idem", early="idem")
            continue
        for off, c in _pick(ch, ("first", "last")).items():
            k = c + n - 1
            out.append(Break(rule, off, [_force_at_edge(port, edges, k, _flip(edges[k].values[port], widths.get(port, 1)),
                                                        k + n)], edges[k].time, f"{n - 1} edge(s) after the change at edge {c}"))
        if n > 2:
            c = ch[0]
            out.append(Break(rule, "early", [_force_at_edge(port, edges, c + 1, _flip(edges[c + 1].values[port], 1),
                                                            c + 1 + n)], edges[c + 1].time, "1 edge after a change"))
    return out, missing


def _settled_changes(trace: Trace, port: str) -> list[tuple[int, int]]:
    """The port's value changes, one per time step (the value it settles on), from its initial value 0
    (Verilator's, with ``+verilator+rand+reset+0``); a step that ends on the value before is no change."""
    steps: list[tuple[int, int]] = []
    for t, v in trace.changes.get(port, []):
        if steps and steps[-1][0] == t:
            steps[-1] = (t, v)
        else:
            steps.append((t, v))
    out, last = [], 0
    for t, v in steps:
        if v != last:
            out.append((t, v))
            last = v
    return out


def _gen_min_hold_ns(rule, spec, trace, widths):
    gap = int(round(float(spec["ns"]) * 1000))
    out, missing = [], {}
    for port in spec["ports"]:
        ch = [(t, v) for t, v in _settled_changes(trace, port)]
        if not ch:
            missing.update(first="the reference never changes the port", last="idem")
            continue
        for off, (t, v) in _pick(ch, ("first", "last")).items():
            at = t + gap - 1
            out.append(Break(rule, off, [(port, at, at + 2 * gap, _flip(v, widths.get(port, 1)))], at,
                             f"{gap - 1} ps after the change at {t} ps"))
        v0 = ch[0][1] if ch[0][0] == 0 else 0
        out.append(Break(rule, "time0", [(port, 0, gap - 1, _flip(v0, widths.get(port, 1)))], gap - 1,
                         "a value from time 0, replaced before the hold ends"))
        out.append(Break(rule, "early", [(port, gap // 2, 3 * gap, _flip(v0, widths.get(port, 1)))], gap // 2,
                         "the first new value, half the hold after time 0 (time 0 holds the first setting)"))
    return out, missing


def _gen_stable(rule, spec, trace, widths):
    edges, act = _edges(spec, trace)
    txs = [(s, [k for k in p if k < len(edges) - 1 and _eval(spec.get("when"), edges[k].values)])
           for s, p in transactions(spec, edges, act)]
    txs = [(s, p) for s, p in txs if p]
    out, missing = [], {}
    if not txs:
        return [], {o: "no transaction in the reference" for o in ("first", "last", "mid", "back_to_back")}
    for port in spec["ports"]:
        w = widths.get(port, 1)
        s, prot = txs[0]
        out.append(Break(rule, "first", [_force_at_edge(port, edges, prot[0], _flip(edges[prot[0]].values[port], w))],
                         edges[prot[0]].time, f"first edge of the transaction started at edge {s}"))
        longer = next(((s, p) for s, p in txs if len(p) >= 2), None)
        if longer is None:
            missing["last"] = missing["mid"] = "every transaction of the reference lasts one edge"
        else:
            s, prot = longer
            k = prot[-1]
            out.append(Break(rule, "last", [_force_at_edge(port, edges, k, _flip(edges[k].values[port], w))],
                             edges[k].time, f"last edge of the transaction started at edge {s}"))
            if len(prot) >= 3:
                k = prot[len(prot) // 2]
                out.append(Break(rule, "mid", [_force_at_edge(port, edges, k, _flip(edges[k].values[port], w))],
                                 edges[k].time, f"edge {k} of the transaction started at edge {s}"))
        b2b = next((p for (s0, p0), (s, p) in zip(txs, txs[1:], strict=False) if s <= p0[-1] + 1), None)
        kicked = _kick(spec, edges, act, txs)
        if b2b is not None:
            k = b2b[0]
            out.append(Break(rule, "back_to_back", [_force_at_edge(port, edges, k, _flip(edges[k].values[port], w))],
                             edges[k].time, "first edge of a transaction started as the previous one ended"))
        elif kicked is not None:
            ke, kick = kicked
            k = ke + 1
            out.append(Break(rule, "back_to_back", [*kick, _force_at_edge(port, edges, k, _flip(edges[k].values[port], w))],
                             edges[k].time, f"first edge of a transaction started ({spec['kick']}) at edge {ke}, as "
                                            "the previous one ended"))
        else:
            missing["back_to_back"] = "the reference runs no transactions back to back (and the spec gives no kick)"
    return out, missing


def _kick(spec: dict, edges: list[Edge], act: list[bool], txs: list) -> tuple[int, list[tuple]] | None:
    """A transaction started by forcing ``kick`` (port -> value) at the edge that ends one of the reference
    (``kick_at: end``) or the edge after it (``after``): (that edge, its forces), or None."""
    if not spec.get("kick"):
        return None
    for _s, prot in txs:
        end = prot[-1] + (0 if spec.get("inclusive") else 1)
        ke = end + (1 if spec.get("kick_at") == "after" else 0)
        if ke + 1 < len(edges) and all(act[end:ke + 2]):
            return ke, [_force_at_edge(p, edges, ke, int(v)) for p, v in spec["kick"].items()]
    return None


def _gen_forbid(rule, spec, trace, widths):
    edges, act = _edges(spec, trace)
    states = _states(spec, edges, act, _pulsed(trace, edges, spec.get("async_reset")))
    during = spec.get("during")
    inside = set()
    if during:
        for _s, prot in transactions(during, edges, act):
            inside.update(prot)
    env = [{**e.values, **st} for e, st in zip(edges, states, strict=True)]
    where = [k for k in range(1, len(edges) - 1)  # not the last edge: the run may end in its time step
             if act[k] and (k in inside if during else True) and _eval(spec.get("when"), env[k])
             and any(edges[k].values.get(p) != v for p, v in _setting(spec, env[k]).items())]
    out = []
    if not where:
        return [], {o: "no edge where the setting is forbidden" for o in ("time0", "first", "mid", "last")}
    for off, k in _pick(where, ("first", "mid", "last")).items():
        out.append(Break(rule, off, [_force_at_edge(p, edges, k, v) for p, v in _setting(spec, env[k]).items()],
                         edges[k].time, f"edge {k}"))
    k = where[0]
    if "time0" not in (spec.get("skip") or {}):
        out.append(Break(rule, "time0", [(p, 0, edges[k].time + DELTA_PS, v) for p, v in _setting(spec, env[k]).items()],
                         edges[k].time, f"from time 0 through edge {k}"))
    return out, {}


def _setting(spec: dict, env: dict[str, Any]) -> dict[str, int]:
    """port -> forced value; a value may be an expression over the sampled ports and the state."""
    return {p: int(_value(v, dict(env))) for p, v in spec["set"].items()}


def _gen_value_any(rule, spec, trace, widths):
    out = []
    ports = list(spec["set"])
    times = sorted({t for p in ports for t, _ in _settled_changes(trace, p) if t > 0})
    setting = _setting(spec, {})
    end = trace.end
    out.append(Break(rule, "time0", [(p, 0, min(end, 5000), v) for p, v in setting.items()], 0,
                     "from time 0"))
    for off, t in _pick(times, ("first", "mid", "last")).items():
        out.append(Break(rule, off, [(p, t + 1, t + 2, v) for p, v in setting.items()], t + 1,
                         f"1 ps after the reference's change at {t} ps"))
    return out, ({} if times else {"first": "the reference never changes the ports", "mid": "idem", "last": "idem"})


def _gen_timing(rule, spec, trace, widths, where: str):
    edges, act = _edges(spec, trace)
    ks = [k for k in range(1, len(edges) - 1) if act[k] and act[k - 1] and act[k + 1]]
    out = []
    if not ks:
        return [], {o: "no active edge" for o in ("first", "mid", "last")}
    for port in spec["ports"]:
        w = widths.get(port, 1)
        for off, k in _pick(ks, ("first", "mid", "last")).items():
            t, period = edges[k].time, edges[k + 1].time - edges[k].time
            v = _flip(edges[k].values[port], w)
            if where == "edge_step":  # in the rising edge's own time step, held for a whole period
                out.append(Break(rule, off, [(port, t, t + period, v)], t, f"at the time of edge {k}"))
            elif where == "clock_high":
                at = t + period // 4
                out.append(Break(rule, off, [(port, at, t + period, v)], t + period // 2,
                                 f"a quarter period after edge {k}"))
            else:  # two changes between edges k and k+1
                a, b = t + period // 4, t + period // 2
                out.append(Break(rule, off, [(port, a, b, v)], edges[k + 1].time, f"twice between edges {k} and {k + 1}"))
    return out, {}


_KINDS = {
    "pulse": _gen_pulse,
    "min_hold": _gen_min_hold,
    "min_hold_ns": _gen_min_hold_ns,
    "stable": _gen_stable,
    "forbid": _gen_forbid,
    "value_any": _gen_value_any,
    "edge_step": lambda *a: _gen_timing(*a, where="edge_step"),
    "clock_high": lambda *a: _gen_timing(*a, where="clock_high"),
    "two_changes": lambda *a: _gen_timing(*a, where="two_changes"),
}


__all__ = ["Break", "BreaksError", "DELTA_PS", "Edge", "Trace", "generate", "parse_output", "transactions"]
