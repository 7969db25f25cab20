#!/usr/bin/env bash
# The closing device call of issue [overhead-2]'s session of 2026-11-26
# (second): the working-set copies that read each page flag right after its
# access (__pasta_ws_peek) against the earlier tree, and the host time per
# launch.
#  1. scripts/gpu_ws_before_after.sh: working-set profiles of both trees
#     compared, kernel times (plain, counting, working-set mode of both),
#     Thrust's kernels under ncu;
#  2. scripts/gpu_ncu_source.sh: ncu's per-instruction view of vector_add's
#     working-set copy (PASTA_WORKING_SET=1) against its plain kernel;
#  3. scripts/gpu_launch_cost.sh: host time per launch, 9 interleaved runs.
# Staging (development machine):
#   (cd <earlier tree> && ninja -C build pasta pasta_rt pasta_rt_shared pasta_glue)
#   STAGE_OLD_RUNTIME=1 scripts/stage_ws_before_after.sh <earlier tree>/build
#   scripts/stage_launch_cost.sh
# then run(command="bash scripts/archive/gpu_ws_peek_run.sh",
#          carry=["build-gpu", "build-gpu-launch"])
# Results in $OUT: compare.txt, bench.md, thrust.md, device.txt, parts.tgz.
# SKIP_EXTRAS=1 leaves out parts 2 and 3.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT/ncu" "$OUT/lc"
bash scripts/gpu_ws_before_after.sh >"$OUT/ws_before_after.log" 2>&1
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ "${SKIP_EXTRAS:-0}" != 1 ]; then
  PASTA_WORKING_SET=1 OUT=$OUT/ncu timeout 120 bash scripts/gpu_ncu_source.sh \
    vector_add vector_add 67108864 >"$OUT/ncu.log" 2>&1
  OUT=$OUT/lc timeout 150 bash scripts/gpu_launch_cost.sh >"$OUT/lc.log" 2>&1
fi
# Whatever did not run (no ncu, a part skipped) is an empty file in parts.tgz.
touch "$OUT/ncu.log" "$OUT/lc.log" "$OUT/rest.tgz" "$OUT/ncu-vector_add.txt"
mkdir -p "$OUT/ncu" "$OUT/lc"
# The device tool brings back a few plain files of $OUT's top level only:
# the tables stay there, the rest goes into parts.tgz.
(cd "$OUT" && tar czf parts.tgz ncu lc ws_before_after.log ncu.log lc.log \
  rest.tgz ncu-vector_add.txt && rm -rf ncu lc ws_before_after.log ncu.log \
  lc.log rest.tgz ncu-vector_add.txt)
ls -la "$OUT"
