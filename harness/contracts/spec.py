"""A contract's files: loading, the design hash, and the checks a contract must pass before it is used.

Pure apart from reading files. A contract whose ``design_sha256`` does not match the task's design, or
whose JSON is malformed, raises ``ContractError``: it is never applied silently, nor silently ignored.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ecov.harness.core.records import Contract, Design, SourceFile

MODULE = "ecov_contract"  # the monitor's module name; the testbench may not use any name starting so
INSTANCE = "ecov_contract_i"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ContractError(ValueError):
    """A contract that cannot be applied (wrong design, malformed): an error, never a silent skip."""


def design_sha256(files: tuple[SourceFile, ...] | list[SourceFile]) -> str:
    """The design hash a contract is bound to: sha256 over the design files sorted by base name, each as
    ``<base name> NUL <content> NUL`` (UTF-8). Any edit of any RTL file changes it."""
    h = hashlib.sha256()
    for f in sorted(files, key=lambda f: Path(f.name).name):
        h.update(Path(f.name).name.encode() + b"\0" + f.content.encode() + b"\0")
    return h.hexdigest()


@dataclass(frozen=True)
class Rule:
    name: str
    spec: str
    ports: tuple[str, ...]


@dataclass(frozen=True)
class Meta:
    """The parsed contract.json."""

    task_id: str
    dut_module: str
    design_sha256: str
    rules: tuple[Rule, ...]
    bins: tuple[str, ...]
    dropped_bins: tuple[dict[str, str], ...]
    constraints: tuple[dict[str, Any], ...]
    bind_params: tuple[str, ...] = ()  # DUT parameters passed to the monitor: #(.P(P)) in the bind
    # Upstream calibration testbenches (not ECov's, not editable) known to break a rule: name -> why.
    illegal_references: tuple[tuple[str, str], ...] = ()

    def rule(self, name: str) -> Rule | None:
        return next((r for r in self.rules if r.name == name), None)


def parse_meta(text: str) -> Meta:
    try:
        d = json.loads(text)
        rules = tuple(Rule(r["name"], r.get("spec", ""), tuple(r.get("ports") or ())) for r in d.get("rules") or [])
        meta = Meta(d["task_id"], d["dut_module"], d["design_sha256"], rules,
                    tuple(b["name"] for b in d.get("bins") or []), tuple(d.get("dropped_bins") or ()),
                    tuple(d.get("constraints") or ()), tuple(d.get("bind_params") or ()),
                    tuple((r["name"], r["why"]) for r in d.get("illegal_references") or []))
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise ContractError(f"malformed contract.json: {e}") from e
    names = [r.name for r in meta.rules] + list(meta.bins)
    if any(not _NAME.match(p) for p in meta.bind_params):
        raise ContractError(f"bind_params must be parameter names: {list(meta.bind_params)}")
    bad = [n for n in names if not _NAME.match(n)]
    if bad or len(set(names)) != len(names):
        raise ContractError(f"rule and bin names must be unique identifiers: {bad or names}")
    return meta


def reference_clean(meta: Meta, tb_name: str, ran: bool, coverage_same: bool, violation: dict | None,
                    bins_missed: list[str]) -> bool:
    """Calibration verdict on one reference testbench: it ran and the monitor left the DUT's coverage as it
    was; and it obeyed every rule and hit every kept bin, unless the contract records it as an upstream
    testbench that breaks a rule (``illegal_references``), which must then still break one (the record
    stays true)."""
    if not (ran and coverage_same):
        return False
    if tb_name in dict(meta.illegal_references):
        return violation is not None
    return violation is None and not bins_missed


def meta_of(contract: Contract) -> Meta:
    return parse_meta(contract.meta)


def check(contract: Contract, design: Design) -> Meta:
    """The contract's metadata, after checking it belongs to ``design``; raises ContractError otherwise."""
    meta = meta_of(contract)
    want = design_sha256(design.files)
    if meta.design_sha256 != want:
        raise ContractError(f"the contract of task {meta.task_id!r} was written for another design "
                            f"(design_sha256 {meta.design_sha256[:12]}..., the task's design is {want[:12]}...): "
                            "re-calibrate it against the current RTL")
    if meta.dut_module != design.top:
        raise ContractError(f"the contract of task {meta.task_id!r} binds to {meta.dut_module!r}, "
                            f"the task's DUT module is {design.top!r}")
    if not re.search(rf"\bmodule\s+{MODULE}\b", contract.sv):
        raise ContractError(f"the contract of task {meta.task_id!r} defines no module {MODULE}")
    return meta


def load_pair(sv_path: Path, json_path: Path) -> Contract:
    return Contract(sv=sv_path.read_text(), meta=json_path.read_text())


def find_contract(task_id: str, folder: Path, embedded: bool) -> Contract | None:
    """The contract shipped for ``task_id``: ``<folder>/contract.{sv,json}`` for an embedded task's own
    folder, else ``<folder>/contracts/<task_id>.{sv,json}`` for a built benchmark. One file without the
    other is an error."""
    if embedded:
        sv, js = folder / "contract.sv", folder / "contract.json"
    else:
        sv, js = folder / "contracts" / f"{task_id}.sv", folder / "contracts" / f"{task_id}.json"
    if not sv.is_file() and not js.is_file():
        return None
    if not (sv.is_file() and js.is_file()):
        raise ContractError(f"contract of {task_id!r}: {sv.name} and {js.name} must both exist")
    return load_pair(sv, js)


__all__ = ["ContractError", "Meta", "Rule", "MODULE", "INSTANCE", "design_sha256", "parse_meta", "meta_of",
           "check", "find_contract", "load_pair", "reference_clean"]
