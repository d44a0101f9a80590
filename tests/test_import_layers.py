"""The import layers of docs/architecture.md hold: `lint-imports` (import-linter, the [dev] extra) checks the
layers contract in pyproject.toml, imports inside functions included, so a cycle between layers or an
upward import fails CI."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> list[str]:
    pytest.importorskip("importlinter", reason="import-linter is in the [dev] extra: pip install -e '.[dev]'")
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    return [exe, "--config", str(ROOT / "pyproject.toml"), "--no-cache"]


def test_layers_contract_is_kept():
    res = subprocess.run(_lint_imports(), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0 and "1 kept, 0 broken" in res.stdout, res.stdout[-3000:] + res.stderr[-2000:]


def test_an_upward_import_breaks_the_contract(tmp_path):
    """The check is not vacuous: the same contract with core placed above the tracks is broken."""
    cfg = (ROOT / "pyproject.toml").read_text()
    swapped = (cfg.replace('    "ecov.harness.tracks",\n', '    "TRACKS",\n')
               .replace('    "ecov.harness.core",\n', '    "ecov.harness.tracks",\n')
               .replace('    "TRACKS",\n', '    "ecov.harness.core",\n'))
    assert swapped != cfg
    (tmp_path / "pyproject.toml").write_text(swapped)
    cmd = _lint_imports()
    cmd[cmd.index("--config") + 1] = str(tmp_path / "pyproject.toml")
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode != 0 and "ecov.harness.tracks is not allowed to import ecov.harness.core" in res.stdout


def _module_graph() -> dict[str, set[str]]:
    """Project module -> project modules it imports, imports inside functions included."""
    folders = {"harness": "ecov.harness", "leaderboard": "ecov.leaderboard", "trainers": "ecov.trainers"}
    files = {}
    for folder, name in folders.items():
        for p in (ROOT / folder).rglob("*.py"):
            parts = list(p.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join([name, *parts])] = p
    graph = {m: set() for m in files}
    for mod, path in files.items():
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                names = [f"{base}.{a.name}" for a in node.names] + [base]
            else:
                continue
            for n in names:
                while n and n not in files:
                    n = n.rpartition(".")[0]
                if n and n != mod and not (path.name != "__init__.py" and n == pkg):
                    graph[mod].add(n)
                    break
    return graph


def test_no_import_cycle_between_modules():
    """Within a layer too: no module reaches itself through imports (a package's __init__ importing its own
    modules is not a cycle)."""
    graph = _module_graph()
    index, low, stack, on, cycles = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    assert len(graph) > 100 and "ecov.harness.core.records" in graph["ecov.harness.tasks"]
    assert cycles == [], cycles
