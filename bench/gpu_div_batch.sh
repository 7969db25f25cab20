#!/usr/bin/env bash
# -pasta-div-batch on the GPU (staged by bench/stage_div_batch.sh): `myocyte
# 12`'s divergence builds before (one call per access) and with batched
# calls (bin/myocyte12-div-NAME, one per staged variant) print the plain
# build's checksum and bits, their profiles equal the before build's
# (compare_profiles.py), and Nsight Compute times each build's 11 launches
# (gpu__time_duration.sum; the divergence builds launch the capped copy
# __pasta_div). With cuobjdump, each divergence build's SASS is summed up
# per function (instructions, CALLs) and its access helpers' SASS kept.
# Results in $OUT: batch.txt (outputs, profile comparisons, times), the
# profiles, ncu's CSV, sass-*.txt.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT" bin
tar xJf bin.txz -C bin
NCU=${NCU:-/usr/local/cuda/bin/ncu}
[ -x "$NCU" ] || NCU=$(command -v ncu || echo ncu)
CUOBJDUMP=${CUOBJDUMP:-/usr/local/cuda/bin/cuobjdump}
variants=$(cd bin && ls myocyte12-div-* | sed 's/^myocyte12-div-//' | grep -vx before)
status=0
{
  cat commits
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  bin/myocyte12.plain > "$OUT/plain.out" 2>&1 || status=1
  echo "plain: $(tr '\n' ' ' < "$OUT/plain.out")"
  for b in before $variants; do
    runs=1; [ $b = before ] && runs=2
    for r in $(seq $runs); do
      PASTA_DIVERGENCE=1 PASTA_OUTPUT="$OUT/$b.$r.json" bin/myocyte12-div-$b \
        > "$OUT/$b.$r.out" 2> "$OUT/$b.$r.err" || { echo "$b: rc $?"; status=1; }
      cmp -s "$OUT/plain.out" "$OUT/$b.$r.out" &&
        echo "$b run $r: output as plain" ||
        { echo "$b run $r: output differs from plain"; status=1; }
      grep "pasta: warning" "$OUT/$b.$r.err" && status=1
    done
    rm -f "$OUT"/$b.*.roofline.svg
  done
  for b in $variants; do
    python3 compare_profiles.py "$OUT/before.1.json" "$OUT/$b.1.json" \
      "$OUT/before.2.json" > "$OUT/$b-compare.txt" 2>&1 &&
      echo "$b: profile equal to before" ||
      { echo "$b: profile differs from before"; cat "$OUT/$b-compare.txt"; status=1; }
  done
  for b in plain before $variants; do
    exe=bin/myocyte12-div-$b; [ $b = plain ] && exe=bin/myocyte12.plain
    PASTA_DIVERGENCE=1 PASTA_OUTPUT=/dev/null PASTA_QUIET=1 timeout 25 \
      "$NCU" --csv --clock-control none --metrics gpu__time_duration.sum \
      -k regex:myocyte "$exe" > "$OUT/ncu-$b.csv" 2>&1 || { echo "ncu $b failed"; status=1; }
    python3 - "$OUT/ncu-$b.csv" "$b" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit(print(sys.argv[2], "no ncu rows"))
head = rows[0]
k, u, v = head.index("Kernel Name"), head.index("Metric Unit"), head.index("Metric Value")
t = [float(r[v].replace(",", "")) for r in rows[1:]]
names = sorted({r[k] for r in rows[1:]})
unit = rows[1][u]
print(f"{sys.argv[2]}: {len(t)} launches, median {statistics.median(t):.1f} {unit}, "
      f"min {min(t):.1f}, max {max(t):.1f}; kernels {names}; all: {t}")
PY
  done
  if [ -x "$CUOBJDUMP" ]; then
    for b in before $variants; do
      "$CUOBJDUMP" -sass bin/myocyte12-div-$b > "$OUT/sass-all.tmp" 2>&1
      python3 - "$OUT/sass-all.tmp" "$OUT/sass-$b.txt" "$b" <<'PY'
import re, sys
fn, count, calls, keep, kept = None, {}, {}, [], False
for line in open(sys.argv[1]):
    if m := re.match(r"\s+Function : (\S+)", line):
        fn = m.group(1)
        kept = "__pasta_div_access" in fn
    elif fn and re.match(r"\s+/\*[0-9a-f]{4,}\*/", line):
        count[fn] = count.get(fn, 0) + 1
        if " CALL" in line:
            calls[fn] = calls.get(fn, 0) + 1
        if kept:  # the instruction, without its encoding
            keep.append(re.sub(r"\s*/\* 0x[0-9a-f]+ \*/", "", line))
        continue
    if kept and not re.match(r"\s+/\* 0x[0-9a-f]+ \*/\s*$", line):
        keep.append(line)
with open(sys.argv[2], "w") as out:
    for f in sorted(count, key=lambda f: -count[f]):
        if "__pasta_div" in f or "part" in f:
            out.write(f"{count[f]:7d} instructions {calls.get(f, 0):5d} CALL  {f}\n")
    out.writelines(keep)
print(sys.argv[3], "SASS:", *open(sys.argv[2]).readlines()[:4], sep="\n  ")
PY
    done
    rm -f "$OUT/sass-all.tmp"
  fi
  echo "gpu_div_batch: status $status"
} > "$OUT/batch.txt" 2>&1
cat "$OUT/batch.txt"
exit $status
