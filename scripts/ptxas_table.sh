#!/usr/bin/env bash
# ptxas's register, stack and spill figures for every kernel of the bundled
# programs and of the Thrust structure: plain, counting copy, working-set
# copy (docs/performance.md). Development machine, no GPU: each program is
# compiled for sm_90, device code only, plain (clang++-22) and instrumented
# (pasta-clang++), with -Xcuda-ptxas -v.
# usage: scripts/ptxas_table.sh [OUTDIR]   (default: build/ptxas)
#   PTXAS_TABLE_FLAGS: more flags for the instrumented builds (e.g.
#   "-mllvm -pasta-inline-first-block-flush"), to compare an option's.
#        scripts/ptxas_table.sh --copies [OUTDIR]
# --copies: the bundled programs (test_kernels/) compiled instrumented only;
# per kernel, its plain copy (K__pasta_plain) against its counting kernel:
# registers, stack, spills, static shared memory, the occupancy the
# registers allow, and whether counting changed them (ptxas_table.py).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${PASTA_BUILD_DIR:-$here/build}
copies=0
if [ "${1:-}" = --copies ]; then
  copies=1
  shift
fi
out=${1:-$build/ptxas}
mkdir -p "$out"
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
flags=(-x cuda -O2 -g --cuda-path="$cuda" --offload-arch=sm_90
  -Wno-unknown-cuda-version --cuda-device-only -Xcuda-ptxas -v
  -I"$here/test_kernels" -isystem "$cuda/include/cccl")
if [ "$copies" = 1 ]; then
  echo "| program | kernel | registers | stack bytes | spill bytes | static shared bytes | occupancy the registers allow (sm_90) | changed |"
  echo "|---|---|---|---|---|---|---|---|"
  for src in "$here"/test_kernels/*.cu; do
    name=$(basename "$src" .cu)
    "$build/bin/pasta-clang++" "${flags[@]}" -c "$src" -o /dev/null \
      > "$out/$name.pasta.log" 2>&1
    python3 "$here/scripts/ptxas_table.py" --copies "$out/$name.pasta.log" "$name"
  done
  exit 0
fi
echo "| program | kernel | plain: registers / stack / spill bytes | counting copy | working-set copy |"
echo "|---|---|---|---|---|"
srcs=("$here"/test_kernels/*.cu "$here/tests/structures/thrust/thrust.cu")
for src in "${srcs[@]}"; do
  name=$(basename "$src" .cu)
  clang++-22 "${flags[@]}" -c "$src" -o /dev/null > "$out/$name.plain.log" 2>&1
  # shellcheck disable=SC2086 # flags, word by word
  "$build/bin/pasta-clang++" "${flags[@]}" ${PTXAS_TABLE_FLAGS:-} -c "$src" \
    -o /dev/null > "$out/$name.pasta.log" 2>&1
  python3 "$here/scripts/ptxas_table.py" "$out/$name.plain.log" \
    "$out/$name.pasta.log" "$name"
done
