#!/usr/bin/env bash
# Design measurement for issue [overhead-2]'s trace-mode target, on a GPU
# machine, nothing staged (nvcc builds the program there):
# bench/trace_readback_strategies.cu, the ways of reading a traced
# launch's records back side by side on many short launches, at two kernel
# sizes, three repetitions each.
# run(command="bash bench/gpu_trace_readback.sh") -> $OUT/trace_readback.md
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/gpu.sh
pasta_design_setup
"$NVCC" -O2 -arch=sm_90 -Itest_kernels -o "$W/trace_readback" bench/trace_readback_strategies.cu || exit 1
status=0
{
  pasta_gpu_header
  echo
  echo '```'
  for elements in 1048576 4194304; do
    for rep in 1 2 3; do
      echo "# elements $elements, repetition $rep (pinned to CPU 2)"
      taskset -c 2 "$W/trace_readback" 2000 "$elements" || status=1
    done
  done
  echo '```'
} 2>&1 | tee "$OUT/trace_readback.md"
exit $status
