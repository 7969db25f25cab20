#!/usr/bin/env bash
# Builds the program-structure tests (tests/structures/) plain and
# instrumented, as their users would: a main compiled by gcc, kernels in
# .cu files compiled by pasta-clang++, in objects, a static archive, a shared
# library (linked, and opened with dlopen), all linked through pasta-clang++.
# usage: build_structures.sh [OUTDIR] (default <build>/bin/structures)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${PASTA_BUILD_DIR:-$here/build}
out=${1:-$build/bin/structures}
src=$here/tests/structures
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
mkdir -p "$out" && cd "$out"
pasta=$build/bin/pasta-clang++
cu=(-O2 -g --cuda-path="$cuda" --offload-arch=sm_90 -Wno-unknown-cuda-version)
rt=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
set -x
gcc -O2 -g -Wall -Wextra -c "$src/main_c.c" -o main_c.o
for k in kernels_a kernels_b; do
  "$pasta" "${cu[@]}" -fPIC -c "$src/$k.cu" -o $k.o
  clang++-22 -x cuda "${cu[@]}" -fPIC -c "$src/$k.cu" -o $k.plain.o
done
# main in C by gcc, kernels in two .cu entry points.
"$pasta" main_c.o kernels_a.o kernels_b.o -o gcc_main "${rt[@]}"
clang++-22 main_c.o kernels_a.plain.o kernels_b.plain.o -o gcc_main.plain "${rt[@]}"
# main in a .cpp without kernels.
"$pasta" -O2 -g -c "$src/main_cpp.cpp" -o main_cpp.o
"$pasta" main_cpp.o kernels_a.o kernels_b.o -o cpp_main "${rt[@]}"
clang++-22 main_cpp.o kernels_a.plain.o kernels_b.plain.o -o cpp_main.plain "${rt[@]}"
# Kernels in a static library.
rm -f libstructures_static.a && ar rcs libstructures_static.a kernels_a.o kernels_b.o
"$pasta" main_c.o -L. -lstructures_static -o static_main "${rt[@]}"
# Kernels in a shared library (its own static CUDA runtime), linked at build
# time, and opened with dlopen by a main that links no kernels.
"$pasta" -shared kernels_a.o kernels_b.o -o libstructures_kernels.so "${rt[@]}"
"$pasta" main_c.o -L. -lstructures_kernels -Wl,-rpath,'$ORIGIN' -o shared_main "${rt[@]}"
gcc -O2 -g -Wall -Wextra -DKERNELS_OPTIONAL -c "$src/main_c.c" -o main_c_dl.o
"$pasta" main_c_dl.o -o dl_main -ldl -pthread
