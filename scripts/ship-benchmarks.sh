#!/usr/bin/env bash
# Rebuild, calibrate and card the shipped benchmarks under benchmarks/<name>/ from ../shared/data.
# Usage: scripts/ship-benchmarks.sh [cvdp-ecov] [autoeval-ecov]   (from the repository root)
# Then record builtin/random per task (the random-hard split, slow):
#   ecov-data random-baseline <name> -n 3
set -euo pipefail
cd "$(dirname "$0")/.."
for name in "${@:-cvdp-ecov autoeval-ecov}"; do
  for n in $name; do
    out="benchmarks/$n"
    echo "== $n: build"
    ecov-data build "$n" --out "$out"
    echo "== $n: calibrate (every reference testbench through the engine)"
    ecov-data validate "$out" --write-targets --json "$out/calibration.json" --quiet
    echo "== $n: dataset card"
    ecov-data publish "$out" --repo-id "ecov/$n" --dry-run >/dev/null
  done
done
