#!/usr/bin/env bash
# Stages bench/gpu_short_kernels.sh's inputs (one-block and short kernels'
# fixed counting cost) into DEST (default build-gpu/): the Thrust structure
# and bench/one_block_sum.cu, plain (clang) and counting with this build's
# plugin under each option
# set below, and this build's libpasta_rt.so. Counts are the same in every
# counting build (the GPU script compares them with the default's).
#   counting      the default (launch count and the first block's bit
#                 flush inline, no prefetch)
#   old           session 13's defaults: -pasta-inline-launch-count=0
#                 -pasta-inline-first-block-flush=0
#                 -pasta-prefetch-counter-rows=1
#   calls         the default but both calls (=0 =0), no prefetch
#   prefetch      the default and -pasta-prefetch-counter-rows=1
#   flush2        the default and -pasta-inline-first-block-flush=2 (the
#                 64-bit alike counts inline too)
#   exitlaunch    the default and -pasta-launch-count-at-exit (the
#                 grid's first thread counts the launch at its exit)
# SHORT_VARIANTS picks some (default: all). Then, from the repository root:
# run(command="bash bench/gpu_short_kernels.sh", carry=["build-gpu"]), or
# from a tree without it, bash build-gpu/gpu_short_kernels.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PASTA_BUILD_DIR:-build}
dest=${1:-build-gpu}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
mkdir -p "$dest/short" "$dest/lib"
cp "$build/lib/libpasta_rt.so" "$dest/lib/"
flags=(-O2 -g --cuda-path="$cuda" --offload-arch=sm_90 -Wno-unknown-cuda-version)
libs=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
progs=(tests/structures/thrust/thrust.cu bench/one_block_sum.cu)
options() {
  local m=-mllvm
  case $1 in
  counting) ;;
  old) echo $m -pasta-inline-launch-count=0 $m -pasta-inline-first-block-flush=0 \
    $m -pasta-prefetch-counter-rows=1 ;;
  calls) echo $m -pasta-inline-launch-count=0 $m -pasta-inline-first-block-flush=0 ;;
  prefetch) echo $m -pasta-prefetch-counter-rows=1 ;;
  flush2) echo $m -pasta-inline-first-block-flush=2 ;;
  exitlaunch) echo $m -pasta-launch-count-at-exit ;;
  *) echo "stage_short_kernels: unknown variant $1" >&2; exit 1 ;;
  esac
}
for src in "${progs[@]}"; do
  name=$(basename "$src" .cu)
  # pasta-clang++ finds CUDA's cccl headers (Thrust) itself; clang needs them.
  clang++-22 "${flags[@]}" -isystem "$cuda/include/cccl" "$src" \
    -o "$dest/short/$name.plain" "${libs[@]}"
  for v in ${SHORT_VARIANTS:-counting old calls prefetch flush2 exitlaunch}; do
    # shellcheck disable=SC2046 # options() prints separate words
    PASTA_BUILD_DIR=$build "$build/bin/pasta-clang++" "${flags[@]}" $(options "$v") \
      "$src" -o "$dest/short/$name.$v" "${libs[@]}"
  done
done
# The GPU script and its helpers, for a tree without them (run as
# build-gpu/gpu_short_kernels.sh).
# ncu_kernel_times.py beside the table script: it imports it (from
# scripts/ in the tree, from its own directory when staged).
cp bench/gpu_short_kernels.sh bench/short_kernels_table.py bench/gpu_exit_cost.sh \
  bench/exit_cost.cu scripts/ncu_kernel_times.py "$dest/"
# Packed (the call's carry is 64 MiB in all; unpacked there by the GPU
# script).
(cd "$dest" && XZ_OPT=-9 tar cJf short.tar.xz short && rm -rf short)
git rev-parse --short HEAD >"$dest/commit"
du -sh "$dest"
