#!/usr/bin/env bash
# The GPU side of bench/stage_single_tile.sh (lab
# docs/lab/2026-11-30-overhead3-81-single-tile.md), run from the repository
# root on the GPU machine within about 115 s:
#  1. bench/gpu_thrust_rounds.sh (THRUST_REPEAT=5): Thrust's counts after =
#     before in counting and working-set mode, ncu instructions a warp of
#     CUB's DeviceReduce kernels and Onesweep, then rounds of plain / before
#     / after / plain again over every Thrust kernel until THRUST_DEADLINE
#     (default 70 s) and the pooled table;
#  2. the bundled programs of PROGRAMS, before against after: stdout and
#     profiles equal in counting and working-set mode
#     (scripts/gpu_compare_builds.sh), up to 20 s;
#  3. the same programs' kernel times, plain / before / after
#     (scripts/gpu_bench.sh, TK_BENCH=10), in the time left.
# Results under $OUT: thrust/ (rounds.log, thrust-pooled.md, inst.md, ...),
# compare-bundled.log, bench/bench.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/single-tile-out}
scratch=${SCRATCH:-/tmp/single-tile}
start=$SECONDS
rm -rf "$scratch" && mkdir -p "$scratch" "$OUT"
exec > >(tee -a "$OUT/run.log") 2>&1
OUT=$OUT/thrust SCRATCH=$scratch/thrust REPEAT=5 \
  DEADLINE=${THRUST_DEADLINE:-70} KEPT=0 bash "$here/gpu_thrust_rounds.sh"

tar -xJf "$here/kern.txz" -C "$scratch"
k=$scratch/kern
mkdir -p "$scratch/cmp/before" "$scratch/cmp/after"
for p in $PROGRAMS; do
  ln -s "$k/$p-before" "$scratch/cmp/before/$p-pasta"
  ln -s "$k/$p-after" "$scratch/cmp/after/$p-pasta"
done
OUT=$OUT timeout 20 bash scripts/gpu_compare_builds.sh "$scratch/cmp/before" \
  "$scratch/cmp/after" > "$OUT/compare-bundled.log" 2>&1
echo "bundled programs, before against after: exit $? ($(tail -n 1 "$OUT/compare-bundled.log"))"

left=$((112 - (SECONDS - start)))
if [ "$left" -gt 5 ]; then
  OUT=$OUT/bench PASTA_KERNEL_BIN=$k VARIANTS="plain before after" PROGRAMS="$PROGRAMS" \
    TK_BENCH=10 timeout "$left" bash scripts/gpu_bench.sh > "$OUT/bench.log" 2>&1
  echo "bundled kernel times: exit $? ($left s left)"
  cat "$OUT/bench/bench.md" 2> /dev/null || cat "$OUT/bench/bench.txt" 2> /dev/null
fi
echo "done in $((SECONDS - start)) s"
