"""The cocotb track's test rules, checked on the Python AST before anything runs: fast, clear feedback.

A cocotb testbench runs inside the simulator process and could do anything Python can, memory included
(issue 30: a string annotation evaluated by ``typing.get_type_hints`` reached ``exec`` and
``marshal.loads``). So these rules, like the runtime audit hook (ecov.harness.tracks.cocotb.guard), are
feedback, not the wall: they tell an honest testbench early, with a reason, what it may not do. What
holds against a testbench that gets past them: the sandbox (bwrap or docker: nobody, no network,
read-only everything but its folder), VPI that sees only the DUT's ports (ecov.harness.tracks.cocotb.build),
and the trusted replay, which computes every figure in a DUT-only run where no testbench code executes,
from a trace of the DUT's inputs (a forged trace is just stimulus). The rules:

- imports only from an allow-list (cocotb's public modules and pure standard-library modules);
- no modules reached as attributes of allowed ones (``logging.os``), no ``__del__`` finalizers;
- no file, process, introspection or dynamic-code builtins (open, eval, exec, compile, __import__,
  globals, vars, getattr/setattr with computed names, ...);
- no dunder attributes (``__class__``, ``__globals__``, ...), no frame/code attributes, no private
  attributes of anything but ``self``/``cls`` (cocotb's ``_id``, ``_handle``, ...);
- no writes below the DUT's ports (``dut.u_sub.x.value = ...``: the cocotb form of a hierarchical
  write), no Force/Freeze/Release (the cocotb form of force/release);
- no code hidden in strings the standard library evaluates or interprets: string annotations
  (``typing.get_type_hints`` evaluates them), ``Formatter``/``str.format`` fields that reach attributes.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from ecov.harness.tracks.cocotb import TB_FILE

ALLOWED_MODULES = frozenset({
    "cocotb", "cocotb.triggers", "cocotb.clock", "cocotb.types", "cocotb.handle", "cocotb.queue",
    "cocotb.utils", "cocotb.result", "cocotb.task", "cocotb.logging", "cocotb.simtime",
    "random", "math", "cmath", "itertools", "collections", "collections.abc", "dataclasses", "enum",
    "typing", "functools", "operator", "statistics", "fractions", "decimal", "numbers", "heapq", "bisect",
    "string", "re", "abc", "textwrap", "struct", "binascii", "zlib", "array", "copy", "logging",
    "__future__",
})
FORBIDDEN_NAMES = {
    "open": "file access", "eval": "dynamic code", "exec": "dynamic code", "compile": "dynamic code",
    "__import__": "dynamic imports", "globals": "introspection", "locals": "introspection",
    "vars": "introspection", "dir": "introspection", "delattr": "introspection", "input": "console input",
    "breakpoint": "the debugger", "memoryview": "raw memory", "help": "introspection", "exit": "ending the process",
    "quit": "ending the process",
}
ATTR_BUILTINS = ("getattr", "setattr", "hasattr")  # called directly, with a literal public attribute name
READ_ATTR_BUILTINS = ("getattr", "hasattr")  # ... or on the DUT with any name: getattr(dut, port)
DUT_PRIVATE_OK = ("_log",)  # cocotb's logger of a handle: ``dut._log.info(...)``
FORBIDDEN_ATTRS = {
    "simulator": "cocotb's raw simulator interface", "gi_frame": "frames", "gi_code": "code objects",
    "cr_frame": "frames", "cr_code": "code objects", "ag_frame": "frames", "ag_code": "code objects",
    "f_globals": "frames", "f_locals": "frames", "f_back": "frames", "f_builtins": "frames", "f_code": "frames",
    "tb_frame": "frames", "tb_next": "frames", "co_code": "code objects", "func_globals": "introspection",
    "mro": "introspection", "FileHandler": "file access", "RotatingFileHandler": "file access",
    # Attribute access by computed name, in other spellings than getattr/setattr.
    "attrgetter": "attribute access by computed name", "methodcaller": "attribute access by computed name",
    "__getattribute__": "introspection",
    # Code in strings: annotations evaluated on request, format fields that read attributes.
    "get_type_hints": "evaluating annotation strings (dynamic code)", "Formatter": "format fields that reach attributes",
    "get_field": "format fields that reach attributes", "vformat": "format fields that reach attributes",
    "format_map": "format fields that reach attributes",
    # Modules an allowed module imported (``logging.os``, ``logging.threading``): the back door to them.
    **{m: "a module the testbench may not import" for m in (
        "os", "sys", "threading", "builtins", "io", "subprocess", "importlib", "atexit", "gc", "inspect",
        "signal", "posix", "socket", "ctypes", "pathlib", "shutil", "tempfile")},
}
FORCE_NAMES = ("Force", "Freeze", "Release")
ALLOWED_DUNDERS = {"__init__", "__name__", "__post_init__"}
SELF_NAMES = ("self", "cls")


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"rule '{self.rule}' ({TB_FILE} line {self.line}): {self.message}"


@dataclass
class PolicyCheck:
    syntax_error: str = ""
    violations: list[Violation] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)  # names of the @cocotb.test() functions

    @property
    def ok(self) -> bool:
        return not self.syntax_error and not self.violations and bool(self.tests)


def _is_test_decorator(dec: ast.expr) -> bool:
    node = dec.func if isinstance(dec, ast.Call) else dec
    return (isinstance(node, ast.Attribute) and node.attr in ("test", "parametrize")
            and isinstance(node.value, ast.Name) and node.value.id == "cocotb") or (
        isinstance(node, ast.Name) and node.id == "test")


def _chain(node: ast.expr) -> list[str] | None:
    """``dut.u_sub.x`` -> ["dut", "u_sub", "x"]; None when the chain does not start at a plain name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Subscript):  # dut.mem[3].value: keep walking through the index
        return _chain(node.value)
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return list(reversed(parts))


def _annotations(node: ast.AST) -> list[ast.expr]:
    """The annotation expressions ``node`` carries itself (arguments, return, annotated assignment)."""
    if isinstance(node, ast.arg):
        return [node.annotation] if node.annotation is not None else []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [node.returns] if node.returns is not None else []
    if isinstance(node, ast.AnnAssign):
        return [node.annotation]
    return []


_FORMAT_FIELD = re.compile(r"(?<!\{)\{[^{}!:]*[.\[]")


def _reaches_attributes(fmt: ast.expr) -> bool:
    """A ``.format`` receiver that is not a literal, or a literal with a field that indexes or reads an
    attribute (``{0.__class__}``, ``{x[k]}``)."""
    if not (isinstance(fmt, ast.Constant) and isinstance(fmt.value, str)):
        return True
    return bool(_FORMAT_FIELD.search(fmt.value))


def check_python_testbench(source: str) -> PolicyCheck:
    """Parse and check a testbench; ``syntax_error`` set means it did not parse (a compile error)."""
    try:
        tree = ast.parse(source, filename=TB_FILE)
    except SyntaxError as e:
        where = f"{TB_FILE}:{e.lineno}:{e.offset or 0}"
        text = (e.text or "").rstrip()
        return PolicyCheck(syntax_error=f"{where}: SyntaxError: {e.msg}" + (f"\n    {text}" if text else ""))
    except (ValueError, RecursionError) as e:
        return PolicyCheck(syntax_error=f"{TB_FILE}: cannot be parsed: {e}")
    out = PolicyCheck()
    dut_names = {"dut"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _is_test_decorator(d) for d in node.decorator_list):
            out.tests.append(node.name)
            if node.args.args:
                dut_names.add(node.args.args[0].arg)

    def add(rule: str, node: ast.AST, message: str) -> None:
        out.violations.append(Violation(rule, getattr(node, "lineno", 0), message))

    # A computed getattr is allowed on the DUT only: a name bound nowhere but as a test's first parameter
    # (a helper's ``dut`` parameter or a rebinding could hold any object).
    test_params = [n.args.args[0].arg for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name in out.tests and n.args.args]
    bindings: dict[str, int] = {}
    for n in ast.walk(tree):
        names = []
        if isinstance(n, ast.arg):
            names = [n.arg]
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names = [n.id]
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in n.names]
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            names = list(n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [n.name]
        for name in names:
            bindings[name] = bindings.get(name, 0) + 1
    dut_only = {d for d in set(test_params) if bindings.get(d, 0) == test_params.count(d)}

    # getattr/setattr/hasattr named as the callee of a call (any other use hands them out as values).
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__del__":
            add("dunder-access", node, "'__del__' runs when the interpreter shuts down, after the simulation: "
                "not allowed in a testbench")
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name not in ALLOWED_MODULES:
                    add("import", node, f"'import {a.name}' is not allowed; testbenches may import only: "
                        + ", ".join(sorted(m for m in ALLOWED_MODULES if m != "__future__")))
        elif isinstance(node, ast.ImportFrom):
            mod = "." * node.level + (node.module or "")
            if node.level or mod not in ALLOWED_MODULES:
                add("import", node, f"'from {mod} import ...' is not allowed; testbenches may import only: "
                    + ", ".join(sorted(m for m in ALLOWED_MODULES if m != "__future__")))
            for a in node.names:
                if a.name in FORCE_NAMES:
                    add("force-release", node, f"{a.name} overrides signals; drive the input ports instead")
                elif a.name.startswith("_") or a.name == "*":
                    add("private-access", node, f"'from {mod} import {a.name}' is not allowed")
                elif a.name in FORBIDDEN_ATTRS:
                    add("forbidden-attribute", node, f"'{a.name}' gives access to {FORBIDDEN_ATTRS[a.name]}")
        elif isinstance(node, ast.Name):
            if node.id in ATTR_BUILTINS and id(node) not in called:
                add("computed-attribute", node, f"'{node.id}' may only be called directly (getattr(dut, \"port\")); "
                    "passed as a value (functools.partial, map, ...) it reaches any attribute")
            elif node.id in FORBIDDEN_NAMES:
                add("forbidden-builtin", node, f"'{node.id}' ({FORBIDDEN_NAMES[node.id]}) is not allowed in a testbench")
            elif node.id.startswith("__") and node.id not in ALLOWED_DUNDERS:
                add("dunder-access", node, f"'{node.id}' is not allowed in a testbench")
            elif node.id in FORCE_NAMES:
                add("force-release", node, f"{node.id} overrides signals; drive the input ports instead")
        elif isinstance(node, ast.Attribute):
            a = node.attr
            if a.startswith("__") and a.endswith("__") and a not in ALLOWED_DUNDERS:
                add("dunder-access", node, f"attribute '{a}' (introspection) is not allowed in a testbench")
            elif a.startswith("_") and not (isinstance(node.value, ast.Name) and node.value.id in SELF_NAMES) and not (
                    a in DUT_PRIVATE_OK and isinstance(node.value, ast.Name) and node.value.id in dut_names):
                add("private-access", node, f"attribute '{a}': private attributes (cocotb's _id, _handle, ...) "
                    "reach past the DUT's ports; use dut.<port> only")
            elif a in FORBIDDEN_ATTRS:
                add("forbidden-attribute", node, f"'.{a}' gives access to {FORBIDDEN_ATTRS[a]}")
            elif a in FORCE_NAMES:
                add("force-release", node, f"{a} overrides signals; drive the input ports instead")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTR_BUILTINS:
            name = node.args[1] if len(node.args) > 1 else None
            target = node.args[0] if node.args else None
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            on_dut = isinstance(target, ast.Name) and target.id in dut_names
            if not literal and not (isinstance(target, ast.Name) and target.id in dut_only):
                on_dut = False
            if literal and name.value.startswith("_") and not (on_dut and name.value in DUT_PRIVATE_OK):
                add("computed-attribute", node, f"{node.func.id}() of a private attribute is not allowed")
            elif not literal and not (on_dut and node.func.id in READ_ATTR_BUILTINS):
                add("computed-attribute", node, f"{node.func.id}() needs a literal public attribute name (a computed "
                    "name is allowed only to read a port of the test's own dut argument: getattr(dut, name))")
            elif node.keywords or len(node.args) > 3 or any(isinstance(a, ast.Starred) for a in node.args):
                add("computed-attribute", node, f"{node.func.id}() with unpacked arguments is not allowed")
        for ann in _annotations(node):
            if any(isinstance(c, ast.Constant) and isinstance(c.value, str) for c in ast.walk(ann)):
                add("string-annotation", ann, "a string annotation is code that typing.get_type_hints() evaluates; "
                    "write the type itself")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
                and _reaches_attributes(node.func.value)):
            add("format-field", node, "str.format() with a computed format string, or a field like {0.x} or {0[k]}, "
                "reads attributes by name; use an f-string")
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    chain = _chain(sub) if isinstance(sub, ast.Attribute) else None
                    if not chain:
                        continue
                    root = chain[0]
                    path = chain[1:]
                    if root == "cocotb" and path[:1] == ["top"]:
                        path = path[1:]
                    elif root not in dut_names:
                        continue
                    if path and path[-1] in ("value",):
                        path = path[:-1]
                    if len(path) > 1:
                        add("hierarchical-write", sub, f"assigns to '{'.'.join(chain)}' inside the design; "
                            "only the DUT's input ports may be driven")
    out.violations.sort(key=lambda v: v.line)
    # One message per (rule, line) is enough.
    seen: set[tuple[str, int]] = set()
    out.violations = [v for v in out.violations if not ((v.rule, v.line) in seen or seen.add((v.rule, v.line)))]
    return out
