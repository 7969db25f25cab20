#!/bin/sh
# Line tables by default in pasta-clang, pasta-clang++ and pasta-nvcc: a
# compile that asks for no debug info gets -gline-tables-only (host code:
# the object has .debug_line; CUDA: the device image too, which ptxas makes
# from clang's line directives); -g0, -g and PASTA_LINE_TABLES=0 are
# respected; a bad PASTA_LINE_TABLES is an error.
# usage: run_wrapper_line_tables.sh PASTA_BIN_DIR LLVM_TOOLS_DIR WORKDIR
set -u
bin=$1 tools=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
passed=0 failed=0
check() { # check DESCRIPTION COMMAND...
  what=$1
  shift
  if "$@" > /dev/null 2>&1; then
    passed=$((passed + 1))
    echo "ok   $what"
  else
    failed=$((failed + 1))
    echo "FAIL $what"
  fi
}
lines() { "$tools/llvm-readelf" -S "$1" | grep -q '\.debug_line'; }
no_lines() { ! lines "$1"; }
# The device image (clang's .nv_fatbin section) has a line table.
device_lines() {
  "$tools/llvm-objcopy" -O binary --only-section=.nv_fatbin "$1" "$1.fatbin" &&
    grep -aq debug_line "$1.fatbin"
}
no_device_lines() { ! device_lines "$1"; }

cat > t.c << 'EOT'
struct pair { double a, b; };
double dot(const struct pair *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i].a * p[i].b;
  return s;
}
int main(void) { struct pair p[2] = {{1, 2}, {3, 4}}; return dot(p, 2) != 14; }
EOT
"$bin/pasta-clang" -O2 -c t.c -o plain.o
check "pasta-clang -O2: .debug_line in the object" lines plain.o
"$bin/pasta-clang" -O2 -g0 -c t.c -o g0.o
check "pasta-clang -O2 -g0: none (respected)" no_lines g0.o
"$bin/pasta-clang" -O2 -g -c t.c -o g.o
check "pasta-clang -O2 -g: full debug info (types), not line tables only" \
  sh -c "'$tools/llvm-dwarfdump' --debug-info g.o | grep -q DW_TAG_base_type"
PASTA_LINE_TABLES=0 "$bin/pasta-clang" -O2 -c t.c -o off.o
check "PASTA_LINE_TABLES=0: none" no_lines off.o
PASTA_LINE_TABLES=OFF "$bin/pasta-clang++" -O2 -x c++ -c t.c -o off2.o
check "PASTA_LINE_TABLES=OFF (pasta-clang++): none" no_lines off2.o
PASTA_LINE_TABLES=maybe "$bin/pasta-clang" -O2 -c t.c -o bad.o 2> bad.err
rc=$?
check "PASTA_LINE_TABLES=maybe: an error naming it" \
  sh -c "[ $rc = 2 ] && grep -q \"error: PASTA_LINE_TABLES='maybe'\" bad.err"
PASTA_WRAPPER_VERBOSE=1 "$bin/pasta-clang" plain.o -o t 2> link.err
check "a link of objects: no -gline-tables-only added" \
  sh -c "[ -x t ] && ! grep -q gline-tables-only link.err"

if [ -f /usr/local/cuda/include/cuda_runtime.h ]; then
  cat > k.cu << 'EOT'
__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
EOT
  "$bin/pasta-clang++" -O3 -c k.cu -o k.o
  check "pasta-clang++ -O3 k.cu: host line table" lines k.o
  check "pasta-clang++ -O3 k.cu: device line table" device_lines k.o
  PASTA_LINE_TABLES=0 "$bin/pasta-clang++" -O3 -c k.cu -o k0.o 2> /dev/null
  check "pasta-clang++ with PASTA_LINE_TABLES=0: no device line table" \
    no_device_lines k0.o
  # An nvcc Makefile's compile line: -O3, no -g, no -lineinfo.
  "$bin/pasta-nvcc" -O3 -arch=sm_90 -use_fast_math -Xcompiler -Wall -c k.cu \
    -o n.o
  check "pasta-nvcc -O3 (no -lineinfo): host line table" lines n.o
  check "pasta-nvcc -O3 (no -lineinfo): device line table" device_lines n.o
  PASTA_LINE_TABLES=0 "$bin/pasta-nvcc" -O3 -arch=sm_90 -c k.cu -o n0.o \
    2> /dev/null
  check "pasta-nvcc with PASTA_LINE_TABLES=0: none" no_device_lines n0.o
else
  echo "note: no CUDA at /usr/local/cuda: CUDA checks skipped"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
