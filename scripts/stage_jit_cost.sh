#!/usr/bin/env bash
# Stages bench/gpu_jit_cost.sh: the parts of `myocyte 12`'s device module
# that bench/split_copies.sh splits by kind of copy (counting build: the
# working-set, capped and plain copies alone; PASTA_DIVERGENCE=1 build: the
# divergence copy alone), as PTX, for the driver to JIT-compile on the GPU
# machine: what a first use of a copy left out of the build's SASS would
# cost. About a minute of CPU (llc on the divergence module).
# usage, after ninja -C build pasta:
#   scripts/stage_jit_cost.sh
# then run(command="bash bench/gpu_jit_cost.sh", carry=["build-gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PASTA_BUILD_DIR:-build}
dst="build-gpu/jit"
rm -rf build-gpu
mkdir -p "$dst"
python3 bench/gen_compile_shapes.py myocyte 12 "$dst/myocyte12.cu"
tmp=$(mktemp -d)
KEEP=counting DIR=$tmp/count bench/split_copies.sh 1 "$dst/myocyte12.cu" \
  "$build/lib/libpasta.so" > "$dst/split-count.txt"
PASTA_DIVERGENCE=1 KEEP="counting capped plain ws divu" DIR=$tmp/div \
  bench/split_copies.sh 1 "$dst/myocyte12.cu" "$build/lib/libpasta.so" \
  > "$dst/split-div.txt"
cp "$tmp/count/build.ptx" "$dst/count-build.ptx"
cp "$tmp/count/ws.ptx" "$dst/ws.ptx"
cp "$tmp/count/capped.ptx" "$dst/capped.ptx"
cp "$tmp/count/plain.ptx" "$dst/plain.ptx"
cp "$tmp/div/div.ptx" "$dst/div.ptx"
rm -rf "$tmp"
git rev-parse --short HEAD > build-gpu/commit
du -sh build-gpu
