#!/usr/bin/env bash
# Compile time of one CUDA source, plain against instrumented builds, in
# turn (plain, plugin 1, plugin 2, ...; ROUNDS times), as user + system
# seconds of the whole clang process (front end, optimizer, PASTA, code
# generation, ptxas, host side): on a shared machine CPU time is steadier
# than wall time. Prints each build's median and its ratio to plain.
# usage: compile_pairs.sh ROUNDS SOURCE.cu PLUGIN.so [PLUGIN.so...]
#   (PASTA_* variables in the environment reach every instrumented build;
#   EXTRA_FLAGS, e.g. -Itest_kernels, reaches every build; SETTINGS, e.g.
#   "PASTA_VARIANTS=plain PASTA_VARIANTS=0", adds one build per plugin and
#   setting, in the same rounds; a setting's comma-separated parts that
#   start with "-" are compiler flags, the others variables, e.g.
#   "PASTA_CAPPED_COPIES=0,--ptxas-path=$PWD/bench/ptxas_stub_copies.sh")
set -euo pipefail
rounds=$1 src=$2
shift 2
flags=(-x cuda --cuda-path=/usr/local/cuda --offload-arch=sm_90
       -Wno-unknown-cuda-version -O2 -gline-tables-only -c -o /dev/null
       ${EXTRA_FLAGS:-})
cpu() { # user + system seconds of one compile (the setting's parts first)
  local envs=() extra=() part
  IFS=, read -ra parts <<< "$setting"
  for part in "${parts[@]}"; do
    if [[ $part == -* ]]; then extra+=("$part"); else envs+=("$part"); fi
  done
  /usr/bin/time -f "%U %S" -o /tmp/compile_pairs.$$ env "${envs[@]}" \
    clang++-22 "${flags[@]}" "${extra[@]}" "$@" > /dev/null 2>&1 ||
    { echo "compile_pairs: failed: $setting $*" >&2; exit 1; }
  awk '{ printf "%.2f\n", $1 + $2 }' /tmp/compile_pairs.$$
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A times
builds=()
for p in "$@"; do
  builds+=("$p")
  for s in ${SETTINGS:-}; do builds+=("$s@$p"); done
done
for ((r = 0; r < rounds; ++r)); do
  setting=
  times[plain]+="$(cpu "$src") "
  for b in "${builds[@]}"; do
    setting=; p=$b
    [[ $b == *@* ]] && { setting=${b%%@*}; p=${b#*@}; }
    times[$b]+="$(cpu -fpass-plugin="$p" "$src") "
  done
done
rm -f /tmp/compile_pairs.$$
base=$(echo "${times[plain]}" | tr ' ' '\n' | grep . | median)
echo "$(basename "$src") plain: ${base} s (${times[plain]% })"
for p in "${builds[@]}"; do
  m=$(echo "${times[$p]}" | tr ' ' '\n' | grep . | median)
  awk -v p="$p" -v m="$m" -v b="$base" -v all="${times[$p]% }" \
    'BEGIN { printf "  %s: %.2f s, %.2fx (%s)\n", p, m, m / b, all }'
done
