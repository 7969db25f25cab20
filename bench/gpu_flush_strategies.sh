#!/usr/bin/env bash
# Design measurements for issue [overhead-2], on a GPU machine, nothing staged
# (nvcc builds both programs there):
#  1. bench/flush_strategies.cu: the reduction with each way of
#     flushing its six bit counters at exit (docs/lab/2026-11-23-overhead2-2-flushing-counts-at-exit.md), CUDA events, median of TK_BENCH runs, counts checked;
#  2. test_kernels/launch_overhead.cu (plain): the launch wrapper's vendor
#     calls, each alone (TK_CALL_COST), and the launch loop's host time
#     against the loop plus the final wait.
# run(command="bash bench/gpu_flush_strategies.sh") -> $OUT/flush_strategies.md
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/gpu.sh
pasta_design_setup
"$NVCC" -O3 -arch=sm_90 -Itest_kernels -o "$W/flush_strategies" bench/flush_strategies.cu || exit 1
"$NVCC" -O2 -arch=sm_90 -Itest_kernels -o "$W/launch_overhead" test_kernels/launch_overhead.cu || exit 1
{
  pasta_gpu_header
  echo
  echo '```'
  for rep in 1 2 3; do
    echo "# repetition $rep"
    TK_BENCH=${TK_BENCH:-20} "$W/flush_strategies" 16777216
  done
  echo
  for rep in 1 2 3; do
    echo "# launch_overhead repetition $rep (pinned to CPU 2)"
    TK_BENCH=1 TK_CALL_COST=1 taskset -c 2 "$W/launch_overhead" 20000
  done
  echo '```'
} 2>&1 | tee "$OUT/flush_strategies.md"
