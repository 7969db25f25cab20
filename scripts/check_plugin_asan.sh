#!/usr/bin/env bash
# The pass plugin under AddressSanitizer (no GPU): builds libpasta.so with
# -fsanitize=address into its own build directory, then compiles the
# device half of every program structure and bundled kernel through it, in
# counting and in divergence mode, with clang's cc1 running the sanitizer
# runtime. Freed memory is reused at once (quarantine_size_mb=0), as it is
# in a plain clang: a pointer kept past a function's emission then reads
# another object, and the sanitizer sees it. That is how a stale parked
# slot, which crashed clang at random on one CUDA sample, was found; no
# ordinary test catches such a bug, because it needs an address reused.
# Prints one line per compile (ok, ASAN, or rc=N for a compile that failed
# without a sanitizer report) and `N passed, N failed`; exits 1 on any
# sanitizer report. Not part of .ci/run: the sanitized plugin's build alone
# takes about 6 minutes on 2 cores.
# usage: scripts/check_plugin_asan.sh [SOURCE.cu...]
#   (default: tests/structures/*/*.cu and test_kernels/*.cu)
# env: PASTA_ASAN_BUILD_DIR (default build-asan), PASTA_CUDA_PATH,
#      PASTA_ASAN_CFLAGS (more compiler flags, shell words: e.g. the
#      include folders of a project's sources given as arguments; the
#      stale slot needed cuda-samples' eigenvalues: SOURCE
#      .../eigenvalues/bisect_large.cu, PASTA_ASAN_CFLAGS=-I.../Common).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${PASTA_ASAN_BUILD_DIR:-build-asan}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
CC=clang-22 CXX=clang++-22 cmake -G Ninja -S . -B "$build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS=-fsanitize=address -shared-libasan -fno-omit-frame-pointer" \
  > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
ninja -C "$build" pasta > "$build.build.log" 2>&1 || { tail -20 "$build.build.log"; exit 1; }
runtime=$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so)
logs=$build/asan-logs
mkdir -p "$logs"
if [ $# -gt 0 ]; then sources=("$@"); else
  sources=(tests/structures/*/*.cu test_kernels/*.cu)
fi
passed=0 failed=0
for src in "${sources[@]}"; do
  name=$(basename "$src" .cu)
  # cdp needs relocatable device code, which this one-file compile lacks.
  [ "$name" = cdp ] && continue
  for mode in count divergence; do
    # shellcheck disable=SC2206 # flags as shell words
    extra=(${PASTA_ASAN_CFLAGS:-})
    [ "$mode" = divergence ] && extra+=(-mllvm -pasta-divergence)
    log=$logs/$name.$mode.log
    ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=0 LD_PRELOAD=$runtime \
      /usr/lib/llvm-22/bin/clang++ -x cuda --cuda-path="$cuda" \
      --offload-arch=sm_90 -Wno-unknown-cuda-version -O2 -gline-tables-only \
      -std=c++17 -isystem "$cuda/include/cccl" -I "$(dirname "$src")" \
      --cuda-device-only -S -fpass-plugin="$build/lib/libpasta.so" \
      "${extra[@]}" "$src" -o "$logs/$name.$mode.ptx" > "$log" 2>&1
    rc=$?
    if grep -q "ERROR: AddressSanitizer" "$log"; then
      echo "ASAN $name ($mode): $log"
      failed=$((failed + 1))
    elif [ $rc -ne 0 ]; then
      echo "rc=$rc $name ($mode): $log"
      failed=$((failed + 1))
    else
      echo "ok $name ($mode)"
      passed=$((passed + 1))
    fi
  done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
