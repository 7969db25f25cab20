#!/bin/sh
# A host function with more counters than fit in registers keeps them
# thread-local and flushes ranges of them (passes/CounterEmission.cpp): its
# profile must equal the one built with a register per counter and a set of
# counters per flush point. The function (gen_compile_shapes.py host 600)
# is built both ways, the limit (-pasta-host-register-counters, default 256)
# set below and above its counters.
# usage: run_host_many_counters.sh CLANG PLUGIN RUNTIME_LIB GENERATOR WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 gen=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
python3 "$gen" host 600 "$work/big.c"
for how in ranges registers; do
  extra="-mllvm -pasta-host-register-counters=100000"
  [ "$how" = ranges ] && extra="-mllvm -pasta-host-register-counters=32"
  # shellcheck disable=SC2086
  env PASTA_HOST=1 "$clang" -O2 -gline-tables-only -fpass-plugin="$plugin" \
    $extra "$work/big.c" -o "$work/big-$how" "$rt"
  (cd "$work" && PASTA_OUTPUT="$work/$how.json" PASTA_QUIET=1 "./big-$how" > "$how.out")
done
cmp "$work/ranges.out" "$work/registers.out"
# The two builds differ as intended: thread-local counts in one only.
if ! nm "$work/big-ranges" | grep -q '__pasta_tls\.big$' ||
  nm "$work/big-registers" | grep -q '__pasta_tls\.big$'; then
  echo "FAIL: expected thread-local counts in big-ranges only" >&2
  exit 1
fi
python3 "$here/check_profile.py" "$work/ranges.json" host_functions:big:calls=1 \
  host_functions:main:calls=1
exec python3 "$here/../scripts/compare_profiles.py" "$work/ranges.json" "$work/registers.json"
