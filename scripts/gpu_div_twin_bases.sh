#!/usr/bin/env bash
# Divergence mode's twins (accesses at one index into different pointer
# arguments, measured once where the bases are a multiple of 32 bytes
# apart) on tests/gpu/div_twin_bases.cu, built by CMake as
# bin/kernels/div_twin_bases-div: one launch with cudaMalloc's bases, one
# with b and c moved off; the program must compute its results, and the
# figures of its three lines must be the ones its header derives by hand
# (b's sectors differ in the second launch). Staged with PASTA_STAGE_DIV=1
# scripts/stage_gpu.sh; scripts/gpu_divergence.sh runs it at its end.
# usage (GPU machine): bash scripts/gpu_div_twin_bases.sh; writes
# $OUT/div-twin-bases.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
. scripts/lib/gpu.sh
pasta_run_div_program div_twin_bases div-twin-bases
rc=$?
[ $rc -eq 127 ] && exit 1
prc=0
for spec in 34:1024 36:1280 37:1024; do
  line=line:div_twin_bases.cu:${spec%%:*}:divergence
  python3 tests/check_profile.py "$OUT/div-twin-bases.json" \
    $line.requests_global=256 $line.requested_bytes=32768 \
    $line.distinct_bytes_global=32768 $line.sectors=${spec#*:} \
    $line.ideal_sectors=1024 >> "$OUT/div-twin-bases.txt" || prc=1
done
cat "$OUT/div-twin-bases.txt"
grep -q "div_twin_bases: PASSED" "$OUT/div-twin-bases.txt" && [ $rc -eq 0 ] && [ $prc -eq 0 ]
