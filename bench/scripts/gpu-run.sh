#!/usr/bin/env bash
# The GPU suite, on the GPU machine, from the repository root (carry .gpu, staged by
# `npm run gpu:prepare --workspace bench`):
#   bash bench/scripts/gpu-run.sh [out-dir]      (default: $OUT)
# Writes gpu.txt (nvidia-smi's name), tune.txt (hand-written tile sweep), gpu-suite.md (the
# suite's tables) and variants-4096.txt (matmul WGSL variants); merge them into
# docs/benchmarks.md with `node bench/scripts/merge-gpu.mjs <out-dir>`.
set -eo pipefail
out=${1:-$OUT}
[ -n "$out" ] || { echo "gpu-run.sh: give an output folder (or set OUT)" >&2; exit 1; }
source .gpu/env.sh
export SYCLTS_ADAPTER=hardware
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > "$out/gpu.txt" || true
(cd .gpu/app && VARIANTS=literal node matmul-tune.mjs 2048 4096 > "$out/tune.txt")
node .gpu/app/gpu-suite.mjs --out "$out/gpu-suite.md"
node .gpu/app/matmul-variants.mjs 4096 | tail -8 > "$out/variants-4096.txt"
cat "$out/variants-4096.txt"
