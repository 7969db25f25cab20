#!/usr/bin/env bash
# The GPU side of bench/stage_single_tile.sh (lab
# docs/lab/2026-11-30-overhead3-81-single-tile.md), run from the repository
# root on the GPU machine within about 115 s:
#  1. bench/gpu_thrust_rounds.sh (THRUST_REPEAT=5): Thrust's counts after =
#     before in counting and working-set mode, ncu instructions a warp of
#     CUB's DeviceReduce kernels and Onesweep, then rounds of plain / before
#     / after / plain again over every Thrust kernel until THRUST_DEADLINE
#     (default 80 s) and the pooled table;
#  2. the bundled programs of PROGRAMS, before against after: stdout and
#     profiles equal in counting and working-set mode
#     (scripts/gpu_compare_builds.sh), up to 15 s;
#  3. the same programs' kernel times, plain / before / after
#     (scripts/gpu_bench.sh, TK_BENCH=5), one program at a time in the
#     order of PROGRAMS while time is left.
# Results under $OUT: thrust/ (rounds.log, thrust-pooled.md, inst.md, ...),
# compare-bundled.log, compare/, bench-<program>/bench.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/single-tile-out}
scratch=${SCRATCH:-/tmp/single-tile}
start=$SECONDS
rm -rf "$scratch" && mkdir -p "$scratch" "$OUT"
exec > >(tee -a "$OUT/run.log") 2>&1
OUT=$OUT/thrust SCRATCH=$scratch/thrust REPEAT=5 INST_LEFT=30 \
  DEADLINE=${THRUST_DEADLINE:-80} KEPT=0 bash "$here/gpu_thrust_rounds.sh"

tar -xJf "$here/kern.txz" -C "$scratch"
k=$scratch/kern
mkdir -p "$scratch/cmp/before" "$scratch/cmp/after"
for p in $PROGRAMS; do
  ln -s "$k/$p-before" "$scratch/cmp/before/$p-pasta"
  ln -s "$k/$p-after" "$scratch/cmp/after/$p-pasta"
done
OUT=$OUT timeout 15 bash scripts/gpu_compare_builds.sh "$scratch/cmp/before" \
  "$scratch/cmp/after" > "$OUT/compare-bundled.log" 2>&1
echo "bundled programs, before against after: exit $? ($(tail -n 1 "$OUT/compare-bundled.log"))"

# One program at a time, in the order of PROGRAMS, while time is left.
for p in $PROGRAMS; do
  left=$((112 - (SECONDS - start)))
  [ "$left" -gt 4 ] || { echo "bench $p: no time left"; continue; }
  OUT=$OUT/bench-$p PASTA_KERNEL_BIN=$k VARIANTS="plain before after" PROGRAMS=$p \
    TK_BENCH=5 timeout "$left" bash scripts/gpu_bench.sh > "$OUT/bench-$p.log" 2>&1
  echo "bench $p: exit $?" && cat "$OUT/bench-$p/bench.txt" 2> /dev/null
done
echo "done in $((SECONDS - start)) s"
