#!/usr/bin/env bash
# Time and peak memory of `pasta-report merge` over N generated rank
# profiles (scripts/gen_rank_profiles.py: 32 kernels, 8 host functions and
# 256 lines each), for each N given (default 64 1000 10000): one row of a
# Markdown table per N (docs/performance.md, "Merging rank profiles").
#
#   scripts/bench_merge.sh [N...]
#
# PASTA_REPORT: the pasta-report to time (default: build-bench/bin/
# pasta-report, configured here as a Release build without sanitizers: the
# test build's ASan makes it slower and bigger). BENCH_DIR: where the
# profiles go (default /tmp/pasta-merge-bench; about 60 KiB per profile).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 1000 10000)
report=${PASTA_REPORT:-}
if [ -z "$report" ]; then
  CC=${CC:-clang-22} cmake -G Ninja -S . -B build-bench -DCMAKE_BUILD_TYPE=Release \
    > build-bench.configure.log 2>&1 || { cat build-bench.configure.log; exit 1; }
  ninja -C build-bench pasta-report > /dev/null
  report=build-bench/bin/pasta-report
fi
if nm "$report" 2> /dev/null | grep -q __asan_init; then
  echo "bench_merge.sh: warning: $report is built with AddressSanitizer" >&2
fi
work=${BENCH_DIR:-/tmp/pasta-merge-bench}
echo "| profiles | input size | merge time (s) | peak memory (MiB) | merged profile |"
echo "|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  dir=$work/ranks-$n
  if [ ! -f "$dir/rank$((n - 1)).json" ] || [ -f "$dir/rank$n.json" ]; then
    rm -rf "$dir"
    python3 scripts/gen_rank_profiles.py "$n" "$dir"
  fi
  out=$work/merged-$n.json
  log=$work/time-$n.log
  sync
  /usr/bin/time -v "$report" merge --force "$out" "$dir" 2> "$log"
  secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; printf "%.2f", s }')
  kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
  in_mib=$(du -sm "$dir" | cut -f1)
  out_kib=$(( $(stat -c %s "$out") / 1024 ))
  printf '| %s | %s MiB | %s | %s | %s KiB |\n' "$n" "$in_mib" "$secs" \
    "$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')" "$out_kib"
done
