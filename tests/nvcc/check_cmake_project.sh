#!/usr/bin/env bash
# A CMake project written for nvcc (cmake_project/: nvcc-only options in
# target_compile_options, its own CMAKE_CUDA_ARCHITECTURES with sm_110,
# separable compilation) built unmodified through cmake/pasta-toolchain.cmake,
# and, where the real nvcc is installed, without it (the plain twin
# scripts/gpu_nvcc.sh compares on a GPU).
#
# usage: check_cmake_project.sh PASTA_BUILD_DIR LLVM_NM WORKDIR
# Checks: configure and build succeed with no build type (the project's
# device code optimized as nvcc would: clang at -O0 would run ptxas -g for
# minutes); the only warnings are "sm_110 dropped", one per CUDA compile;
# the program links libpasta_rt.so; the kernels of each kind of file are
# instrumented. Ends with "N passed, N failed".
set -u
pasta=$1 nm=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks.sh"
cuda_files=4

rm -rf "$work"
mkdir -p "$work"
toolchain_build "$here/cmake_project" "$work" "$pasta"
# CUB's cache-hinted loads (inline assembly, cub::DeviceReduce) are counted
# (passes/InlineAsmMemory.cpp): PASTA's notice about inline assembly it
# does not count may name other functions, never DeviceReduce.
warnings=$(grep -v -e "pasta: inline assembly that loads" -e "^1 warning generated when compiling" "$work/pasta.log" | grep -c "warning")
dropped=$(grep -c "pasta-toolchain: warning: sm_110 dropped" "$work/pasta.log")
check "one warning per CUDA compile, about sm_110, nothing else ($warnings warnings)" \
  test "$warnings" = $cuda_files -a "$dropped" = $cuda_files
check "CUB's inline-assembly loads counted (no notice names DeviceReduce)" \
  bash -c "! grep -q 'pasta: inline assembly that loads.*DeviceReduce' '$work/pasta.log'"
check_program "$work/pasta/app" "$nm"

nvcc=${PASTA_REAL_NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$nvcc" ]; then
  plain_twin "$work/plain.log" bash -c "cmake -G Ninja -S '$here/cmake_project' \
    -B '$work/plain' -DCMAKE_CUDA_COMPILER='$nvcc' && cmake --build '$work/plain'"
else
  echo "note: no nvcc at $nvcc; no plain twin"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
