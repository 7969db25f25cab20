#!/bin/sh
# A C++20 program (host/names_lines.cpp) built as a new user builds it:
# pasta-clang++ -O2 with PASTA_HOST=1 and no -g (the wrapper adds line
# tables), in trace mode. Its profile, `pasta-report show` of it and its
# C.A.T.S. trace must name every function demangled (LLVM's demangler,
# recorded at compile time: clang-22's constrained-template, `Tn` and
# lambda manglings included), and the profile put every line in its own
# file (check_names_lines.py).
# usage: run_names_lines.sh PASTA_CLANG++ PASTA_REPORT WORKDIR
set -eu
cxx=$1 report=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/host/names_lines.cpp
rm -rf "$work"
mkdir -p "$work"
PASTA_HOST=1 PASTA_TRACE=1 "$cxx" -std=c++20 -O2 "$src" -o "$work/names_lines"
PASTA_OUTPUT="$work/names_lines.json" PASTA_QUIET=1 "$work/names_lines" > /dev/null
"$report" show "$work/names_lines.json" > "$work/show.txt"
if grep -n '_Z' "$work/show.txt"; then
  echo "FAIL: pasta-report show prints a mangled name (above)" >&2
  exit 1
fi
[ -s "$work/names_lines.cats" ] || { echo "FAIL: no trace written" >&2; exit 1; }
if grep -o '"funcname":"[^"]*_Z[^"]*"' "$work/names_lines.cats"; then
  echo "FAIL: the trace names a function mangled (above)" >&2
  exit 1
fi
exec python3 "$here/check_names_lines.py" "$work/names_lines.json" "$src" \
  "long addn<7>(long)" "double half<double, 0>(double)" "twice<int>(" \
  "via_lambda<int>(int)::'lambda'(long)" "clamp_all<int>(std::vector<int"
