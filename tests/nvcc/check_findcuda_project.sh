#!/usr/bin/env bash
# A project of CMake's FindCUDA module (findcuda_project/: find_package(CUDA),
# cuda_add_executable) built unmodified through cmake/pasta-toolchain.cmake.
# FindCUDA compiles .cu files with CUDA_NVCC_EXECUTABLE, which the
# toolchain points at pasta-nvcc, and forwards the C++ flags (the plugin
# among them) as `-Xcompiler ,"-O3",...`.
#
# usage: check_findcuda_project.sh PASTA_BUILD_DIR LLVM_NM WORKDIR
# Checks: FindCUDA reads the CUDA version from pasta-nvcc --version; the
# project's own `set(CMAKE_CUDA_COMPILER .../nvcc)` is replaced by the
# toolchain's compiler with one warning; the build succeeds with no
# warning; both programs (FindCUDA's and the CUDA language's) link
# libpasta_rt.so and have the kernel instrumented once (its plain copy
# registered, no copy of a copy). Ends with "N passed, N failed".
set -u
pasta=$1 nm=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks.sh"

rm -rf "$work"
mkdir -p "$work"
cmake -S "$here/findcuda_project" -B "$work/pasta" \
  -DCMAKE_TOOLCHAIN_FILE="$here/../../cmake/pasta-toolchain.cmake" \
  -DPASTA_BUILD_DIR="$pasta" > "$work/configure.log" 2>&1
rc=$?
check "configure through pasta-toolchain.cmake succeeds" [ $rc = 0 ]
[ $rc = 0 ] || tail -20 "$work/configure.log"
check "FindCUDA compiles with pasta-nvcc" \
  grep -q "^CUDA_NVCC_EXECUTABLE:FILEPATH=$pasta/bin/pasta-nvcc\$" \
  "$work/pasta/CMakeCache.txt"
check "FindCUDA reads a CUDA version from it" \
  grep -Eq "findcuda: CUDA_VERSION=[0-9]+\.[0-9]+\$" "$work/configure.log"
check "the project's own CMAKE_CUDA_COMPILER (nvcc) replaced, one warning" \
  test "$(grep -c 'pasta-toolchain: the project sets CMAKE_CUDA_COMPILER' \
    "$work/configure.log")" = 1
cmake --build "$work/pasta" > "$work/pasta.log" 2>&1
rc=$?
check "the build succeeds" [ $rc = 0 ]
[ $rc = 0 ] || tail -20 "$work/pasta.log"
check "no warning" bash -c "! grep -qi warning '$work/pasta.log'"
for app in "$work/pasta/findcuda" "$work/pasta/native"; do
  name=$(basename "$app")
  check "$name links libpasta_rt.so" \
    bash -c "readelf -d '$app' | grep -q 'NEEDED.*libpasta_rt.so'"
  "$nm" "$app" > "$app.symbols.txt" 2> /dev/null
  check "$name instrumented (plain copy registered): scale_by" \
    grep -q "__pasta_handle__Z8scale_byPffi__pasta_plain\$" "$app.symbols.txt"
  check "$name instrumented once (no copy of a copy)" \
    bash -c "! grep -q '__pasta_[a-z]*__pasta_' '$app.symbols.txt'"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
