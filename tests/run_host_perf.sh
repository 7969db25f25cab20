#!/bin/sh
# The host-mode benchmark workloads (tests/host/perf/, docs/performance.md):
# built plain and with PASTA_HOST=1 through pasta-clang / pasta-clang++ as
# a user builds them, run small; the instrumented program prints what the
# plain one prints and its profile holds the expected counts.
# usage: run_host_perf.sh PASTA_CLANG SOURCE WORKDIR "ARGS" EXPECTATION...
set -eu
pclang=$1 src=$2 work=$3 args=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
name=$(basename "$src")
name=${name%.*}
case $src in
*.cpp) pclang=${pclang}++ cc=clang++-22 ;;
*) cc=clang-22 ;;
esac
command -v $cc >/dev/null 2>&1 || cc=/usr/lib/llvm-22/bin/${cc%-22}
$cc -O2 "$src" -o "$work/$name.plain"
PASTA_HOST=1 "$pclang" -O2 "$src" -o "$work/$name"
cd "$work"
rm -f "$name.json"
# shellcheck disable=SC2086
./"$name.plain" $args >plain.out
# shellcheck disable=SC2086
PASTA_OUTPUT="$name.json" PASTA_QUIET=1 ./"$name" $args >inst.out
cmp plain.out inst.out || { echo "FAIL: the output differs"; exit 1; }
echo "ok   same output: $(head -1 plain.out)"
exec python3 "$here/check_profile.py" "$name.json" "$@"
