#!/bin/sh
# A test suite's processes, each profiled (issue 46): every process writes
# only what ran (the rest counted in "omitted"), PASTA_OUTPUT=dir/%p.json
# gives each its own file, `pasta-report merge OUT dir/` adds them up (a
# function that ran in some processes only is merged right), diff calls a
# function that ran on one side only new, and PASTA_LIST_ALL=1 lists all.
# usage: run_host_suite.sh CLANG PLUGIN RUNTIME_LIB PASTA_REPORT WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 report=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
check="python3 $here/check_profile.py"
rm -rf "$work"
mkdir -p "$work/profiles"
exe="$work/suite"
env PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" "$here/host/suite.c" \
  -o "$exe" "$rt"

# The suite: five processes, one profile each.
for t in add add add mul mul; do
  PASTA_OUTPUT="$work/profiles/%p.json" PASTA_QUIET=1 "$exe" $t >/dev/null
done
n=$(find "$work/profiles" -name '[0-9]*.json' | wc -l)
[ "$n" = 5 ] || { echo "FAIL %p: $n profiles, not 5"; exit 1; }
echo "ok   %p: one profile per process"

# One process: what ran, and how much did not.
one=$(grep -l '"name":"add_case"' "$work"/profiles/*.json | head -1)
$check "$one" host_functions:add_case:calls=1 host_functions:main:calls=1 \
  absent:host_functions:mul_case absent:host_functions:never_case \
  top:omitted.host_functions=2 ran:host_functions ran:lines
python3 - "$one" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
lines = {l["line"] for l in p["lines"]}
# never_case's and mul_case's lines did not run: not listed, but counted.
assert p["omitted"]["lines"] >= 4, p["omitted"]
assert not lines & set(range(13, 26)), sorted(lines)
print("ok   lines of the cases that did not run are counted, not listed")
PY

# The suite merged: a directory of profiles.
"$report" merge "$work/all.json" "$work/profiles/" 2>"$work/merge.err" ||
  { cat "$work/merge.err"; exit 1; }
$check "$work/all.json" host_functions:add_case:calls=3 \
  host_functions:mul_case:calls=2 host_functions:main:calls=5 \
  absent:host_functions:never_case top:omitted.host_functions=1 \
  host_functions:add_case:flops.f64=600 ran:host_functions ran:lines
python3 - "$work/all.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
assert len(p["merged_from"]) == 5, len(p["merged_from"])
# mul_case ran in 2 of 5 processes: its spread counts the others as 0.
mul = [f for f in p["host_functions"] if f["name"] == "mul_case"][0]
assert mul["ranks"]["calls"]["min"] == 0 and mul["ranks"]["calls"]["max"] == 1, mul["ranks"]
print("ok   merge: per-process spread of a function some processes ran")
PY

# diff: mul_case ran on one side only.
mul=$(grep -l '"name":"mul_case"' "$work"/profiles/*.json | head -1)
"$report" diff "$one" "$mul" >"$work/diff.txt"
grep -q "mul_case.*new" "$work/diff.txt" ||
  { cat "$work/diff.txt"; echo "FAIL diff: mul_case not new"; exit 1; }
echo "ok   diff: a function that ran on one side only is new"

# PASTA_LIST_ALL=1: every function and line, nothing counted.
PASTA_LIST_ALL=1 PASTA_OUTPUT="$work/all_listed.json" PASTA_QUIET=1 "$exe" add >/dev/null
$check "$work/all_listed.json" host_functions:never_case:calls=0 \
  host_functions:mul_case:calls=0 host_functions:add_case:calls=1 \
  top:omitted.host_functions=0 top:omitted.lines=0
echo "suite: passed"
