#!/usr/bin/env bash
# Put every Python package the ECov image needs into docker/wheels/, so `docker build` installs them
# with no index (for builders whose containers cannot reach PyPI, e.g. behind a TLS-intercepting proxy
# whose CA only the host trusts). Uses this host's pip and its index settings; the image's Python
# (Debian bookworm's 3.11) takes the same cp311 manylinux wheels.
# Usage: scripts/docker-wheels.sh [EXTRAS]   (default: ray)
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-ray}"
pyver="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
[ "$pyver" = "3.11" ] || { echo "host Python is $pyver; the image's is 3.11: its wheels would not fit" >&2; exit 1; }
out=docker/wheels
mkdir -p "$out"
rm -f "$out"/*.whl  # exactly what the project needs now
python3 -m pip wheel -q --wheel-dir "$out" "setuptools>=68" wheel ".[${extras}]" >/tmp/ecov-docker-wheels.log 2>&1 \
  || { tail -n 20 /tmp/ecov-docker-wheels.log >&2; exit 1; }
rm -f "$out"/ecov-*.whl  # the project itself is installed from the build context
rm -rf build/lib build/bdist.*  # what building the project's wheel left in the tree
echo "$(ls "$out"/*.whl | wc -l) wheels in $out ($(du -sh "$out" | cut -f1))"
