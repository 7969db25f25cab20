#!/bin/sh
# Configures cmake_project/ with cmake/pasta-toolchain.cmake and builds it
# (no GPU needed), three times:
#  1. default options, with the build's generator: both CUDA translation
#     units are instrumented (the host objects hold a __pasta_shadow_<id>,
#     and the library's PTX exports the __pasta_desc_<id> with the same id),
#     and the executable links with the PASTA and CUDA runtimes;
#  2. the same build directory reconfigured with PASTA_KERNELS and
#     PASTA_LINES (a ';' and a '$' in them) plus a user CMAKE_CUDA_FLAGS
#     (-pasta-print-sites): only the selected kernel and lines are counted;
#  3. the same options with the other generator (Unix Makefiles or Ninja),
#     which quote '$' differently.
# usage: check_cmake_project.sh CMAKE GENERATOR TOOLCHAIN PASTA_BUILD_DIR LLVM_NM WORKDIR
set -eu
cmake=$1 generator=$2 toolchain=$3 pasta=$4 nm=$5 work=$6
src=$(cd "$(dirname "$0")" && pwd)/cmake_project
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"

configure() { # BUILD_DIR GENERATOR ARGS...
  dir=$1 gen=$2
  shift 2
  "$cmake" -G "$gen" -S "$src" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DPASTA_BUILD_DIR="$pasta" "$@" > "$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; fail "configure failed ($gen)"; }
}
build() { # BUILD_DIR LOG
  "$cmake" --build "$1" > "$2" 2>&1 || { cat "$2"; fail "build failed"; }
}

b=$work/default
configure "$b" "$generator"
build "$b" "$b.build.log"
lib_id=$("$nm" "$b/libscale.a" | sed -n 's/.* __pasta_shadow_\([0-9a-f]*\)$/\1/p')
[ -n "$lib_id" ] || fail "libscale.a has no __pasta_shadow_ symbol"
"$nm" "$b/CMakeFiles/sample.dir/main.cu.o" | grep -q ' __pasta_shadow_' ||
  fail "main.cu.o has no __pasta_shadow_ symbol"
ptx=$(find "$b" -name scale.ptx)
grep -q "^\.visible \.global .* __pasta_desc_$lib_id\[" "$ptx" ||
  fail "the PTX of scale.cu does not export __pasta_desc_$lib_id"
[ -x "$b/sample" ] || fail "sample did not link"
# The wrapper/toolchain link the shared runtime (one per process) with an
# rpath to it.
"$nm" -D "$b/sample" | grep -q ' [wU] __pasta_register_device_module' &&
  LD_LIBRARY_PATH= ldd "$b/sample" | grep -q 'libpasta_rt.so => /' ||
  fail "sample is not linked with libpasta_rt.so"
"$nm" "$b/sample" | grep -q ' T cudaMalloc' ||
  fail "sample does not contain the CUDA runtime"
echo "ok   default: scale.cu and main.cu instrumented (id $lib_id), sample links"

# Relocatable device code (CUDA_SEPARABLE_COMPILATION ON on both targets):
# the executable's device image, linked by clang, holds both translation
# units' kernels, their PASTA copies and both descriptors.
r=$work/separable
configure "$r" "$generator" -DSAMPLE_SEPARABLE=ON
build "$r" "$r.build.log"
[ -x "$r/sample" ] || fail "separable: sample did not link"
"$(dirname "$nm")/llvm-objcopy" -O binary --only-section=.nv_fatbin \
  "$r/sample" "$r/fatbin" ||
  fail "separable: sample has no device image (.nv_fatbin)"
for k in _Z12scale_kernelPffi _Z14add_one_kernelPfi; do
  for v in "" __pasta_plain __pasta_ws; do
    grep -aq "\.nv\.info\.$k$v" "$r/fatbin" ||
      fail "separable: the device image has no $k$v"
  done
done
descs=$(grep -ao '__pasta_desc_[0-9a-f]*' "$r/fatbin" | sort -u | wc -l)
[ "$descs" -eq 2 ] ||
  fail "separable: $descs PASTA descriptors in the device image, expected 2"
echo "ok   separable compilation: one device image with both units' kernels, copies and descriptors"

# Only add_one_kernel (the '$' matters: without it scale_kernel matches too)
# and only lines 6 of scale.cu and 8 of main.cu (the ';' matters).
kernels='^_Z12scale_kernel$|^_Z14add_one_kernelPfi$'
lines='scale.cu:6;main.cu:8'
check_sites() { # LOG
  grep -q '^pasta: func _Z14add_one_kernelPfi kind=kernel' "$1" ||
    fail "add_one_kernel was not instrumented (PASTA_KERNELS did not arrive intact)"
  if grep -q '^pasta: func _Z12scale_kernelPffi' "$1"; then
    fail "scale_kernel was instrumented (PASTA_KERNELS did not arrive intact)"
  fi
  sites=$(grep '^pasta: site' "$1" | sed 's/^pasta: site \([^ ]*\) .*/\1/' | sort -u)
  [ "$sites" = "main.cu:8" ] ||
    fail "counted lines are '$sites', expected main.cu:8 (PASTA_LINES did not arrive intact)"
}
configure "$b" "$generator" -DPASTA_KERNELS="$kernels" -DPASTA_LINES="$lines" \
  -DCMAKE_CUDA_FLAGS="-Xclang -mllvm -Xclang -pasta-print-sites"
build "$b" "$b.rebuild.log"
check_sites "$b.rebuild.log"
echo "ok   reconfigured with PASTA_KERNELS and PASTA_LINES: only main.cu:8 counted"

case $generator in
  Ninja) other="Unix Makefiles" ;;
  *) other=Ninja ;;
esac
if [ "$other" = Ninja ] && ! command -v ninja > /dev/null 2>&1; then
  echo "skip $other: not installed"
  exit 0
fi
o=$work/other
configure "$o" "$other" -DPASTA_KERNELS="$kernels" -DPASTA_LINES="$lines" \
  -DCMAKE_CUDA_FLAGS="-Xclang -mllvm -Xclang -pasta-print-sites"
build "$o" "$o.build.log"
check_sites "$o.build.log"
[ -x "$o/sample" ] || fail "sample did not link ($other)"
echo "ok   $other: the same options arrive intact"
