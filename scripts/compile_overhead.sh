#!/usr/bin/env bash
# Compile-time overhead: each bundled program compiled for sm_90 (device and
# host, -O2 -g, no link) with and without the plugin; best of 3 wall times.
# Prints a Markdown table and the ratio of the totals.
# usage: compile_overhead.sh [SOURCE.cu...]   (default test_kernels/*.cu;
# e.g. tests/structures/thrust/thrust.cu: <cuda>/include/cccl is searched)
set -euo pipefail
cd "$(dirname "$0")/.."
plugin=${PASTA_BUILD_DIR:-build}/lib/libpasta.so
flags=(-x cuda --cuda-path=/usr/local/cuda --offload-arch=sm_90
       -Wno-unknown-cuda-version -O2 -g -Itest_kernels
       -isystem /usr/local/cuda/include/cccl -c -o /dev/null)
best() {
  local best=999999 t0 t1 ms
  for _ in 1 2 3; do
    t0=$(date +%s%N); clang++-22 "$@" > /dev/null 2>&1; t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 )); [ "$ms" -lt "$best" ] && best=$ms
  done
  echo "$best"
}
echo "| program | plain (ms) | instrumented (ms) | ratio |"
echo "|---|---|---|---|"
total0=0 total1=0
[ $# -gt 0 ] || set -- test_kernels/*.cu
for src in "$@"; do
  p=$(best "${flags[@]}" "$src")
  i=$(best "${flags[@]}" -fpass-plugin="$plugin" "$src")
  total0=$((total0 + p)) total1=$((total1 + i))
  awk -v n="$(basename "$src" .cu)" -v p="$p" -v i="$i" \
    'BEGIN { printf "| %s | %d | %d | %.2f |\n", n, p, i, i / p }'
done
awk -v p="$total0" -v i="$total1" \
  'BEGIN { printf "\nTotal: %d ms plain, %d ms instrumented, ratio %.2f\n", p, i, i / p }'
