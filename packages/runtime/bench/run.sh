#!/usr/bin/env bash
# Bundles the runtime benchmark (webgpu left external, so the bundle runs on any machine with
# Node and the webgpu package) and runs it with node.
# Usage: packages/runtime/bench/run.sh [extra node args]. BENCH_LAUNCHES, BENCH_CHANGES tune it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out="$here/out"
mkdir -p "$out"
"$root/node_modules/.bin/esbuild" "$here/runtime-bench.ts" --bundle --platform=node --format=esm \
  --target=node20 --conditions=@syclts/source --external:webgpu \
  --outfile="$out/runtime-bench.mjs" --log-level=warning
node "$@" "$out/runtime-bench.mjs"
