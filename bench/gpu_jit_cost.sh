#!/usr/bin/env bash
# First-use cost of copies left as PTX (JIT-compiled by the driver at
# module load) on the GPU machine: loads the PTX parts staged by
# scripts/stage_jit_cost.sh (myocyte 12's working-set, capped, plain and
# divergence copies alone, and the counting build's remainder) with bench/jit_load.c,
# three times each: with the compute cache off (CUDA_CACHE_DISABLE=1: the
# JIT every time), then with an empty cache directory (a first run: JIT and
# store), then again with the same directory (a later run: read back).
# Stage: scripts/stage_jit_cost.sh, then
# run(command="bash bench/gpu_jit_cost.sh", carry=["build-gpu"]).
# Results: $OUT/jit-cost.txt (milliseconds: load wall time, JIT wall time).
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
dir=build-gpu/jit
exe=$(mktemp -d)/jit_load
"${CC:-cc}" -std=c11 -O2 -I"$cuda/include" bench/jit_load.c -L"$cuda/lib64/stubs" \
  -lcuda -o "$exe" || { echo "gpu_jit_cost: build failed"; exit 1; }
parts=("$dir/count-build.ptx" "$dir/ws.ptx" "$dir/capped.ptx" "$dir/plain.ptx"
       "$dir/div.ptx")
status=0
{
  cat build-gpu/commit "$dir/split-count.txt" "$dir/split-div.txt"
  nproc
  for r in 1 2 3; do
    echo "## cache off, run $r"
    CUDA_CACHE_DISABLE=1 "$exe" "${parts[@]}" || status=1
  done
  cache=$(mktemp -d)
  for r in 1 2 3; do
    echo "## cache $cache, run $r (1: empty)"
    CUDA_CACHE_PATH=$cache "$exe" "${parts[@]}" || status=1
  done
  echo "gpu_jit_cost: status $status"
} > "$OUT/jit-cost.txt" 2>&1
cat "$OUT/jit-cost.txt"
exit $status
