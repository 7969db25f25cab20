#!/bin/sh
# pasta-clang++ device-links a final link whose objects hold CUDA
# relocatable device code (-fgpu-rdc), and only those: an OpenMP target
# region's object carries the same offloading section and nvptx triple, but
# CUDA's device link (-fgpu-rdc, libcudadevrt) is not its own. Checked on
# the link command the wrapper prints (PASTA_WRAPPER_VERBOSE=1); the links
# themselves may fail here (no main, no OpenMP device runtime).
# usage: run_wrapper_offload_kind.sh PASTA_BIN_DIR CLANG WORKDIR
set -u
bin=$1 clang=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
printf '__global__ void k(int *p) { *p = 1; }\n' > k.cu
printf 'int f(void) {\n  int x = 0;\n#pragma omp target map(tofrom : x)\n  x = 1;\n  return x;\n}\n' > t.c
"$clang" -x cuda --offload-arch=sm_90 "--cuda-path=$cuda" -fgpu-rdc -c k.cu -o cuda-rdc.o 2> /dev/null ||
  { echo "FAIL: clang did not compile the CUDA object"; exit 1; }
"$clang" -fopenmp --offload-arch=sm_90 -nogpulib "--cuda-path=$cuda" -c t.c -o openmp.o 2> /dev/null ||
  { echo "FAIL: clang did not compile the OpenMP offload object"; exit 1; }
ar rcs libcuda-rdc.a cuda-rdc.o
failed=0
link_line() { PASTA_WRAPPER_VERBOSE=1 "$bin/pasta-clang++" "$@" -o out 2>&1 | grep '^pasta-clang++: '; }
expect() { # expect yes|no DESCRIPTION LINK-ARGS...
  want=$1 what=$2
  shift 2
  got=no
  link_line "$@" | grep -q -- ' -fgpu-rdc ' && got=yes
  if [ "$got" = "$want" ]; then echo "ok   $what"; else
    echo "FAIL $what (device link: $got, expected $want)"
    failed=$((failed + 1))
  fi
}
expect yes "a CUDA rdc object is device-linked" cuda-rdc.o
expect yes "an archive of one too" libcuda-rdc.a
expect no "an OpenMP offload object is not" -fopenmp openmp.o
expect yes "both: the CUDA one decides" -fopenmp openmp.o cuda-rdc.o
[ "$failed" = 0 ] && echo "wrapper offload kind: 4 checks passed"
exit "$failed"
