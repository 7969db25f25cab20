#!/usr/bin/env bash
# Divergence mode's one-lane copy on tests/gpu/div_one_lane.cu, built by
# CMake as bin/kernels/div_one_lane-div (and -div-off, the same source with
# -mllvm -pasta-div-one-lane=0): one kernel launched with blocks of one
# thread, which the runtime runs as its one-lane copy (host_rt/launch.c).
# The program must compute its results, the figures of its lines must be
# the ones its header derives by hand, and its profile must equal the -off
# build's (the divergence copy itself). scripts/gpu_divergence.sh runs it
# at its end.
# usage (GPU machine): bash scripts/gpu_div_one_lane.sh; writes
# $OUT/div-one-lane.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
. scripts/lib/gpu.sh
pasta_run_div_program div_one_lane div-one-lane
rc=$?
[ $rc -eq 127 ] && exit 1
prc=0
line=line:div_one_lane.cu
python3 tests/check_profile.py "$OUT/div-one-lane.json" \
  $line:36:divergence.requests_global=40 \
  $line:36:divergence.requested_bytes=160 \
  $line:36:divergence.distinct_bytes_global=160 \
  $line:36:divergence.sectors=40 $line:36:divergence.ideal_sectors=40 \
  $line:37:divergence.branches=40 $line:37:divergence.divergent_branches=0 \
  $line:38:divergence.requests_shared=13 \
  $line:38:divergence.requested_bytes=52 \
  $line:38:divergence.distinct_bytes_shared=52 \
  $line:38:divergence.bank_conflicts=0 \
  $line:41:divergence.requests_global=4 \
  $line:41:divergence.requested_bytes=16 $line:41:divergence.sectors=4 \
  >> "$OUT/div-one-lane.txt" || prc=1
off=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}/div_one_lane-div-off
if [ -x "$off" ]; then
  PASTA_DIVERGENCE=1 PASTA_OUTPUT="$OUT/div-one-lane-off.json" "$off" \
    >> "$OUT/div-one-lane.txt" 2>&1 || prc=1
  python3 scripts/compare_profiles.py "$OUT/div-one-lane-off.json" \
    "$OUT/div-one-lane.json" >> "$OUT/div-one-lane.txt" 2>&1 || prc=1
else
  echo "no $off" >> "$OUT/div-one-lane.txt"
  prc=1
fi
cat "$OUT/div-one-lane.txt"
grep -q "div_one_lane: PASSED" "$OUT/div-one-lane.txt" && [ $rc -eq 0 ] && [ $prc -eq 0 ]
