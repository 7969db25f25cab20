#!/usr/bin/env bash
# pasta-nvcc named as CMake's CUDA compiler, without the toolchain file:
#   cmake -DCMAKE_CUDA_COMPILER=<pasta>/bin/pasta-nvcc
#         [-DCMAKE_CXX_COMPILER=<pasta>/bin/pasta-clang++]
# CMake takes pasta-nvcc for an nvcc and reads its -v output ("#$ TOP=",
# "INCLUDES=", "LIBRARIES=", "-arch compute_NN" and the host link line,
# whose first word becomes the CUDA link launcher); it stopped at "Failed
# to extract nvcc implicit link line" when pasta-nvcc printed clang's -v.
#
# usage: check_cmake_compiler.sh PASTA_BUILD_DIR LLVM_NM WORKDIR
# Checks:
# - cuda_only_project/ (CUDA only, no architectures set) configures with
#   CMAKE_CUDA_COMPILER alone, its default architecture detected as 90, and
#   its executable, linked by CMake through the launcher pasta-nvcc named
#   (pasta-clang++), links libpasta_rt.so and has its kernel instrumented;
# - cmake_project/ (C++ and CUDA, separable compilation, Thrust) with
#   pasta-clang++ as the C++ compiler too: its C++-linked executable is
#   device-linked by pasta-clang++ (CMake's own device-link step through
#   pasta-nvcc -dlink makes an empty object) and passes check_program,
#   its device image registered once.
# Ends with "N passed, N failed".
set -u
pasta=$1 nm=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks.sh"

rm -rf "$work"
mkdir -p "$work"

# The "#$ " lines themselves: a link prints the host link line through
# pasta-clang++ with -o's output; a compile (-c) prints none;
# -v given to the host compiler (-Xcompiler -v) prints no line at all.
nvcc=$pasta/bin/pasta-nvcc
printf '__global__ void k() {}\nint main() { return 0; }\n' > "$work/v.cu"
link_line=$(cd "$work" && "$nvcc" -v v.cu -o vapp 2>&1 | grep -c "^#\$ \"$pasta/bin/pasta-clang++\".* -o \"vapp\"$")
check "-v link: the host link line through pasta-clang++ ($link_line)" [ "$link_line" = 1 ]
compile_lines=$(cd "$work" && "$nvcc" -v -c v.cu -o v.o 2>&1 | grep '^#\$ ')
check "-v -c: TOP and LIBRARIES printed, no link line" \
  bash -c "grep -q '^#\\$ TOP=' <<< \"\$1\" && grep -q '^#\\$ LIBRARIES=' <<< \"\$1\" && ! grep -q '^#\\$ \"' <<< \"\$1\"" _ "$compile_lines"
host_v=$(cd "$work" && "$nvcc" -Xcompiler -v -c v.cu -o v.o 2>&1 | grep -c '^#\$ ')
check "-Xcompiler -v: no nvcc-style lines ($host_v)" [ "$host_v" = 0 ]

cmake -G Ninja -S "$here/cuda_only_project" -B "$work/cuda_only" \
  -DCMAKE_CUDA_COMPILER="$pasta/bin/pasta-nvcc" > "$work/cuda_only.log" 2>&1 &&
  cmake --build "$work/cuda_only" >> "$work/cuda_only.log" 2>&1
rc=$?
check "CUDA-only project: configure and build with CMAKE_CUDA_COMPILER=pasta-nvcc" [ $rc = 0 ]
[ $rc = 0 ] || tail -20 "$work/cuda_only.log"
cache=$work/cuda_only/CMakeCache.txt
check "CUDA-only project: default architecture detected as 90" \
  grep -q '^CMAKE_CUDA_ARCHITECTURES:STRING=90$' "$cache"
check "CUDA-only project: CMake links CUDA through pasta-clang++" \
  grep -rqF "CMAKE_CUDA_HOST_LINK_LAUNCHER \"$pasta/bin/pasta-clang++\"" \
  "$work/cuda_only/CMakeFiles"
app=$work/cuda_only/cuda_only
check "CUDA-only project: the program links libpasta_rt.so" \
  bash -c "readelf -d '$app' | grep -q 'NEEDED.*libpasta_rt.so'"
check "CUDA-only project: its kernel instrumented (plain copy registered)" \
  bash -c "'$nm' '$app' | grep -q '__pasta_handle__Z4fillPii.*__pasta_plain\$'"

cmake -G Ninja -S "$here/cmake_project" -B "$work/mixed" \
  -DCMAKE_CUDA_COMPILER="$pasta/bin/pasta-nvcc" \
  -DCMAKE_CXX_COMPILER="$pasta/bin/pasta-clang++" > "$work/mixed.log" 2>&1 &&
  cmake --build "$work/mixed" >> "$work/mixed.log" 2>&1
rc=$?
check "C++ and CUDA project: configure and build with pasta-nvcc and pasta-clang++" [ $rc = 0 ]
[ $rc = 0 ] || tail -20 "$work/mixed.log"
check_program "$work/mixed/app" "$nm"
# One device link, one registration of the linked image: a device-link
# object that registers it already (pasta-nvcc -dlink writing clang's
# registration code) must not be device-linked again by pasta-clang++.
regs=$("$nm" "$work/mixed/app" | grep -c ' t \.cuda\.fatbin_reg$')
check "C++ and CUDA project: the device image registered once ($regs)" [ "$regs" = 1 ]
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
