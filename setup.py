"""Maps the repository's top-level folders onto import names under ``ecov`` (metadata: pyproject.toml).

``harness/`` is imported as ``ecov.harness``, ``leaderboard/`` as ``ecov.leaderboard`` and ``trainers/`` as
``ecov.trainers``: the folders stay where users look for them, and the import names cannot collide with
other packages' generic ``harness`` or ``trainers``. ``ecov`` itself is a namespace package.
"""
from setuptools import find_packages, setup

FOLDERS = {"harness": "ecov.harness", "leaderboard": "ecov.leaderboard", "trainers": "ecov.trainers"}

package_dir = dict((name, folder) for folder, name in FOLDERS.items())
packages = [p for folder, name in FOLDERS.items() for p in [name] + [f"{name}.{s}" for s in find_packages(folder)]]
# The shipped, built benchmarks (cvdp-ecov, autoeval-ecov) travel inside the package as data, so that a
# wheel or `pip install .` finds `--benchmark cvdp-ecov` (ecov.harness.benchmark.store.shipped_dir).
package_dir["ecov.benchmarks"] = "benchmarks"
packages.append("ecov.benchmarks")

setup(packages=packages, package_dir=package_dir)
