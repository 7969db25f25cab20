#!/usr/bin/env bash
# Where a one-block kernel's fixed counting cost comes from
# (bench/exit_cost.cu; docs/lab/2026-11-29-overhead3-30-short-kernels-exit-flush.md):
# each part of PASTA's counting copy alone, timed by Nsight Compute
# (gpu__time_duration), with its caches flushed before each launch (as in
# the Thrust table) and without. On a GPU machine, nothing staged:
# run(command="bash bench/gpu_exit_cost.sh") -> $OUT/exit_cost.md
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/gpu.sh
pasta_design_setup
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_exit_cost: ncu not found"; exit 1; }
# EXIT_COST_SRC: another copy of it (a staged one, bench/gpu_short_kernels.sh).
"$NVCC" -O3 -arch=sm_90 -o "$W/exit_cost" "${EXIT_COST_SRC:-bench/exit_cost.cu}" || exit 1
"$W/exit_cost" 2 || exit 1
for cache in all none; do
  "$NCU" --cache-control "$cache" --csv --page raw --print-units base \
    --print-kernel-base mangled --metrics gpu__time_duration.sum \
    "$W/exit_cost" "${LAUNCHES:-20}" > "$OUT/exit_cost.$cache.csv" 2> "$OUT/exit_cost.$cache.err"
done
{
  pasta_gpu_header
  echo
  python3 - "$OUT/exit_cost.all.csv" "$OUT/exit_cost.none.csv" <<'PY'
import csv, re, statistics, sys
names = ["plain", "entry_call", "entry_inline", "exit_red", "exit_prefetch",
         "exit_call", "counting", "counting_warm", "call_warm_line", "no_calls",
         "exit_call_warmed", "entry_red_near", "exit_red_near"]
def times(path):
    rows = [l for l in open(path, errors="replace") if l.startswith('"')]
    t = {}
    for r in csv.DictReader(rows):
        m = re.search(r"block_sumILi(\d+)E", r.get("Kernel Name", ""))
        try:
            ns = float(r["gpu__time_duration.sum"].replace(",", ""))
        except (KeyError, ValueError):
            continue
        if m:
            t.setdefault(names[int(m.group(1))], []).append(ns / 1000)
    return t
a, n = times(sys.argv[1]), times(sys.argv[2])
print("| kernel | launches | caches flushed: median (us) | min | vs plain | caches kept: median (us) | min | vs plain |")
print("|---|---|---|---|---|---|---|---|")
for k in names:
    if k not in a or k not in n:
        print("| %s | missing | | | | | | |" % k)
        continue
    ma, mn = statistics.median(a[k]), statistics.median(n[k])
    print("| %s | %d | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f |" % (
        k, len(a[k]), ma, min(a[k]), ma / statistics.median(a["plain"]),
        mn, min(n[k]), mn / statistics.median(n["plain"])))
PY
} 2>&1 | tee "$OUT/exit_cost.md"
