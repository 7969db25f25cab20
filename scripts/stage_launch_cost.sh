#!/usr/bin/env bash
# Stages what scripts/gpu_launch_cost.sh runs into build-gpu-launch/ (small:
# carry it to the GPU machine): launch_overhead plain and instrumented, the
# launch-wrapper benchmark with a fake vendor (bench_launch), and, when
# PASTA_BEFORE_BUILD names the build directory of an earlier commit, the
# instrumented launch_overhead linked with that commit's runtime and its
# bench_launch, for a side-by-side run:
#   PASTA_BEFORE_BUILD=/tmp/before/build scripts/stage_launch_cost.sh
#   run(command="bash scripts/gpu_launch_cost.sh", carry=["build-gpu-launch"])
# LAUNCH_DEST puts it elsewhere (then PASTA_LAUNCH_BIN=<that> for the GPU
# script); PASTA_STAGE_EXIT=1 adds launch_overhead-pasta-exit, the same
# program with the launch counted at the first thread's exit
# (-pasta-launch-count-at-exit).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PASTA_BUILD_DIR:-build}
dst=${LAUNCH_DEST:-build-gpu-launch}
rm -rf "$dst"
mkdir -p "$dst"
ninja -C "$build" bin/kernels/launch_overhead bin/kernels/launch_overhead-pasta \
  bench_launch >/dev/null
cp "$build/bin/kernels/launch_overhead" "$build/bin/kernels/launch_overhead-pasta" \
  "$build/bin/bench_launch" "$dst/"
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
if [ "${PASTA_STAGE_EXIT:-0}" = 1 ]; then
  /usr/lib/llvm-22/bin/clang++ -x cuda --cuda-path="$cuda" --offload-arch=sm_90 \
    -Wno-unknown-cuda-version -O2 -g -Itest_kernels \
    -fpass-plugin="$build/lib/libpasta.so" -mllvm -pasta-launch-count-at-exit \
    test_kernels/launch_overhead.cu -o "$dst/launch_overhead-pasta-exit" -x none \
    "$build/lib/libpasta_rt.a" -L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread
fi
if [ -n "${PASTA_BEFORE_BUILD:-}" ]; then
  # A copied build (lib/, bin/ and a `commit` file, no build.ninja) is
  # used as it is.
  if [ -f "$PASTA_BEFORE_BUILD/build.ninja" ]; then
    ninja -C "$PASTA_BEFORE_BUILD" pasta_rt bench_launch >/dev/null
  fi
  # The same program built by the earlier tree: its plugin and runtime (a
  # plugin and a runtime of different ABI versions do not work together:
  # with this tree's plugin, session 16's before row ran uninstrumented
  # after the ABI went from 16 to 17).
  before_plugin=$PASTA_BEFORE_BUILD/lib/libpasta.so
  /usr/lib/llvm-22/bin/clang++ -x cuda --cuda-path="$cuda" --offload-arch=sm_90 \
    -Wno-unknown-cuda-version -O2 -g -Itest_kernels \
    -fpass-plugin="$before_plugin" test_kernels/launch_overhead.cu \
    -o "$dst/launch_overhead-pasta-before" -x none \
    "$PASTA_BEFORE_BUILD/lib/libpasta_rt.a" -L"$cuda/lib64" -lcudart_static \
    -ldl -lrt -pthread
  cp "$PASTA_BEFORE_BUILD/bin/bench_launch" "$dst/bench_launch-before"
  # This tree's benchmark (its `ws` and `wsnw` modes) linked with the earlier
  # runtime.
  /usr/lib/llvm-22/bin/clang -std=c11 -O2 -Iinclude -I. host_rt/bench_launch.c \
    "$PASTA_BEFORE_BUILD/lib/libpasta_rt.a" -lpthread -ldl -lm \
    -o "$dst/bench_launch-ws-before"
  if [ -f "$PASTA_BEFORE_BUILD/commit" ]; then
    cut -c1-7 "$PASTA_BEFORE_BUILD/commit" >"$dst/before-commit"
  else
    git -C "$PASTA_BEFORE_BUILD/.." rev-parse --short HEAD >"$dst/before-commit" 2>/dev/null || true
  fi
fi
git rev-parse --short HEAD >"$dst/commit"
du -sh "$dst"
