#!/bin/sh
# The example analyzer (examples/fp64_lines.c), end to end: a host
# program counted with PASTA_HOST=1, linked with the analyzer, run with
# PASTA_ANALYZERS selecting it (and json, not tables).
# usage: run_analyzer_example.sh CLANG PLUGIN RUNTIME_LIB SOURCE_DIR WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 src=$4 work=$5
mkdir -p "$work"
"$clang" -O2 -I"$src/include" -c "$src/examples/fp64_lines.c" \
  -o "$work/fp64_lines.o"
env PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" "$src/tests/host/dot_scale.c" \
  "$work/fp64_lines.o" -o "$work/dot_scale_fp64" -x none "$rt"
PASTA_ANALYZERS=fp64-lines,json PASTA_OUTPUT="$work/p.json" "$work/dot_scale_fp64" \
  > "$work/out.txt" 2> "$work/err.txt"
cat "$work/err.txt"
# By hand (tests/host/dot_scale.c): dot's line 17 does 3 calls x 2 x 1000 =
# 6000 f64 FLOPs; main's line 38 (t += dot(...)) 3; total 6003, on 2 lines
# (6000/6003 prints as 100.0%, 3/6003 as 0.0%).
fail=0
check() { grep -qF -- "$1" "$work/err.txt" || { echo "missing: $1"; fail=1; }; }
check "fp64-lines: 6003 f64 FLOPs on 2 lines"
check "dot_scale.c:17 dot 6000 (100.0%)"
check "dot_scale.c:38 main 3 (0.0%)"
check "pasta: profile written to $work/p.json"
if grep -q "== PASTA: profile of" "$work/err.txt"; then echo "tables ran"; fail=1; fi
[ -f "$work/p.json" ] || { echo "no profile"; fail=1; }
exit $fail
