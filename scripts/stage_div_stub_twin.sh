#!/usr/bin/env bash
# Stages scripts/gpu_div_stub_twin.sh: `myocyte 12` (bench/gen_compile_shapes.py,
# with its main: one launch of 8,192 threads, a checksum) built plain, with
# PASTA_DIVERGENCE=1 (its divergence copy calls the access helpers out of
# line, so its uncapped twin is a stub the runtime must never launch) and
# with PASTA_DIVERGENCE=1 -mllvm -pasta-div-uncapped-max-calls=100000 and
# -pasta-div-uncapped-max-measures=100000 (a full twin, as before the stub:
# both limits give the stub). About a minute of CPU for the two
# divergence builds (ptxas).
# usage, after ninja -C build pasta pasta_rt:
#   scripts/stage_div_stub_twin.sh
# then run(command="bash scripts/gpu_div_stub_twin.sh", carry=["build-gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PASTA_BUILD_DIR:-build}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
dst=build-gpu/bin/stubtwin
rm -rf build-gpu
mkdir -p "$dst"
python3 bench/gen_compile_shapes.py myocyte 12 "$dst/myocyte12.cu"
flags=(-x cuda --cuda-path="$cuda" --offload-arch=sm_90
  -Wno-unknown-cuda-version -O2 -g -DSHAPE_MAIN)
libs=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
plugin=-fpass-plugin=$build/lib/libpasta.so
clang++-22 "${flags[@]}" "$dst/myocyte12.cu" -o "$dst/myocyte12.plain" \
  "${libs[@]}"
PASTA_DIVERGENCE=1 clang++-22 "${flags[@]}" "$plugin" "$dst/myocyte12.cu" \
  -o "$dst/myocyte12-div" -x none "$build/lib/libpasta_rt.a" "${libs[@]}"
PASTA_DIVERGENCE=1 clang++-22 "${flags[@]}" "$plugin" -mllvm \
  -pasta-div-uncapped-max-calls=100000 -mllvm \
  -pasta-div-uncapped-max-measures=100000 "$dst/myocyte12.cu" \
  -o "$dst/myocyte12-div-twin" -x none "$build/lib/libpasta_rt.a" "${libs[@]}"
git rev-parse --short HEAD > build-gpu/commit
du -sh build-gpu
