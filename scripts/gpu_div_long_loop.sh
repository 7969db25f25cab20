#!/usr/bin/env bash
# Divergence mode's 32-bit loop registers on a loop that would overflow
# them (tests/gpu/div_long_loop.cu, built by CMake as
# bin/kernels/div_long_loop-div): the program must compute its result, and
# the gather's figures must be the ones its header derives by hand, more
# than 2^31 bytes among them. Staged with PASTA_STAGE_DIV=1
# scripts/stage_gpu.sh; scripts/gpu_divergence.sh runs it at its end.
# usage (GPU machine): bash scripts/gpu_div_long_loop.sh; writes
# $OUT/div-long-loop.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
. scripts/lib/gpu.sh
pasta_run_div_program div_long_loop div-long-loop
rc=$?
[ $rc -eq 127 ] && exit 1
line=line:div_long_loop.cu:39:divergence
python3 tests/check_profile.py "$OUT/div-long-loop.json" \
  $line.requests_global=10000001 $line.requested_bytes=2560000128 \
  $line.distinct_bytes_global=2560000128 $line.sectors=80000008 \
  $line.ideal_sectors=80000004 >> "$OUT/div-long-loop.txt"
prc=$?
cat "$OUT/div-long-loop.txt"
grep -q "div_long_loop: PASSED" "$OUT/div-long-loop.txt" && [ $rc -eq 0 ] && [ $prc -eq 0 ]
