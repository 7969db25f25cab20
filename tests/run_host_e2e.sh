#!/bin/sh
# Compiles a host C program with the PASTA plugin (PASTA_HOST=1), runs it,
# and checks its JSON profile.
# usage: run_host_e2e.sh CLANG PLUGIN RUNTIME_LIB SOURCE WORKDIR "CFLAGS" EXPECTATION...
set -eu
clang=$1 plugin=$2 rt=$3 src=$4 work=$5 cflags=$6
shift 6
mkdir -p "$work"
name=$(basename "$src" .c)
case $src in # C++ sources: the same clang's C++ driver
*.cpp) name=$(basename "$src" .cpp) clang=${clang}++ ;;
esac
exe="$work/$name"
# shellcheck disable=SC2086
env PASTA_HOST=1 "$clang" $cflags -g -fpass-plugin="$plugin" "$src" -o "$exe" "$rt"
rm -f "$work/$name.json" # a profile of an earlier run must not pass
PASTA_OUTPUT="$work/$name.json" PASTA_QUIET=1 "$exe"
exec python3 "$(dirname "$0")/check_profile.py" "$work/$name.json" "$@"
