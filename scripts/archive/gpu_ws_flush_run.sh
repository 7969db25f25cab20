#!/usr/bin/env bash
# One device call for issue [overhead-2] (run of 2026-11-26, second session):
#  1. scripts/gpu_ws_before_after.sh: working-set copies of this tree against
#     the earlier plugin's (results compared, kernel times), and this build's
#     working-set mode with one bank of page flags (PASTA_WS_PAGE_BANKS=1);
#  2. bench/gpu_flush_strategies.sh: the reduction's exit flush, written out
#     by hand in each way (bench/flush_strategies.cu);
#  3. scripts/gpu_ncu_source.sh: Nsight Compute's per-instruction view of
#     reduce_f32_kernel, plain and counting.
# Staging: scripts/stage_ws_before_after.sh <build of the earlier tree>; then
#   run(command="bash scripts/archive/gpu_ws_flush_run.sh", carry=["build-gpu"])
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT/flush" "$OUT/ncu"
WS_VARIANTS="plain pasta pasta-ws pasta-ws1bank before-ws" BENCH_S=${BENCH_S:-300} \
  bash scripts/gpu_ws_before_after.sh >"$OUT/ws_before_after.log" 2>&1
OUT=$OUT/flush TK_BENCH=20 timeout 120 bash bench/gpu_flush_strategies.sh \
  >"$OUT/flush.log" 2>&1
OUT=$OUT/ncu timeout 150 bash scripts/gpu_ncu_source.sh reduction reduce_f32 16777216 \
  >"$OUT/ncu.log" 2>&1
# The device tool brings back plain files of $OUT's top level only.
tar czf "$OUT/parts.tgz" -C "$OUT" flush ncu ws_before_after.log && rm -rf "$OUT/flush" "$OUT/ncu"
ls -la "$OUT"
