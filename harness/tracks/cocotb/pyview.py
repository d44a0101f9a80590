"""A minimal Python installation for the simulator's embedded interpreter, readable by ``nobody``.

The simulation runs as ``nobody`` in a sandbox that shows only what it is given. The host's Python often
lives where nobody cannot reach it (``/root/.pyenv``) and its site-packages hold far more than a
testbench needs. So the sandbox gets a view: the interpreter binary, libpython, the standard library
(without tests, GUI and installers) and site-packages with only cocotb, built once per machine from
hard links (copies across file systems) under the jobs folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import shutil
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path

from ecov.harness.tracks.cocotb.build import cocotb_paths

SKIP_STDLIB = {"site-packages", "dist-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip",
               "lib2to3", "pydoc_data", "venv", "__phello__", "ctypes"}
# Native modules left out of the view: ctypes (native code, raw memory: it could change Verilator's
# counters in the process) and CPython's test helpers (raw C API access). Removed, not filtered.
SKIP_NATIVE = ("_ctypes", "_testcapi", "_testinternalcapi", "_testbuffer", "_testmultiphase",
               "_testimportmultiple", "_testsinglephase", "_testclinic", "_xxtestfuzz", "xxlimited")
PACKAGES = ("cocotb", "cocotb_tools", "pygpi")
# Everything cocotb loads in a simulation (cocotb 2.1 imports pytest, and so its dependencies).
PROBE = ("import sys, cocotb, cocotb.regression, cocotb._init, cocotb.logging, cocotb.clock, cocotb.triggers, "
         "cocotb.types, cocotb.handle, cocotb.queue, cocotb.utils, cocotb.task, pygpi.entry; "
         "print('\\n'.join(sorted({getattr(m, '__file__', None) or '' for n, m in list(sys.modules.items()) "
         "if '.' not in n})))")
VIEW_VERSION = "4"  # 4: no ctypes/_ctypes, no C API test modules


def _link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)
    if not os.access(src, os.R_OK) or (src.stat().st_mode & 0o004) == 0:
        os.chmod(dst, 0o644 | (src.stat().st_mode & 0o111))


def _tree(src: Path, dst: Path, skip: set[str] = frozenset()) -> None:
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not (Path(root) == src and d in skip)]
        rel = Path(root).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        os.chmod(dst / rel, 0o755)
        for f in files:
            if f.startswith(SKIP_NATIVE) and (f.endswith(".so") or ".cpython-" in f):
                continue
            s = Path(root) / f
            if s.is_symlink() and not s.exists():
                continue
            _link(s, dst / rel / f)


@lru_cache(maxsize=1)
def python_view(base: str) -> Path:
    """The view folder under ``base`` (created once, under a lock); returns its root."""
    import cocotb

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    key = hashlib.sha256(f"{sys.version}|{sys.executable}|{stdlib}|{cocotb.__version__}|{VIEW_VERSION}".encode()
                         ).hexdigest()[:16]
    root = Path(base) / f"cocotb-python-{key}"
    done = root / ".complete"
    if done.exists():
        return root
    Path(base).mkdir(parents=True, exist_ok=True)
    with open(Path(base) / f".cocotb-python-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.exists():
            return root
        tmp = Path(base) / f".cocotb-python-{key}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
        (tmp / "bin").mkdir(parents=True)
        _link(Path(sys.executable).resolve(), tmp / "bin" / ver)
        libpy = Path(cocotb_paths().libpython).resolve()
        (tmp / "lib").mkdir()
        _link(libpy, tmp / "lib" / Path(cocotb_paths().libpython).name)
        _tree(stdlib, tmp / "lib" / ver, SKIP_STDLIB)
        site = tmp / "lib" / ver / "site-packages"
        site.mkdir()
        pkgs = _third_party(site_dirs=_site_dirs())
        for pkg in pkgs:
            spec = importlib.util.find_spec(pkg)
            if spec is None or not spec.origin:
                continue
            src = Path(spec.origin)
            if src.name == "__init__.py":
                _tree(src.parent, site / pkg)
            else:
                _link(src, site / src.name)
        # importlib.metadata finds versions (cocotb reads its own) through the dist-info folders.
        wanted = {p.lower().replace("_", "-") for p in pkgs}
        for d in _site_dirs():
            for info in d.glob("*.dist-info"):
                if info.name.split("-")[0].lower().replace("_", "-") in wanted:
                    _tree(info, site / info.name)
        for d in (tmp, tmp / "bin", tmp / "lib", site):
            os.chmod(d, 0o755)
        shutil.rmtree(root, ignore_errors=True)
        os.replace(tmp, root)
        done.write_text(sys.version)
    return root


def _site_dirs() -> set[Path]:
    """Where third-party packages live: this environment's and, for a venv with system site packages, the
    base interpreter's."""
    import site

    return {Path(p) for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                              *site.getsitepackages())}


def _third_party(site_dirs: set[Path]) -> list[str]:
    """Top-level packages from site-packages that cocotb imports (probed in a fresh interpreter)."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": ""}).stdout.split()
    names = set(PACKAGES)
    for file in out:
        origin = Path(file)
        for d in site_dirs:
            if d in origin.parents:
                names.add(origin.relative_to(d).parts[0].removesuffix(".py").split(".")[0])
    # Import hooks of the host's editable installs point outside the view: leave them out.
    return sorted(n for n in names if not n.startswith(("__editable__", "_distutils_hack")))


def view_paths(root: Path) -> dict[str, str]:
    """Paths inside the view the simulation is pointed at."""
    ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = root / "lib" / ver / "site-packages"
    entry_so = Path(cocotb_paths().entry.split(",")[0]).name
    return {
        "python": str(root / "bin" / ver),
        "libpython": str(root / "lib" / Path(cocotb_paths().libpython).name),
        "entry": f"{site / 'cocotb' / entry_so},initialize",
        "libs": str(site / "cocotb" / "libs"),
        "home": str(root),
        # Named on PYTHONPATH too: Debian's python3.11 searches dist-packages, never a prefix's site-packages.
        "site": str(site),
    }
