#!/bin/sh
# The Rodinia-shaped project make_gcc/ (gcc compiles the C files and links;
# kernels through $(NVCC) with -O3, no -g), built with only
# `make NVCC=pasta-nvcc`: it must link with plain gcc and no PASTA library
# on the link line. Its kernel object refers to the runtime weakly only, and
# the program, run here without a GPU, says what its plain twin (NVCC=clang++
# -x cuda) says and exits with the same status. (On a GPU, scripts/
# build_structures.sh gcc_link and scripts/gpu_structures.sh run it against
# the counts in make_gcc/blur.cu.)
# usage: check_make_gcc.sh PASTA_BIN_DIR CUDA_PATH WORKDIR
set -eu
bin=$1 cuda=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/make_gcc
rm -rf "$work"
mkdir -p "$work/pasta" "$work/plain"
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$work/pasta" && make -f "$src/Makefile" SRC="$src" CUDA_DIR="$cuda" \
  NVCC="$bin/pasta-nvcc") || fail "make NVCC=pasta-nvcc failed"
(cd "$work/plain" && make -f "$src/Makefile" SRC="$src" CUDA_DIR="$cuda" \
  NVCC=clang++-22 NVCC_FLAGS="-x cuda --cuda-path=$cuda --offload-arch=sm_90 -Wno-unknown-cuda-version") ||
  fail "the plain build failed"
cd "$work/pasta"
nm blur.o | grep -q ' w __pasta_launch_kernel' ||
  fail "blur.o is not instrumented (no weak __pasta_launch_kernel)"
if nm blur.o | grep ' U __pasta_'; then
  fail "blur.o has strong references to the runtime"
fi
readelf -d blur | grep -q 'libpasta_rt' && fail "blur names libpasta_rt"
echo "ok   gcc linked the pasta-nvcc object without the runtime"

set +e
(cd "$work/plain" && ./blur > out 2> err)
plain=$?
PASTA_QUIET=1 PASTA_OUTPUT="$work/blur.json" ./blur > out 2> err
rc=$?
set -e
[ "$rc" = "$plain" ] || fail "exit status $rc, the plain build's $plain"
cmp -s out "$work/plain/out" || fail "stdout differs from the plain build's"
echo "ok   ran as the plain build did (exit status $rc): $(cat out)"
