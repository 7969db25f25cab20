#!/usr/bin/env bash
# Stages bench/gpu_div_batch.sh: `myocyte 12` (bench/gen_compile_shapes.py)
# with a main that launches it 11 times (1,024 threads each; a checksum and
# a hash of every bit written), built plain, with PASTA_DIVERGENCE=1 by
# OLD_BUILD's plugin and runtime (before) and by this tree's with
# -mllvm -pasta-div-batch=lines and =blocks (its divergence copy and device
# functions call the access helpers out of line: the batches apply); with
# BUILDS='NAME=PLUGIN.so:MODE ...' those builds instead, each with its own
# plugin (and this tree's runtime library) as myocyte12-div-NAME. About a
# minute and a half of CPU per divergence build (ptxas).
# usage, after ninja -C build pasta pasta_rt:
#   [BUILDS=...] bench/stage_div_batch.sh OLD_BUILD DIR
# then run DIR/run.sh on the GPU machine (self-contained: the binaries,
# bench/gpu_div_batch.sh as run.sh, scripts/compare_profiles.py).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: stage_div_batch.sh OLD_BUILD DIR} dst=${2:?usage: stage_div_batch.sh OLD_BUILD DIR}
build=${PASTA_BUILD_DIR:-build}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
work=$(mktemp -d)
python3 bench/gen_compile_shapes.py myocyte 12 "$work/myocyte12.cu"
cat > "$work/main.cu" <<'MAIN'
#include "myocyte12.cu"
#include <cstdio>
#include <cstring>
// 11 launches (ncu times each), every array written before the first.
int main() {
  const int n = 8192;
  float *a, *out, *p;
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&p, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    a[i] = p[i] = (i % 17) * 0.125f - 1.0f;
    out[i] = 0.0f;
  }
  for (int r = 0; r < 11; ++r)
    myocyte_kernel<<<4, 256>>>(a, out, p, 2);
  cudaDeviceSynchronize();
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i];
  printf("checksum %.6e\n", sum);
  unsigned long long bits = 1469598103934665603ull;
  const float *written[] = {a, out};
  for (const float *v : written)
    for (int i = 0; i < n; ++i) {
      unsigned w;
      memcpy(&w, &v[i], sizeof w);
      bits = (bits ^ w) * 1099511628211ull;
    }
  printf("bits %016llx\n", bits);
  return 0;
}
MAIN
flags=(-x cuda --cuda-path="$cuda" --offload-arch=sm_90
  -Wno-unknown-cuda-version -O2 -g -I"$work")
libs=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
mkdir -p "$work/bin"
clang++-22 "${flags[@]}" "$work/main.cu" -o "$work/bin/myocyte12.plain" "${libs[@]}"
PASTA_DIVERGENCE=1 clang++-22 "${flags[@]}" -fpass-plugin="$old/lib/libpasta.so" \
  "$work/main.cu" -o "$work/bin/myocyte12-div-before" -x none \
  "$old/lib/libpasta_rt.a" "${libs[@]}"
for spec in ${BUILDS:-lines=$build/lib/libpasta.so:lines blocks=$build/lib/libpasta.so:blocks}; do
  name=${spec%%=*} rest=${spec#*=}
  plugin=${rest%:*} mode=${rest##*:}
  PASTA_DIVERGENCE=1 clang++-22 "${flags[@]}" -fpass-plugin="$plugin" \
    -mllvm -pasta-div-batch=$mode "$work/main.cu" \
    -o "$work/bin/myocyte12-div-$name" -x none "$build/lib/libpasta_rt.a" "${libs[@]}"
done
mkdir -p "$dst"
(cd "$work/bin" && XZ_OPT=-9 tar cJf "$dst/bin.txz" .)
cp bench/gpu_div_batch.sh "$dst/run.sh"
cp scripts/compare_profiles.py "$dst/"
{ git rev-parse --short HEAD; cat "$old/commit" 2>/dev/null; } > "$dst/commits"
rm -rf "$work"
du -sh "$dst"
