#!/usr/bin/env bash
# The cleanup after the device runtime is inlined (PASTA_CLEANUP), measured
# on the bundled programs without a GPU: each test_kernels/<k>.cu's device
# half compiled to PTX with a plugin, in divergence mode (MODE=div, the
# default) or counting mode (MODE=count), with each setting of
# PASTA_CLEANUP given; then ptxas -v on the PTX as clang runs it. Per build:
# the LLVM step's and ptxas's CPU seconds (user + sys), and per entry the
# PTX instructions, SASS instructions (its .text section's bytes / 16,
# alignment padding included), registers and spill bytes (cleanup_table.py).
# usage: bench/cleanup_table.sh OUTDIR PLUGIN.so SETTING... [-- KERNEL...]
#   SETTING: a PASTA_CLEANUP value (0, div, all), or "before" for the
#   plugin in BEFORE_PLUGIN (a build of main, its own runtime inside).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$1
plugin=$2
shift 2
settings=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  settings+=("$1")
  shift
done
[ "${1:-}" = -- ] && shift
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(vector_add axpy bicg syrk matmul_tiled
  dgemm backprop bfs gaussian hotspot kmeans lud nn nw pathfinder srad
  histogram reduction launch_overhead coalescing)
mode=${MODE:-div}
modeenv=()
[ "$mode" = div ] && modeenv=(PASTA_DIVERGENCE=1)
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
flags=(-x cuda --cuda-path="$cuda" --offload-arch=sm_90
  -Wno-unknown-cuda-version -O2 -g -I"$here/test_kernels"
  --cuda-device-only -S)
mkdir -p "$out"
for k in "${kernels[@]}"; do
  for s in "${settings[@]}"; do
    p=$plugin
    envs=("${modeenv[@]}" PASTA_CLEANUP="$s")
    if [ "$s" = before ]; then
      p=$BEFORE_PLUGIN
      envs=("${modeenv[@]}")
    fi
    base=$out/$k.$mode.$s
    env "${envs[@]}" /usr/bin/time -f "%U %S" -o "$base.cctime" \
      /usr/lib/llvm-22/bin/clang++ "${flags[@]}" -fpass-plugin="$p" \
      "$here/test_kernels/$k.cu" -o "$base.ptx" 2> "$base.cc"
    /usr/bin/time -f "%U %S" -o "$base.ptxastime" "$cuda/bin/ptxas" -m64 -O2 \
      -lineinfo --gpu-name sm_90 -v "$base.ptx" -o "$base.cubin" 2> "$base.v"
  done
done
