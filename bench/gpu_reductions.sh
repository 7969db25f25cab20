#!/usr/bin/env bash
# The counting maximum on a GPU (issue [overhead-3], lab
# docs/lab/2026-11-30-overhead3-65-reductions.md): plain / before / after
# builds staged by bench/stage_reductions.sh.
#   1. timing, ROUNDS rounds of plain, before, after, interleaved: the
#      suite's reduction (TK_BENCH=20, n = 2^24: reduce_f32's three launches,
#      reduce_f16's one; median of 20 event-timed runs each);
#   2. counts: the reduction's profiles, after against before
#      (compare_profiles.py --counts); Thrust's, after against before with
#      the values that differ between two runs of after left out (CUB's
#      radix-sort look-back polls);
#   3. ncu, the Thrust structure's short kernels (DeviceReduceSingleTileKernel,
#      DeviceReduceKernel, transform_kernel, DeviceRadixSortExclusiveSumKernel),
#      ROUNDS rounds of plain, before, after, and older where staged (a tree
#      before CUB's inline-PTX loads were counted), the closing run times
#      Thrust's kernels under ncu, one launch each: these rounds give their
#      spread;
#   4. ncu, one run each of the reduction (plain, before, after): time,
#      instructions and warps (instructions a warp), registers, issue activity;
#   5. where THRUST_ALL_ROUNDS > 0 (default 0): that many rounds of ncu over
#      every Thrust kernel (plain, before, after, older where staged), each
#      round's table by ncu_kernel_times.py (the closing run's "Thrust / CUB
#      kernels" geometric mean and maximum over the same kernels).
# usage (from the repository root, or any directory):
#   bash build-gpu/redux/run.sh   (run.sh: OUT=$OUT/redux this script)
# Scratch in $REDUX_SCRATCH (default /tmp/redux-gpu); everything it writes
# under $OUT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/redux-out}
ROUNDS=${ROUNDS:-3}
DEADLINE=${DEADLINE:-112} # seconds from the start: later parts are skipped
scratch=${REDUX_SCRATCH:-/tmp/redux-gpu}
rm -rf "$scratch" && mkdir -p "$scratch" "$OUT"
tar -xJf "$here/redux.txz" -C "$scratch"
bin=$scratch/redux
start=$SECONDS
left() { echo $((DEADLINE - (SECONDS - start))); }
log=$OUT/redux.log
exec > >(tee -a "$log") 2>&1
echo "# redux: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"

# 1. Timing, interleaved.
for r in $(seq 1 "$ROUNDS"); do
  for b in plain before after; do
    # Timing starts no round part after TIMING_UNTIL seconds (42: the
    # default DEADLINE less 70), leaving the ncu parts their time.
    [ $((SECONDS - start)) -lt "${TIMING_UNTIL:-42}" ] ||
      { echo "timing: deadline, round $r $b skipped"; continue; }
    d=$scratch/run-$b-$r && mkdir -p "$d"
    (cd "$d" && TK_BENCH=20 PASTA_OUTPUT=$d/red.json timeout 20 "$bin/red-$b" 16777216 2> red.err) |
      sed "s/^/round $r $b reduction: /" | grep -E "bench:|PASSED|FAILED"
    cp "$d/red.err" "$OUT/stderr-red-$b-$r.txt" 2> /dev/null
  done
done
python3 - "$log" > "$OUT/timing.md" << 'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"round (\d+) (\w+) reduction: bench: (\S+) .*median_us=([\d.]+)", line)
    if m:
        rows.setdefault(m.group(3), {}).setdefault(m.group(2), []).append(float(m.group(4)))
print("| kernel | plain (us) | before (us) | after (us) | before / plain | after / plain |")
print("|---|---|---|---|---|---|")
for what, by in rows.items():
    med = {b: statistics.median(v) for b, v in by.items()}
    cell = lambda b: " ".join("%.1f" % x for x in by.get(b, [])) + (" (%.1f)" % med[b] if b in med else "")
    ratio = lambda b: "%.3f" % (med[b] / med["plain"]) if b in med and med.get("plain") else "-"
    print("| %s | %s | %s | %s | %s | %s |" % (what, cell("plain"), cell("before"), cell("after"), ratio("before"), ratio("after")))
    # Each round's own ratios: the run-to-run spread.
    for b in ("before", "after"):
        if b in by and "plain" in by:
            print("| %s %s / plain, by round | %s | | | | |" % (what, b, " ".join(
                "%.3f" % (x / p) for x, p in zip(by[b], by["plain"]))))
PY
cat "$OUT/timing.md"

# 2. Counts: the reduction (after against before), Thrust (the same, with
# the values two runs of after differ in left out).
if [ -f "$scratch/run-before-1/red.json" ] && [ -f "$scratch/run-after-1/red.json" ]; then
  python3 "$bin/compare_profiles.py" --counts "$scratch/run-after-1/red.json" \
    "$scratch/run-before-1/red.json" > "$OUT/compare-reduction.txt" 2>&1
  echo "counts reduction after = before: exit $? ($(tail -n 1 "$OUT/compare-reduction.txt"))"
fi
d=$scratch/thrust && mkdir -p "$d"
(cd "$d" && timeout 20 "$bin/thrust-plain" > plain.out 2>&1)
for b in before after after2; do
  exe=$bin/thrust-${b%2}
  (cd "$d" && PASTA_OUTPUT=$d/$b.json timeout 20 "$exe" > "$b.out" 2> "$b.err")
  echo "thrust $b: exit $?, stdout $(cmp -s "$d/plain.out" "$d/$b.out" && echo "equal to plain's" || echo DIFFERS)"
done
cp "$d"/*.out "$d"/*.err "$OUT/" 2> /dev/null
python3 "$bin/compare_profiles.py" --counts "$d/after.json" "$d/before.json" "$d/after2.json" \
  > "$OUT/compare-thrust.txt" 2>&1
echo "counts thrust after = before (racy values left out): exit $? ($(tail -n 1 "$OUT/compare-thrust.txt"))"

# 3. and 4. Nsight Compute.
ncu_metrics=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_launched.sum,launch__registers_per_thread,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
ncu_run() { # label limit command...
  local label=$1 limit=$2
  shift 2
  [ "$(left)" -gt "$limit" ] || { echo "ncu $label: deadline, skipped"; return; }
  (cd "$scratch" && timeout "$limit" ncu --csv --metrics "$ncu_metrics" "$@" > "$OUT/ncu-$label.csv" 2> "$OUT/ncu-$label.err")
  echo "ncu $label: exit $?"
}
thrust_builds="plain before after"
[ -x "$bin/thrust-older" ] && thrust_builds="$thrust_builds older"
for r in $(seq 1 "$ROUNDS"); do
  for b in $thrust_builds; do
    ncu_run "thrust-$b-$r" 12 \
      -k 'regex:transform_kernel|DeviceReduceKernel|DeviceReduceSingleTileKernel|DeviceRadixSortExclusiveSumKernel' \
      "$bin/thrust-$b"
  done
done
# REDUCTION_NCU=0 leaves part 4 out (a run whose change leaves the
# reduction's PTX as it was).
for b in plain before after; do
  [ "${REDUCTION_NCU:-1}" != 0 ] || break
  ncu_run "red-$b" 12 -k 'regex:reduce_f' "$bin/red-$b" 16777216
done
# The per-kernel table: time, instructions a warp, registers, issue %.
python3 - "$OUT" > "$OUT/ncu.md" << 'PY'
import csv, glob, os, re, statistics, sys
out = sys.argv[1]
rows = {}  # (kernel, build) -> metric -> [values]
for path in sorted(glob.glob(os.path.join(out, "ncu-*.csv"))):
    m = re.match(r"ncu-(thrust|red)-(\w+?)(?:-(\d+))?\.csv", os.path.basename(path))
    if not m:
        continue
    lines = [l for l in open(path) if l.startswith('"')]
    for rec in csv.DictReader(lines):
        name = rec.get("Kernel Name", "")
        short = re.split(r"[<(]", name)[0].split("::")[-1].strip()
        key = (short, m.group(2))
        val = float(rec["Metric Value"].replace(",", "")) if rec.get("Metric Value") else 0.0
        by = rows.setdefault(key, {})
        by.setdefault(rec["Metric Name"], []).append(val)
print("| kernel | build | time (us), each launch | inst a warp | registers | issue active % |")
print("|---|---|---|---|---|---|")
for (k, b) in sorted(rows):
    v = rows[(k, b)]
    t = v.get("gpu__time_duration.sum", [])
    inst, warps = v.get("smsp__inst_executed.sum", []), v.get("sm__warps_launched.sum", [])
    ipw = " ".join("%.1f" % (i / w) for i, w in zip(inst, warps) if w) or "-"
    print("| %s | %s | %s (median %.2f) | %s | %s | %s |" % (
        k, b, " ".join("%.2f" % (x / 1000) for x in t), statistics.median(t) / 1000 if t else 0,
        ipw, " ".join("%g" % x for x in sorted(set(v.get("launch__registers_per_thread", [])))),
        " ".join("%.0f" % x for x in v.get("smsp__issue_active.avg.pct_of_peak_sustained_active", []))))
PY
cat "$OUT/ncu.md"
# 5. Every Thrust kernel, as the closing run times them.
for r in $(seq 1 "${THRUST_ALL_ROUNDS:-0}"); do
  csvs=""
  for b in $thrust_builds; do
    [ "$(left)" -gt 12 ] || { echo "ncu all-$b-$r: deadline, skipped"; continue; }
    (cd "$scratch" && timeout 12 ncu --csv --page raw --print-kernel-base mangled \
      --metrics gpu__time_duration.sum "$bin/thrust-$b" > "$OUT/all-$b-$r.csv" 2> "$OUT/all-$b-$r.err")
    echo "ncu all-$b-$r: exit $?"
    csvs="$csvs $OUT/all-$b-$r.csv"
  done
  # shellcheck disable=SC2086 # csvs: separate words, plain's first
  python3 "$bin/ncu_kernel_times.py" $csvs > "$OUT/thrust-all-$r.md" 2>&1
  echo "round $r ($thrust_builds):" && tail -n 8 "$OUT/thrust-all-$r.md"
done
echo "redux: done in $((SECONDS - start)) s"
