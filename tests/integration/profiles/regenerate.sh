#!/bin/sh
# Re-records the host-code fixture profiles of this directory: the programs
# of tests/host/ built with the plugin and PASTA_HOST=1 (as
# tests/run_host_e2e.sh does), run, and their profiles kept. Paths in them
# are relative to the repository (-fdebug-prefix-map). gpu_saxpy_stencil.json
# is written by hand (see README.md) and is not touched.
# usage: regenerate.sh [PASTA_BUILD_DIR]   (default: <repo>/build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=${1:-$repo/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$repo"
for spec in dot_scale:-O2 recursion:-O0; do
  name=${spec%%:*} opt=${spec#*:}
  PASTA_HOST=1 clang-22 "$opt" -g -fdebug-prefix-map="$repo=." \
    -fpass-plugin="$build/lib/libpasta.so" "tests/host/$name.c" \
    -o "$work/$name" "$build/lib/libpasta_rt.a"
  (cd "$work" && PASTA_QUIET=1 PASTA_OUTPUT="$here/host_$name.json" "./$name")
done
