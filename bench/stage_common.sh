# Shared by bench/stage_first_block_programs.sh and bench/stage_reductions.sh
# (sourced, after `set -euo pipefail`): where the builds come from, the
# suite's CUDA flags, and one program built three ways.
#
# stage_setup BEFORE DEST NAME sets
#   here    the repository root
#   build   this tree's build (PASTA_BUILD_DIR, default build/)
#   before  BEFORE: a build directory of the earlier tree (its own plugin
#           and static runtime)
#   dest    DEST, made and absolute
#   cuda    PASTA_CUDA_PATH (default /usr/local/cuda)
#   pack    a fresh directory named NAME, to pack as DEST/NAME.txz
#   cu, rt  the suite's CUDA compile flags and CUDA runtime link
# stage_three SRC NAME [ARG...] builds pack/NAME-plain (clang++-22),
#   NAME-before and NAME-after (each tree's plugin and its static runtime)
#   from SRC, as test_kernels/CMakeLists.txt builds the suite, ARGs added to
#   each compile.

stage_setup() {
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  build=$(cd "${PASTA_BUILD_DIR:-$here/build}" && pwd)
  before=$(cd "$1" && pwd)
  mkdir -p "$2"
  dest=$(cd "$2" && pwd)
  cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
  pack=$(mktemp -d)/$3
  mkdir -p "$pack"
  cu=(-x cuda -O2 -g --cuda-path="$cuda" --offload-arch=sm_90
    -Wno-unknown-cuda-version)
  rt=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
}

stage_three() {
  local src=$1 name=$2 side dir
  shift 2
  clang++-22 "${cu[@]}" "$@" "$src" -o "$pack/$name-plain" "${rt[@]}"
  for side in before:"$before" after:"$build"; do
    dir=${side#*:}
    clang++-22 "${cu[@]}" "$@" -fpass-plugin="$dir/lib/libpasta.so" "$src" \
      -o "$pack/$name-${side%%:*}" -x none "$dir/lib/libpasta_rt.a" "${rt[@]}"
  done
}
