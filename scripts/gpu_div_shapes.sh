#!/usr/bin/env bash
# Divergence mode's general copy on tests/gpu/div_shapes.cu, built by CMake
# as bin/kernels/div_shapes-div: one kernel launched with blocks of 256 x 1,
# 16 x 4, 48 x 1 and 32 x 2. Its copy is a body for warps of one 32-lane
# row alone; the runtime must launch its general copy for the 16 x 4 blocks
# (host_rt/launch.c). The program must compute its results, and the figures
# of its two lines must be the ones its header derives by hand. With
# div_shapes-div-intest beside it (the same source built with
# -mllvm -pasta-div-host-general=0: the copy tests the row width itself),
# the two profiles must be equal. Staged with PASTA_STAGE_DIV=1
# scripts/stage_gpu.sh; scripts/gpu_divergence.sh runs it at its end.
# usage (GPU machine): bash scripts/gpu_div_shapes.sh; writes
# $OUT/div-shapes.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
. scripts/lib/gpu.sh
pasta_run_div_program div_shapes div-shapes
rc=$?
[ $rc -eq 127 ] && exit 1
prc=0
for l in 37 38; do
  line=line:div_shapes.cu:$l:divergence
  python3 tests/check_profile.py "$OUT/div-shapes.json" \
    $line.requests_global=2048 $line.requested_bytes=253952 \
    $line.distinct_bytes_global=188416 $line.sectors=5888 \
    $line.ideal_sectors=5888 >> "$OUT/div-shapes.txt" || prc=1
done
intest=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}/div_shapes-div-intest
if [ -x "$intest" ]; then
  PASTA_DIVERGENCE=1 PASTA_OUTPUT="$OUT/div-shapes-intest.json" "$intest" \
    >> "$OUT/div-shapes.txt" 2>&1 || prc=1
  python3 scripts/compare_profiles.py "$OUT/div-shapes-intest.json" \
    "$OUT/div-shapes.json" >> "$OUT/div-shapes.txt" 2>&1 || prc=1
fi
cat "$OUT/div-shapes.txt"
grep -q "div_shapes: PASSED" "$OUT/div-shapes.txt" && [ $rc -eq 0 ] && [ $prc -eq 0 ]
