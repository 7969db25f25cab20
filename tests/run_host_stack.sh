#!/usr/bin/env bash
# Host frames at -O0 grow by a few bytes at most (tests/host/deep_recursion.c):
# rec's stack usage (-fstack-usage) instrumented against plain, then a
# recursion as deep as the plain build survives under a fixed stack limit,
# run instrumented, and its call count.
# usage: run_host_stack.sh CLANG PLUGIN RUNTIME_LIB SOURCE WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 src=$4 work=$5
mkdir -p "$work"
cd "$work"
rm -f plain.su pasta.su p.json
"$clang" -O0 -g -fstack-usage -c "$src" -o plain.o
env PASTA_HOST=1 "$clang" -O0 -g -fstack-usage -fpass-plugin="$plugin" \
  -c "$src" -o pasta.o
"$clang" plain.o -o plain
"$clang" pasta.o -o pasta "$rt"
usage() { awk -F'\t' '$1 ~ /:rec$/ { print $2 }' "$1"; }
plain=$(usage plain.su) pasta=$(usage pasta.su)
echo "rec's frame: $plain bytes plain, $pasta bytes instrumented"
if [ -z "$plain" ] || [ -z "$pasta" ] || [ "$pasta" -gt $((plain + 8)) ]; then
  echo "FAILED: the instrumented frame grows by more than 8 bytes"
  exit 1
fi
# 1 MiB of stack: the plain frame (about 32 bytes with the return address)
# takes 25000 levels in about 800 KiB; 80-byte frames would need 2 MiB.
depth=25000
(ulimit -s 1024 && ./plain $depth) || {
  echo "FAILED: the plain build does not survive depth $depth"
  exit 1
}
(ulimit -s 1024 && PASTA_OUTPUT="$work/p.json" PASTA_QUIET=1 ./pasta $depth) || {
  echo "FAILED: the instrumented build does not survive depth $depth"
  exit 1
}
exec python3 "$(dirname "$0")/check_profile.py" "$work/p.json" \
  host_functions:rec:calls=$((depth + 1)) host_functions:main:calls=1
