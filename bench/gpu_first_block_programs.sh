#!/usr/bin/env bash
# Bundled programs whose counting PTX a first-block flush change alters
# (lud and nw by lab docs/lab/2026-11-30-overhead3-70-cub-tile-loops.md):
# plain / before / after builds staged by bench/stage_first_block_programs.sh,
#   1. timing: ROUNDS rounds of plain, before, after, interleaved, each
#      program at its benchmark size (TK_BENCH=5: median of 5 event-timed
#      runs of each of its bench labels);
#   2. counts: each program's profile, after against before, with the values
#      two runs of after differ in left out (compare_profiles.py --counts),
#      and every build's result line against plain's.
# usage: OUT=<dir> bash gpu_first_block_programs.sh  (scratch in
# $FB_SCRATCH, default /tmp/fb-gpu; everything it writes under $OUT).
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/fb-out}
ROUNDS=${ROUNDS:-2}
DEADLINE=${DEADLINE:-30} # seconds from the start: later runs are skipped
scratch=${FB_SCRATCH:-/tmp/fb-gpu}
rm -rf "$scratch" && mkdir -p "$scratch" "$OUT"
tar -xJf "$here/fb.txz" -C "$scratch"
bin=$scratch/fb
start=$SECONDS
log=$OUT/fb.log
exec > >(tee -a "$log") 2>&1
size() { awk -v k="$1" '$1 == k { print $2 }' "$bin/bench_sizes.txt"; }
for r in $(seq 1 "$ROUNDS"); do
  for k in $(cat "$bin/programs"); do
    for b in plain before after; do
      [ $((SECONDS - start)) -lt "$DEADLINE" ] ||
        { echo "round $r $k $b: deadline, skipped"; continue; }
      d=$scratch/$k-$b-$r && mkdir -p "$d"
      (cd "$d" && TK_BENCH=5 PASTA_OUTPUT=$d/p.json timeout 20 "$bin/$k-$b" "$(size "$k")" 2> err.txt) |
        sed "s/^/round $r $k $b: /" | grep -E "bench:|PASSED|FAILED"
    done
  done
done
python3 - "$log" > "$OUT/fb-timing.md" << 'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"round (\d+) (\w+) (\w+): bench: (.*?) runs=\S+ median_us=([\d.]+)", line)
    if m:
        rows.setdefault((m.group(2), m.group(4)), {}).setdefault(m.group(3), []).append(float(m.group(5)))
print("| program: bench label | plain (us) | before (us) | after (us) | before / plain | after / plain |")
print("|---|---|---|---|---|---|")
for (k, label), by in rows.items():
    med = {b: statistics.median(v) for b, v in by.items()}
    cell = lambda b: " ".join("%.1f" % x for x in by.get(b, [])) + (" (%.1f)" % med[b] if b in med else "")
    ratio = lambda b: "%.3f" % (med[b] / med["plain"]) if b in med and med.get("plain") else "-"
    print("| %s: %s | %s | %s | %s | %s | %s |" % (k, label, cell("plain"), cell("before"), cell("after"), ratio("before"), ratio("after")))
PY
cat "$OUT/fb-timing.md"
for k in $(cat "$bin/programs"); do
  a=$scratch/$k-after-1/p.json b=$scratch/$k-before-1/p.json a2=$scratch/$k-after-2/p.json
  [ -f "$a" ] && [ -f "$b" ] || { echo "counts $k: profiles missing"; continue; }
  [ -f "$a2" ] || a2=
  # shellcheck disable=SC2086 # a2: absent or one path
  python3 "$bin/compare_profiles.py" --counts "$a" "$b" $a2 > "$OUT/compare-$k.txt" 2>&1
  echo "counts $k after = before: exit $? ($(tail -n 1 "$OUT/compare-$k.txt"))"
done
echo "fb: done in $((SECONDS - start)) s"
