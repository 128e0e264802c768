#!/usr/bin/env bash
# Stages what the GPU suite needs into .gpu/ (see ../shared/gpu/prepare.sh) and bundles the
# suite into .gpu/app/. Run from anywhere in the repository; then, on the GPU machine:
#   bash bench/scripts/gpu-run.sh
set -eo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
npx turbo run build --filter=@syclts/bench^... --output-logs=errors-only
mkdir -p "$(git rev-parse --git-path info)" # prepare.sh appends to info/exclude
bash ../shared/gpu/prepare.sh
node bench/scripts/bundle.mjs --gpu
