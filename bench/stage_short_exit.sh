#!/usr/bin/env bash
# Stages bench/gpu_short_exit.sh's run (short kernels' fixed counting cost;
# docs/lab/2026-11-30-overhead3-58-short-kernels-exit.md) into DEST: plain,
# before (BEFORE: a build directory of the earlier tree, its own plugin and
# runtime) and after (this tree's build) copies of the suite's reduction,
# bench/grid_stride.cu, the structures gridstride and thrust; the checker
# and expectations; packed as DEST/short.txz beside gpu_short_exit.sh and
# a run.sh for `bash build-gpu/<name>/run.sh` on the GPU machine.
# usage: bench/stage_short_exit.sh BEFORE DEST
#   (PASTA_BUILD_DIR: this tree's build, default build/)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${PASTA_BUILD_DIR:-$here/build}
before=$(cd "$1" && pwd)
dest=$2
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
pack=$(mktemp -d)/short
mkdir -p "$pack"
cu=(-x cuda -O2 -g --cuda-path="$cuda" --offload-arch=sm_90 -Wno-unknown-cuda-version)
rt=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
# One program, three ways: plain (clang++-22), before and after (each
# plugin with its own runtime, linked statically).
three() { # source name
  clang++-22 "${cu[@]}" "$1" -o "$pack/$2-plain" "${rt[@]}"
  PASTA_STATIC_RUNTIME=1 PASTA_BUILD_DIR=$before "$here/scripts/pasta-clang++" \
    "${cu[@]}" "$1" -o "$pack/$2-before" "${rt[@]}"
  PASTA_STATIC_RUNTIME=1 PASTA_BUILD_DIR=$build "$here/scripts/pasta-clang++" \
    "${cu[@]}" "$1" -o "$pack/$2-after" "${rt[@]}"
}
three "$here/bench/grid_stride.cu" gs
three "$here/tests/structures/gridstride/gridstride.cu" st
# The suite's reduction and histogram as the suite builds them
# (test_kernels/CMakeLists.txt).
ninja -C "$build" bin/kernels/reduction bin/kernels/reduction-pasta \
  bin/kernels/histogram bin/kernels/histogram-pasta > /dev/null
for k in reduction:red histogram:hist; do
  cp "$build/bin/kernels/${k%:*}" "$pack/${k#*:}-plain"
  cp "$build/bin/kernels/${k%:*}-pasta" "$pack/${k#*:}-after"
  cp "$before/bin/kernels/${k%:*}-pasta" "$pack/${k#*:}-before"
done
# Thrust: the structure, with each runtime beside it.
PASTA_BUILD_DIR=$build "$here/scripts/build_structures.sh" "$pack/thrust-build" thrust > /dev/null
cp "$pack/thrust-build/thrust" "$pack/thrust-after"
cp "$pack/thrust-build/thrust.plain" "$pack/thrust-plain"
rm -rf "$pack/thrust-build"
cp "$before/bin/structures/thrust" "$pack/thrust-before"
mkdir -p "$pack/lib-before" "$pack/lib-after"
cp "$before/lib/libpasta_rt.so" "$pack/lib-before/"
cp "$build/lib/libpasta_rt.so" "$pack/lib-after/"
cp "$here/tests/structures/check_structure.py" "$here/bench/grid_stride.cu" \
  "$here/scripts/compare_profiles.py" \
  "$here/tests/structures/gridstride/gridstride.cu" "$pack/"
tar -cJf "$dest/short.txz" -C "$(dirname "$pack")" short
rm -rf "$(dirname "$pack")"
cp "$here/bench/gpu_short_exit.sh" "$dest/"
cat > "$dest/run.sh" << 'EOF'
#!/usr/bin/env bash
# bash build-gpu/short/run.sh: bench/gpu_short_exit.sh, one archive.
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT/short"
OUT=$OUT/short timeout 118 bash "$here/gpu_short_exit.sh"
tar -czf "$OUT/short.tgz" -C "$OUT" short && rm -rf "$OUT/short"
EOF
echo "staged: $(du -sh "$dest" | cut -f1) in $dest"
