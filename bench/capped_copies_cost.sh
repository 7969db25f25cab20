#!/usr/bin/env bash
# What the register-capped counting copies (<k>__pasta_capped,
# passes/CappedCopies.cpp) cost to compile: for each bundled program
# (test_kernels/*.cu) and the Thrust structure, the instrumented device code
# as PTX with the copies (-pasta-capped-copies=1, the default) and with
# stubs only (=0), then ptxas -O3 -arch=sm_90 on each, ROUNDS times: the
# median user + system seconds, the PTX and cubin bytes, and how many
# kernels got a real copy (.maxnreg 64) or a stub (.maxntid 1). Prints a
# Markdown table and the totals.
# usage: bench/capped_copies_cost.sh [ROUNDS] [WORKDIR]   (default 3, /tmp/capped_cost)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${PASTA_BUILD_DIR:-$here/build}
rounds=${1:-3} work=${2:-/tmp/capped_cost}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
mkdir -p "$work"
flags=(-x cuda -O2 -g --cuda-path="$cuda" --offload-arch=sm_90
  -Wno-unknown-cuda-version --cuda-device-only -S -I"$here/test_kernels"
  -isystem "$cuda/include/cccl")
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cpu() { # user + system seconds of ptxas on PTX $1
  /usr/bin/time -f "%U %S" -o "$work/time" "$cuda/bin/ptxas" -O3 -arch=sm_90 \
    "$1" -o "${1%.ptx}.cubin"
  awk '{ printf "%.2f\n", $1 + $2 }' "$work/time"
}
echo "| program | kernels: copies / stubs | ptxas s (stubs -> copies) | PTX KiB | cubin KiB |"
echo "|---|---|---|---|---|"
tot=(0 0 0 0 0 0)
for src in "$here"/test_kernels/*.cu "$here/tests/structures/thrust/thrust.cu"; do
  name=$(basename "$src" .cu)
  declare -A t=() ptx=() cub=()
  for on in 0 1; do
    out=$work/$name.$on.ptx
    "$build/bin/pasta-clang++" "${flags[@]}" -mllvm -pasta-capped-copies=$on \
      "$src" -o "$out" 2> "$work/$name.$on.log" ||
      { echo "capped_copies_cost: $name failed (see $work/$name.$on.log)" >&2; exit 1; }
    t[$on]=$(for ((r = 0; r < rounds; ++r)); do cpu "$out"; done | median)
    ptx[$on]=$(stat -c %s "$out")
    cub[$on]=$(stat -c %s "${out%.ptx}.cubin")
  done
  # The directives between each capped entry's name and its body.
  directives=$(awk '/^\.visible \.entry .*__pasta_capped\(/ { e = 1; next }
    e && /^\{/ { e = 0 } e && /^\.(maxnreg|maxntid)/ { print $1, $2 }' \
    "$work/$name.1.ptx")
  copies=$(grep -c '^\.maxnreg 64$' <<< "$directives" || true)
  stubs=$(grep -c '^\.maxntid 1$' <<< "$directives" || true)
  printf '| %s | %s / %s | %s -> %s | %d -> %d | %d -> %d |\n' "$name" "$copies" \
    "$stubs" "${t[0]}" "${t[1]}" $((ptx[0] / 1024)) $((ptx[1] / 1024)) \
    $((cub[0] / 1024)) $((cub[1] / 1024))
  tot=($(echo "${tot[*]} ${t[0]} ${t[1]} ${ptx[0]} ${ptx[1]} ${cub[0]} ${cub[1]}" |
    awk '{ for (i = 1; i <= 6; ++i) printf "%s ", $i + $(i + 6) }'))
done
awk -v a="${tot[0]}" -v b="${tot[1]}" -v c="${tot[2]}" -v d="${tot[3]}" \
  -v e="${tot[4]}" -v f="${tot[5]}" 'BEGIN {
  printf "| total | | %.2f -> %.2f (%.2fx) | %d -> %d (%.2fx) | %d -> %d (%.2fx) |\n",
    a, b, b / a, c / 1024, d / 1024, d / c, e / 1024, f / 1024, f / e }'
