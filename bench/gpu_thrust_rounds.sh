#!/usr/bin/env bash
# The Thrust/CUB counting table in rounds (issue [overhead-3], lab
# docs/lab/2026-11-30-overhead3-74-cub-exits.md): the builds staged by
# bench/stage_reductions.sh (redux.txz: thrust-plain, -before, -after,
# compare_profiles.py, ncu_kernel_times.py), on the GPU machine.
#   1. counts: Thrust's profiles, after against before, counting and
#      working-set mode (the values two runs of after differ in, CUB's
#      radix-sort look-back polls, left out), stdout against plain's;
#   2. ncu, instructions a warp and registers of CUB's DeviceReduce
#      kernels (DeviceReduceKernel, DeviceReduceSingleTileKernel) and
#      Onesweep (one run each of plain, before, after);
#   3. rounds of ncu over every Thrust kernel, plain / before / after /
#      plain again, each run doing Thrust's work THRUST_REPEAT=REPEAT times
#      (a kernel's time: the median of its launches): each round's table
#      (ncu_kernel_times.py --median), then all rounds' launches pooled.
#      "plain again" against plain is the noise floor of the figure. New
#      rounds start while the last round's time is left before DEADLINE;
#   4. KEPT=1: then one round of plain / before / after with ncu's
#      --cache-control none (caches kept between kernels).
# usage: OUT=<dir> [REPEAT=5] [DEADLINE=110] [KEPT=0] [SCRATCH=/tmp/thrust-rounds]
#          [INST_LEFT=60: part 2 runs while more seconds than this are left]
#          bash gpu_thrust_rounds.sh   (beside redux.txz)
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/thrust-rounds-out}
REPEAT=${REPEAT:-5}
DEADLINE=${DEADLINE:-110}
scratch=${SCRATCH:-/tmp/thrust-rounds}
rm -rf "$scratch" && mkdir -p "$scratch" "$OUT"
tar -xJf "$here/redux.txz" -C "$scratch"
bin=$scratch/redux
start=$SECONDS
left() { echo $((DEADLINE - (SECONDS - start))); }
exec > >(tee -a "$OUT/rounds.log") 2>&1
echo "# thrust rounds: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"

# 1. Counts, counting and working-set mode.
d=$scratch/counts && mkdir -p "$d"
(cd "$d" && timeout 20 "$bin/thrust-plain" > plain.out 2>&1)
for mode in count ws; do
  ws=0 && [ "$mode" = ws ] && ws=1
  for b in before after after2; do
    (cd "$d" && PASTA_WORKING_SET=$ws PASTA_OUTPUT=$d/$mode-$b.json timeout 20 \
      "$bin/thrust-${b%2}" > "$mode-$b.out" 2> "$mode-$b.err")
    echo "thrust $mode $b: exit $?, stdout $(cmp -s "$d/plain.out" "$d/$mode-$b.out" && echo "equal to plain's" || echo DIFFERS)"
  done
  python3 "$bin/compare_profiles.py" --counts "$d/$mode-after.json" "$d/$mode-before.json" \
    "$d/$mode-after2.json" > "$OUT/compare-$mode.txt" 2>&1
  echo "$mode: thrust after = before (racy values left out): exit $? ($(tail -n 1 "$OUT/compare-$mode.txt"))"
done
cp "$d"/*.err "$OUT/" 2> /dev/null

# 2. Instructions a warp and registers of the kernels whose flush changed.
for b in plain before after; do
  [ "$(left)" -gt "${INST_LEFT:-60}" ] || { echo "ncu inst-$b: deadline, skipped"; continue; }
  (cd "$scratch" && timeout 15 ncu --csv -k 'regex:DeviceReduce|Onesweep' --metrics \
    gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_launched.sum,launch__registers_per_thread \
    "$bin/thrust-$b" > "$OUT/inst-$b.csv" 2> "$OUT/inst-$b.err")
  echo "ncu inst-$b: exit $?"
done
python3 - "$OUT" > "$OUT/inst.md" << 'PY'
import csv, glob, os, re, sys
print("| kernel | build | launch | time (us) | inst a warp | registers |")
print("|---|---|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "inst-*.csv"))):
    build = os.path.basename(path)[5:-4]
    lines = [l for l in open(path) if l.startswith('"')]
    launches = {}
    for rec in csv.DictReader(lines):
        key = (re.split(r"[<(]", rec["Kernel Name"])[0].split("::")[-1], rec["ID"])
        val = rec["Metric Value"].replace(",", "")
        launches.setdefault(key, {})[rec["Metric Name"]] = float(val) if val else 0.0
    for (k, i), v in launches.items():
        w = v.get("sm__warps_launched.sum", 0)
        print("| %s | %s | %s | %.2f | %.1f | %g |" % (
            k, build, i, v.get("gpu__time_duration.sum", 0) / 1000,
            v.get("smsp__inst_executed.sum", 0) / w if w else 0,
            v.get("launch__registers_per_thread", 0)))
PY
cat "$OUT/inst.md"

# 3. Rounds of every kernel, THRUST_REPEAT=REPEAT runs each.
builds="plain before after plain2"
round_s=0 r=0
# With KEPT=1, from the third round on one round's time stays for part 4.
reserve() { [ "${KEPT:-0}" = 1 ] && [ "$r" -ge 2 ] && echo "$round_s" || echo 0; }
while [ "$(left)" -gt $((round_s + $(reserve) + 5)) ]; do
  r=$((r + 1)) && t0=$SECONDS
  for b in $builds; do
    (cd "$scratch" && THRUST_REPEAT=$REPEAT timeout 30 ncu --csv --page raw \
      --print-kernel-base mangled --metrics gpu__time_duration.sum \
      "$bin/thrust-${b%2}" > "$OUT/all-$b-$r.csv" 2> "$OUT/all-$b-$r.err")
    echo "ncu all-$b-$r: exit $? ($((SECONDS - t0)) s into the round)"
  done
  round_s=$((SECONDS - t0))
  python3 "$bin/ncu_kernel_times.py" --median "$REPEAT" "$OUT/all-plain-$r.csv" \
    "$OUT/all-before-$r.csv" "$OUT/all-after-$r.csv" "$OUT/all-plain2-$r.csv" \
    > "$OUT/thrust-round-$r.md" 2>&1
  echo "round $r ($round_s s):" && tail -n 3 "$OUT/thrust-round-$r.md"
  # No kernel timed in plain's run (no GPU, no ncu): no more rounds.
  grep -q gpu__time_duration "$OUT/all-plain-$r.csv" 2> /dev/null || break
done
join() { # build: its rounds' logs joined by "+"
  local b=$1 s="" i
  for i in $(seq 1 "$r"); do s="$s${s:++}$OUT/all-$b-$i.csv"; done
  echo "$s"
}
[ "$r" -gt 0 ] && python3 "$bin/ncu_kernel_times.py" --median "$REPEAT" "$(join plain)" \
  "$(join before)" "$(join after)" "$(join plain2)" > "$OUT/thrust-pooled.md" 2>&1
echo "pooled, $r rounds of $REPEAT runs:" && cat "$OUT/thrust-pooled.md"

# 4. KEPT=1: one more round with ncu's --cache-control none (caches kept
# between kernels, as in a run without the profiler): how much of the
# added time is the counters' cold lines under ncu's cache flush.
if [ "${KEPT:-0}" = 1 ] && [ "$r" -gt 0 ] && [ "$(left)" -gt $((round_s * 3 / 4)) ]; then
  for b in plain before after; do
    (cd "$scratch" && THRUST_REPEAT=$REPEAT timeout 30 ncu --csv --page raw \
      --cache-control none --print-kernel-base mangled --metrics gpu__time_duration.sum \
      "$bin/thrust-$b" > "$OUT/kept-$b.csv" 2> "$OUT/kept-$b.err")
    echo "ncu kept-$b: exit $?"
  done
  python3 "$bin/ncu_kernel_times.py" --median "$REPEAT" "$OUT/kept-plain.csv" \
    "$OUT/kept-before.csv" "$OUT/kept-after.csv" > "$OUT/thrust-kept.md" 2>&1
  echo "caches kept:" && cat "$OUT/thrust-kept.md"
fi
echo "thrust rounds: done in $((SECONDS - start)) s"
