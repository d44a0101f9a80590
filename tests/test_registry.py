"""The registry: built-in modules load on first lookup, an outside package registers through an entry point."""
import sys
import textwrap

import pytest

from ecov.harness import registry


def test_register_get_names_and_conflicts():
    obj = object()
    registry.register("toy-kind", "a", obj)
    registry.register("toy-kind", "a", obj)  # the same object again: a no-op
    try:
        assert registry.get("toy-kind", "a") is obj
        assert "a" in registry.names("toy-kind")
        with pytest.raises(registry.RegistryError, match="registered already"):
            registry.register("toy-kind", "a", object())
        with pytest.raises(registry.RegistryError, match="unknown toy-kind 'b'.*known: a"):
            registry.get("toy-kind", "b")
    finally:
        registry.unregister("toy-kind", "a")


def test_builtin_module_loads_on_first_lookup(tmp_path, monkeypatch):
    (tmp_path / "toy_builtin.py").write_text(textwrap.dedent("""
        from ecov.harness import registry
        registry.register("toy-builtin", "x", 42)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.builtin_modules("toy-builtin", "toy_builtin")
    try:
        assert "toy_builtin" not in sys.modules
        assert registry.get("toy-builtin", "x") == 42
    finally:
        registry.unregister("toy-builtin", "x")
        registry.BUILTIN_MODULES.pop("toy-builtin", None)


def test_entry_point_group_registers_an_outside_plugin(tmp_path, monkeypatch):
    """An installed distribution that declares an ``ecov.plugins`` entry point is loaded on lookup."""
    (tmp_path / "outside_pkg.py").write_text(textwrap.dedent("""
        from ecov.harness import registry
        registry.register("toy-outside", "hello", "world")
    """))
    dist = tmp_path / "outside_pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-pkg\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\nhello = outside_pkg\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    try:
        assert registry.get("toy-outside", "hello") == "world"
    finally:
        registry.unregister("toy-outside", "hello")
