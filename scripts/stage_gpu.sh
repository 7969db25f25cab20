#!/usr/bin/env bash
# Copies what the GPU scripts need (the bundled programs' executables, no
# objects or PTX) from build/ into build-gpu/, small enough to carry to the
# GPU machine: run(command="PASTA_KERNEL_BIN=build-gpu/bin/kernels bash
# scripts/gpu_check.sh", carry=["build-gpu"]). Also the program structures
# (build-gpu/bin/structures) and libpasta_rt.so (build-gpu/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${PASTA_BUILD_DIR:-build}/bin/kernels
dst=build-gpu/bin/kernels
rm -rf build-gpu
mkdir -p "$dst"
# AMD code objects (*.co) never run on the NVIDIA machine.
# PASTA_STAGE_NO_LINES=1 also leaves out the line-range builds (*-lines*),
# which only scripts/gpu_check.sh uses, to stay under the 64 MiB carry limit.
# PASTA_STAGE_TRACE=1 stages only the plain and trace-mode builds, which are
# all scripts/gpu_trace.sh runs.
skip_lines=()
[ "${PASTA_STAGE_NO_LINES:-0}" = 1 ] && skip_lines=(! -name "*-lines*")
[ "${PASTA_STAGE_TRACE:-0}" = 1 ] &&
  skip_lines=(! -name "*-lines*" ! -name "*-pasta*")
# PASTA_STAGE_DIV=1 stages only the plain and divergence-mode builds (<k>-div),
# which are all scripts/gpu_divergence.sh runs.
[ "${PASTA_STAGE_DIV:-0}" = 1 ] &&
  skip_lines=(! -name "*-lines*" ! -name "*-pasta*" ! -name "*-trace*")
find "$src" -maxdepth 1 -type f -perm -u+x ! -name "*.co" "${skip_lines[@]}" \
  -exec cp {} "$dst"/ \;
# The CMake integration test's relocatable-device-code sample
# (scripts/gpu_separable.sh runs it).
sample=${PASTA_BUILD_DIR:-build}/tests/integration/cmake_project/separable/sample
[ -x "$sample" ] && cp "$sample" "$dst/cmake-separable-sample"
# The program structures (scripts/build_structures.sh; the structures-build-*
# tests build them): executables and their shared libraries, no objects or
# archives; scripts/gpu_structures.sh runs them. They, and programs linked by
# pasta-clang++, need libpasta_rt.so, found through build-gpu/lib (the
# scripts put it on LD_LIBRARY_PATH; their rpath names this machine's
# build directory).
structures=${PASTA_BUILD_DIR:-build}/bin/structures
mkdir -p build-gpu/lib
if [ -d "$structures" ]; then
  mkdir -p build-gpu/bin/structures
  find "$structures" -maxdepth 1 -type f \( -perm -u+x -o -name "*.so" \) \
    ! -name "*.o" ! -name "*.a" -exec cp {} build-gpu/bin/structures/ \;
  # scripts/test.sh builds them without plain twins (PASTA_PLAIN_TWINS=0).
  if [ -e "$structures/thrust" ] && [ ! -e "$structures/thrust.plain" ]; then
    echo "stage_gpu: $structures has no plain twins (run scripts/build_structures.sh); scripts/gpu_structures.sh will fail" >&2
  fi
else
  echo "stage_gpu: no $structures (run scripts/build_structures.sh); scripts/gpu_structures.sh will fail" >&2
fi
cp "${PASTA_BUILD_DIR:-build}/lib/libpasta_rt.so" build-gpu/lib/ 2>/dev/null ||
  echo "stage_gpu: no libpasta_rt.so" >&2
# libdwarf (and its libelf) for the call-path symbolizer: the GPU machine has
# no libdwarf1 package; scripts/gpu_host_ws.sh puts build-gpu/lib on
# LD_LIBRARY_PATH.
mkdir -p build-gpu/lib
for lib in libdwarf.so.1 libelf.so.1; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" build-gpu/lib/ 2>/dev/null ||
    echo "stage_gpu: no $lib; call paths will show offsets" >&2
done
# PASTA_STAGE_PACK=1: the executables as one gzip'd tarball
# (build-gpu/kernels.tgz, about a third of their size), and the structures
# as build-gpu/structures.txz (xz: 3.6 MB against 52 MB unpacked), unpacked
# on the GPU machine with scripts/unpack_gpu.sh into the same folders.
if [ "${PASTA_STAGE_PACK:-0}" = 1 ]; then
  tar czf build-gpu/kernels.tgz -C "$dst" .
  rm -rf "$dst"
  if [ -d build-gpu/bin/structures ]; then
    tar cJf build-gpu/structures.txz -C build-gpu/bin/structures .
    rm -rf build-gpu/bin/structures
  fi
fi
du -sh build-gpu
