#!/usr/bin/env bash
# Design measurement for issue [overhead-2] on a GPU machine, nothing staged
# (nvcc builds it there): bench/ws_state_strategies.cu, vector_add's
# page-flag code written out by hand with the working-set launch state in
# global memory (today), as a by-value kernel parameter, or in __constant__
# memory; CUDA events, median of TK_BENCH runs, three repetitions; flags and
# sums checked in every mode.
# run(command="bash bench/gpu_ws_state_strategies.sh") -> $OUT/ws_state_strategies.md
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/gpu.sh
pasta_design_setup
"$NVCC" -O3 -arch=sm_90 -Itest_kernels -Xptxas -v -o "$W/ws_state_strategies" \
  bench/ws_state_strategies.cu >"$W/ptxas.txt" 2>&1 || { cat "$W/ptxas.txt"; exit 1; }
{
  echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo
  echo '```'
  grep -E 'Compiling entry|Used' "$W/ptxas.txt"
  for rep in 1 2 3; do
    echo "# repetition $rep"
    TK_BENCH=${TK_BENCH:-20} "$W/ws_state_strategies" 67108864
  done
  echo '```'
} 2>&1 | tee "$OUT/ws_state_strategies.md"
