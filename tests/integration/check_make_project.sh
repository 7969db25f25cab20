#!/bin/sh
# Builds make_project/ with `make CXX=pasta-clang++ CC=pasta-clang` (no
# GPU needed) and checks that
#  - the CUDA object is instrumented: its host half has a __pasta_shadow_
#    (the copy of a device descriptor) and calls __pasta_register_device_module;
#  - the CUDA program links, with the PASTA runtime the wrapper appended;
#  - the host program, built with PASTA_HOST=1, runs and its profile has the
#    call counts derived by hand in make_project/host_stats.c.
# usage: check_make_project.sh PASTA_BIN_DIR LLVM_NM WORKDIR
set -eu
bin=$1 nm=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/make_project
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
mk() { make -f "$src/Makefile" SRC="$src" CXX="$bin/pasta-clang++" CC="$bin/pasta-clang" "$@"; }

mk saxpy
"$nm" saxpy.o | grep -q ' __pasta_shadow_' || fail "saxpy.o has no __pasta_shadow_ symbol"
"$nm" saxpy.o | grep -q ' [wU] __pasta_register_device_module' ||
  fail "saxpy.o does not register its device module"
[ -x saxpy ] || fail "saxpy did not link"
# The wrapper/toolchain link the shared runtime (one per process) with an
# rpath to it.
"$nm" -D saxpy | grep -q ' [wU] __pasta_register_device_module' &&
  LD_LIBRARY_PATH= ldd saxpy | grep -q 'libpasta_rt.so => /' ||
  fail "saxpy is not linked with libpasta_rt.so"
echo "ok   saxpy.cu instrumented and linked with the runtime"

PASTA_HOST=1 mk host_stats
PASTA_OUTPUT="$work/host_stats.json" PASTA_QUIET=1 ./host_stats
exec python3 "$here/../check_profile.py" "$work/host_stats.json" \
  host_functions:is_prime:calls=100 host_functions:collatz_steps:calls=27 \
  host_functions:main:calls=1
