#!/usr/bin/env bash
# Stages bench/gpu_first_block_programs.sh's run into DEST: plain, before
# (BEFORE: a build directory of the earlier tree, its own plugin and static
# runtime) and after (this tree's build) copies of bundled programs (the
# suite's flags, this tree's sources), packed as DEST/fb.txz beside
# gpu_first_block_programs.sh.
# usage: [PROGRAMS="lud nw"] bench/stage_first_block_programs.sh BEFORE DEST
#   (PASTA_BUILD_DIR: this tree's build, default build/)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${PASTA_BUILD_DIR:-$here/build}" && pwd)
before=$(cd "$1" && pwd)
dest=$2
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
pack=$(mktemp -d)/fb
mkdir -p "$pack"
cu=(-x cuda -O2 -g --cuda-path="$cuda" --offload-arch=sm_90 -Wno-unknown-cuda-version
  -I"$here/test_kernels")
rt=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
programs=${PROGRAMS:-lud nw}
for k in $programs; do
  src=$here/test_kernels/$k.cu
  clang++-22 "${cu[@]}" "$src" -o "$pack/$k-plain" "${rt[@]}"
  for side in before:"$before" after:"$build"; do
    dir=${side#*:}
    clang++-22 "${cu[@]}" -fpass-plugin="$dir/lib/libpasta.so" "$src" \
      -o "$pack/$k-${side%%:*}" -x none "$dir/lib/libpasta_rt.a" "${rt[@]}"
  done
done
echo "$programs" > "$pack/programs"
cp "$here/test_kernels/bench_sizes.txt" "$here/scripts/compare_profiles.py" "$pack/"
tar -cJf "$dest/fb.txz" -C "$(dirname "$pack")" fb
rm -rf "$(dirname "$pack")"
cp "$here/bench/gpu_first_block_programs.sh" "$dest/"
echo "staged: $(du -sh "$dest/fb.txz" | cut -f1) in $dest"
