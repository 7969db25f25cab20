#!/usr/bin/env bash
# rdc_lib_project/ (a static library with separable compilation linked by
# executables without it: a .cu main compiled without -rdc, a .cpp main)
# built through cmake/pasta-toolchain.cmake, then with pasta-nvcc as the
# CUDA compiler: each executable must be
# device-linked, its image holding the library's kernel and the kernel's
# counting copy, as nvcc's build (CMake device-links both) holds the kernel.
# Before, neither executable was device-linked in either build: the kernel
# was never registered and its launch failed.
#
# usage: check_rdc_lib_project.sh PASTA_BUILD_DIR LLVM_NM WORKDIR
# Ends with "N passed, N failed".
set -u
pasta=$(cd "$1" && pwd) nm=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks.sh"
objcopy=$(dirname "$nm")/llvm-objcopy

# holds_kernel APP NAME...: the device image of APP holds each NAME.
holds_kernel() {
  local app=$1 name
  shift
  "$objcopy" -O binary --only-section=.nv_fatbin "$app" "$app.fatbin" 2> /dev/null ||
    return 1
  for name in "$@"; do
    grep -aqP "\.nv\.info\.$name\x00" "$app.fatbin" || return 1
  done
}

rm -rf "$work"
mkdir -p "$work"
toolchain_build "$here/rdc_lib_project" "$work" "$pasta"
for app in app_cu app_cpp; do
  check "$app device-linked: the library's kernel and its counting copy in its image" \
    holds_kernel "$work/pasta/$app" _Z11scale_twicePfm _Z11scale_twicePfm__pasta_plain
done

# The same project with pasta-nvcc as CMAKE_CUDA_COMPILER (no toolchain
# file): CMake device-links each executable itself (`pasta-nvcc -dlink
# main.cu.o librdc.a`), whose object must register the library's kernels.
cmake -G Ninja -S "$here/rdc_lib_project" -B "$work/pasta-nvcc" \
  -DCMAKE_CUDA_COMPILER="$pasta/bin/pasta-nvcc" \
  -DCMAKE_CXX_COMPILER="$pasta/bin/pasta-clang++" \
  -DCMAKE_CUDA_ARCHITECTURES=90 > "$work/pasta-nvcc.log" 2>&1 &&
  cmake --build "$work/pasta-nvcc" >> "$work/pasta-nvcc.log" 2>&1
rc=$?
check "configure and build with pasta-nvcc as the CUDA compiler" [ $rc = 0 ]
[ $rc = 0 ] || tail -20 "$work/pasta-nvcc.log"
for app in app_cu app_cpp; do
  check "$app (pasta-nvcc) device-linked: the library's kernel and its counting copy" \
    holds_kernel "$work/pasta-nvcc/$app" _Z11scale_twicePfm _Z11scale_twicePfm__pasta_plain
done

nvcc=${PASTA_REAL_NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$nvcc" ]; then
  plain_twin "$work/plain.log" bash -c "cmake -G Ninja -S '$here/rdc_lib_project' \
    -B '$work/plain' -DCMAKE_CUDA_COMPILER='$nvcc' -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build '$work/plain'"
else
  echo "note: no nvcc at $nvcc; no plain twin"
fi
# Architectures CMake names by keyword (all, all-major, native) reach the
# device link's extraction as the numbers CMake expands them to; they matched
# none, and the library's kernels went unlinked again (configure only).
cmake -G Ninja -S "$here/rdc_lib_project" -B "$work/all-major" \
  -DCMAKE_TOOLCHAIN_FILE="$here/../../cmake/pasta-toolchain.cmake" \
  -DPASTA_BUILD_DIR="$pasta" -DCMAKE_CUDA_ARCHITECTURES=all-major \
  > "$work/all-major.log" 2>&1
check "CUDA_ARCHITECTURES all-major: the executables extract the library's sm_80 code" \
  grep -q -- "--should-extract=sm_80" "$work/all-major/build.ninja"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
