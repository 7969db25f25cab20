#!/bin/sh
# Trace mode on host code: builds tests/host/scopes.c with PASTA_HOST=1
# PASTA_TRACE=1 at -O0 (the loops as written) and -O2, runs it with 10 and
# 100 rounds, and checks the traces: the scope structure and trip counts
# derived from the source (check_scopes.py), the file formats
# (check_trace.py), and that PASTA_TRACE=0 at run time writes no trace.
# usage: run_host_trace.sh CLANG PLUGIN RUNTIME_LIB WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 work=$4
here=$(dirname "$0")
mkdir -p "$work"
for opt in O0 O2; do
  exe="$work/scopes-$opt"
  env PASTA_HOST=1 PASTA_TRACE=1 "$clang" -"$opt" -g -fpass-plugin="$plugin" \
    "$here/host/scopes.c" -o "$exe" "$rt"
  for rounds in 10 100; do
    PASTA_QUIET=1 PASTA_OUTPUT="$work/scopes-$opt-$rounds.json" "$exe" "$rounds"
    python3 "$here/check_trace.py" --expect-balanced \
      --cats "$work/scopes-$opt-$rounds.cats" \
      --chrome "$work/scopes-$opt-$rounds.trace.json"
  done
done
python3 "$here/check_scopes.py" "$work/scopes-O0-10.cats" 10 \
  "$work/scopes-O0-100.cats" 100
rm -f "$work/scopes-off.cats"
PASTA_TRACE=0 PASTA_QUIET=1 PASTA_OUTPUT="$work/scopes-off.json" \
  "$work/scopes-O0" 3
if [ -e "$work/scopes-off.cats" ]; then
  echo "FAIL: PASTA_TRACE=0 still wrote a trace"
  exit 1
fi
echo "PASTA_TRACE=0: no trace written"
