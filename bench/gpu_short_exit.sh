#!/usr/bin/env bash
# Short kernels' fixed counting cost on a GPU (issue [overhead-3],
# docs/lab/2026-11-30-overhead3-58-short-kernels-exit.md): plain / before /
# after builds staged by bench/stage_short_exit.sh, in interleaved rounds,
# counts checked, then Nsight Compute's split (instructions per warp,
# registers, issue activity) and the SASS of the counting copies.
#   1. timing, ROUNDS rounds of plain, before, after each:
#      the suite's reduction (TK_BENCH=20, n = 2^24: reduce_f32's three
#      launches and reduce_f16's one), its histogram (an int grid-stride
#      loop; 2^26 bytes) and bench/grid_stride.cu (GUPS's init and check shapes, 2^26
#      elements; its empty launch: the fixed cost);
#   2. counts: tests/structures/gridstride (plain, before, after: stdout
#      equal, profiles against the hand-derived counts), grid_stride's
#      profiles (before, after) against its EXPECT lines, histogram's
#      after against before (compare_profiles.py --counts);
#   3. ncu, one run each: grid_stride and the reduction (plain, before,
#      after), the Thrust structure's kernels above 1.2x (plain, before,
#      after), metrics of ncu_metrics below;
#   4. cuobjdump -sass of every build (counted afterwards on a development
#      machine).
# usage (from the repository root, or any directory):
#   bash build-gpu/short/run.sh   (run.sh: OUT=$OUT/short this script)
# Scratch in /tmp/short-gpu; everything it writes under $OUT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/short-out}
ROUNDS=${ROUNDS:-3}
DEADLINE=${DEADLINE:-110} # seconds from the start: later parts are skipped
scratch=/tmp/short-gpu
rm -rf "$scratch" && mkdir -p "$scratch" "$OUT"
tar -xJf "$here/short.txz" -C "$scratch"
bin=$scratch/short
start=$SECONDS
left() { echo $((DEADLINE - (SECONDS - start))); }
log=$OUT/short.log
exec > >(tee -a "$log") 2>&1
echo "# short: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"

# 1. Timing, interleaved.
for r in $(seq 1 "$ROUNDS"); do
  for b in plain before after; do
    [ "$(left)" -gt 30 ] || { echo "timing: deadline, round $r $b skipped"; continue; }
    d=$scratch/run-$b-$r && mkdir -p "$d"
    (cd "$d" && TK_BENCH=20 PASTA_OUTPUT=$d/red.json timeout 30 "$bin/red-$b" 16777216 2> red.err) |
      sed "s/^/round $r $b reduction: /" | grep -E "bench:|PASSED|FAILED"
    (cd "$d" && PASTA_OUTPUT=$d/gs.json timeout 30 "$bin/gs-$b" 26 20 2> gs.err) |
      sed "s/^/round $r $b /" | grep -E "grid_stride:"
    (cd "$d" && TK_BENCH=20 PASTA_OUTPUT=$d/hist.json timeout 30 "$bin/hist-$b" 67108864 2> hist.err) |
      sed "s/^/round $r $b reduction: /" | grep -E "bench:|PASSED|FAILED"
    cat "$d"/*.err > "$OUT/stderr-$b-$r.txt" 2> /dev/null
  done
done

# The medians by build, round after round, and their median over the rounds.
python3 - "$log" > "$OUT/timing.md" << 'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"round (\d+) (\w+) (?:reduction: bench: (\S+) .*median_us=([\d.]+)|grid_stride: (\S+ \S+) median_us=([\d.]+))", line)
    if m:
        what = m.group(3) or m.group(5)
        rows.setdefault(what, {}).setdefault(m.group(2), []).append(float(m.group(4) or m.group(6)))
print("| kernel | plain (us) | before (us) | after (us) | before / plain | after / plain |")
print("|---|---|---|---|---|---|")
for what, by in rows.items():
    med = {b: statistics.median(v) for b, v in by.items()}
    cell = lambda b: " ".join("%.1f" % x for x in by.get(b, [])) + (" (%.1f)" % med[b] if b in med else "")
    ratio = lambda b: "%.3f" % (med[b] / med["plain"]) if b in med and "plain" in med and med["plain"] else "-"
    print("| %s | %s | %s | %s | %s | %s |" % (what, cell("plain"), cell("before"), cell("after"), ratio("before"), ratio("after")))
PY
cat "$OUT/timing.md"

# 2. Counts.
check() { # name profile expectations
  python3 "$bin/check_structure.py" "$2" "$3" --mode return > "$OUT/check-$1.txt" 2>&1
  echo "counts $1: $(tail -n 1 "$OUT/check-$1.txt")"
}
for b in before after; do
  [ -f "$scratch/run-$b-1/gs.json" ] && check "grid_stride-$b" "$scratch/run-$b-1/gs.json" "$bin/grid_stride.cu"
done
# histogram's loop (an int index) is the first thread's after, not before:
# its profile must be the same.
if [ -f "$scratch/run-before-1/hist.json" ] && [ -f "$scratch/run-after-1/hist.json" ]; then
  python3 "$bin/compare_profiles.py" --counts "$scratch/run-before-1/hist.json" \
    "$scratch/run-after-1/hist.json" > "$OUT/compare-histogram.txt" 2>&1
  echo "counts histogram before = after: exit $? ($(tail -n 1 "$OUT/compare-histogram.txt"))"
fi
d=$scratch/st && mkdir -p "$d"
(cd "$d" && timeout 20 "$bin/st-plain" > plain.out 2>&1)
for b in before after; do
  (cd "$d" && PASTA_OUTPUT=$d/$b.json timeout 20 "$bin/st-$b" > $b.out 2> $b.err)
  echo "gridstride $b: exit $?, stdout $(cmp -s "$d/plain.out" "$d/$b.out" && echo "equal to plain's" || echo DIFFERS)"
  check "gridstride-$b" "$d/$b.json" "$bin/gridstride.cu"
  cp "$d/$b.err" "$OUT/gridstride-$b.err"
done

# 3. Nsight Compute.
ncu_metrics=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_launched.sum,launch__registers_per_thread,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers
ncu_run() { # label limit command...
  local label=$1 limit=$2
  shift 2
  [ "$(left)" -gt "$limit" ] || { echo "ncu $label: deadline, skipped"; return; }
  (cd "$scratch" && timeout "$limit" ncu --csv --metrics "$ncu_metrics" "$@" > "$OUT/ncu-$label.csv" 2> "$OUT/ncu-$label.err")
  echo "ncu $label: exit $?"
}
for b in plain before after; do
  ncu_run "gs-$b" 12 -k 'regex:fill_ids|count_wrong' "$bin/gs-$b" 26 1
done
for b in plain before after; do
  ncu_run "red-$b" 12 -k 'regex:reduce_f' "$bin/red-$b" 16777216
done
for b in plain before after; do
  LD_LIBRARY_PATH=$bin/lib-$b ncu_run "thrust-$b" 15 \
    -k 'regex:transform_kernel|DeviceReduceKernel|DeviceReduceSingleTileKernel|DeviceRadixSortExclusiveSumKernel' \
    "$bin/thrust-$b"
done

# 4. SASS.
mkdir -p "$OUT/sass"
for p in red-plain red-before red-after gs-plain gs-before gs-after hist-before hist-after; do
  cuobjdump -sass "$bin/$p" > "$OUT/sass/$p.sass" 2>&1
done
echo "short: done in $((SECONDS - start)) s"
