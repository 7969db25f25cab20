#!/usr/bin/env bash
# Where histogram's divergence copy spends its time (bench/div_atomic_parts.cu):
# each part of the copy's loop written out by hand, alone and together, and
# the bin atomic's distinct bytes taken by redux.sync.or in place of
# match.any; every variant's figures checked against the CPU's. On a GPU
# machine, nothing staged:
#   run(command="bash bench/gpu_div_atomic_parts.sh") -> $OUT/div_atomic_parts.md
# RUNS (default 5): timed runs per variant (median, min).
# A staged copy (build-gpu/<dir>/, beside its .cu) runs from the repository
# root of a tree that lacks them.
set -uo pipefail
T=$(cd "$(dirname "$0")" && pwd)
[ -f "$T/../scripts/lib/gpu.sh" ] && cd "$T/.."
. scripts/lib/gpu.sh
pasta_design_setup
"$NVCC" -O3 -arch=sm_90 -Itest_kernels -o "$W/div_atomic_parts" "$T/div_atomic_parts.cu" || exit 1
{
  pasta_gpu_header
  echo
  TK_BENCH=${RUNS:-5} "$W/div_atomic_parts" ${DIV_ATOMIC_N:-268435456} > "$W/out.txt"
  status=$?
  grep -v '^bench:' "$W/out.txt"
  echo
  echo "| variant | median (us) | min (us) | vs plain |"
  echo "|---|---|---|---|"
  awk '/^bench:/ { split($4, m, "="); split($5, n, "="); if ($2 == "plain") p = m[2];
       printf "| %s | %.1f | %.1f | %.2fx |\n", $2, m[2], n[2], m[2] / p }' "$W/out.txt"
  echo
  echo "exit status $status"
} 2>&1 | tee "$OUT/div_atomic_parts.md"
