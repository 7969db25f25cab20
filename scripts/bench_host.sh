#!/usr/bin/env bash
# Host-mode overhead (docs/performance.md, "Host-code counting"): builds the
# three workloads of tests/host/perf plain (clang-22 -O2) and instrumented
# (PASTA_HOST=1 pasta-clang -O2), then times each pair, in turn, RUNS times
# and prints the median CPU seconds (user + sys, of the process and what it
# waited for) and the median of the pairs' ratios.
#   scripts/bench_host.sh [BUILD_DIR] [RUNS]     (default build, 7)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
runs=${2:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf=$here/tests/host/perf
clang-22 -O2 "$perf/bytes.c" -o "$work/bytes.plain"
clang++-22 -O2 "$perf/json.cpp" -o "$work/json.plain"
clang-22 -O2 "$perf/cli.c" -o "$work/cli.plain"
PASTA_HOST=1 "$build/bin/pasta-clang" -O2 "$perf/bytes.c" -o "$work/bytes.pasta"
PASTA_HOST=1 "$build/bin/pasta-clang++" -O2 "$perf/json.cpp" -o "$work/json.pasta"
PASTA_HOST=1 "$build/bin/pasta-clang" -O2 "$perf/cli.c" -o "$work/cli.pasta"
head -c 4096 "$here/docs/user-guide.md" > "$work/small.txt"
mkdir -p "$work/prof"
export PASTA_QUIET=1 PASTA_OUTPUT="$work/prof/%p.json"

cpu() { # COMMAND...: CPU seconds of one run (user + sys, to the
  # microsecond: /usr/bin/time's 10 ms steps are 2% of these runs)
  python3 -c 'import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
_, _, ru = os.wait4(p.pid, 0)
print("%.4f" % (ru.ru_utime + ru.ru_stime))' "$@"
}
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

bench() { # NAME PLAIN_COMMAND INSTRUMENTED_COMMAND
  local name=$1 plain=$2 inst=$3 p i
  : >"$work/p"; : >"$work/i"; : >"$work/r"
  for _ in $(seq "$runs"); do
    p=$(cpu sh -c "$plain"); i=$(cpu sh -c "$inst")
    echo "$p" >>"$work/p"; echo "$i" >>"$work/i"
    awk -v p="$p" -v i="$i" 'BEGIN {if (p > 0) printf "%.3f\n", i / p}' >>"$work/r"
    rm -f "$work"/prof/*.json
  done
  printf '%-6s plain %7s s  instrumented %7s s  ratio %sx\n' "$name" \
    "$(median <"$work/p")" "$(median <"$work/i")" "$(median <"$work/r")"
}
cd "$work"
bench bytes "./bytes.plain 8 2" "./bytes.pasta 8 2"
bench json "./json.plain 20000 3" "./json.pasta 20000 3"
bench cli "for i in \$(seq 200); do ./cli.plain small.txt; done" \
  "for i in \$(seq 200); do ./cli.pasta small.txt; done"
