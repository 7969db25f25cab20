#!/usr/bin/env bash
# Builds each of NVIDIA's CUDA samples (github.com/NVIDIA/cuda-samples, a
# checkout given as SAMPLES) unmodified, as a user would: its own directory
# configured with cmake/pasta-toolchain.cmake and built. A sample that does
# not build is tried again with the real nvcc (its own architecture list),
# so that the table says whose failure it is. Writes RESULTS/samples.tsv:
#
#   sample <tab> pasta <tab> nvcc <tab> first error or CMake message
#
# pasta: built, configure or build (the step that failed), or skipped (the
# sample's CMakeLists built nothing here: a library or package it needs is
# missing); nvcc: the same for the real nvcc, "-" where not tried.
#
# usage: scripts/cuda_samples.sh SAMPLES RESULTS [JOBS]
# env:   PASTA_BUILD_DIR (default build/), PASTA_CUDA_ARCHITECTURES (default
#        90: one architecture keeps the run short), PASTA_REAL_NVCC,
#        SAMPLES_FILTER (a grep -E pattern over sample paths)
# docs/nvcc.md has the table this produced and the command that ran it.
set -u
samples=$(cd "$1" && pwd)
results=$(mkdir -p "$2" && cd "$2" && pwd)
jobs=${3:-2}
repo=$(cd "$(dirname "$0")/.." && pwd)
export PASTA_BUILD_DIR=${PASTA_BUILD_DIR:-$repo/build}
export PASTA_CUDA_ARCHITECTURES=${PASTA_CUDA_ARCHITECTURES:-90}
export PASTA_REAL_NVCC=${PASTA_REAL_NVCC:-/usr/local/cuda/bin/nvcc}
export repo results

# One sample: a directory whose CMakeLists.txt makes an executable.
build_one() {
  local dir=$1 name
  name=${dir#Samples/}
  local key=${name//\//+}
  local out=$results/build/$key log=$results/logs/$key
  mkdir -p "$results/logs"
  rm -rf "$out"
  local pasta=built nvcc=- why=""
  if ! cmake -G Ninja -S "$dir" -B "$out/pasta" \
    -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/pasta-toolchain.cmake" \
    -DPASTA_BUILD_DIR="$PASTA_BUILD_DIR" \
    -DPASTA_CUDA_ARCHITECTURES="$PASTA_CUDA_ARCHITECTURES" \
    > "$log.pasta.log" 2>&1; then
    pasta=configure
  elif ! cmake --build "$out/pasta" -- -k 0 >> "$log.pasta.log" 2>&1; then
    pasta=build
  fi
  if [ $pasta = built ] && [ -z "$(find "$out/pasta" -path '*/CMakeFiles' \
    -prune -o -type f -executable -print -quit)" ]; then
    pasta=skipped
    why=$(grep -m1 -iE "skip|not found|missing|requires" "$log.pasta.log" |
      tr '\t' ' ' | cut -c1-300)
  fi
  if [ $pasta = build ] || [ $pasta = configure ]; then
    why=$(grep -m1 -E "error|Error" "$log.pasta.log" | tr '\t' ' ' | cut -c1-300)
    nvcc=configure
    if [ -x "$PASTA_REAL_NVCC" ] &&
      cmake -G Ninja -S "$dir" -B "$out/nvcc" \
        -DCMAKE_CUDA_COMPILER="$PASTA_REAL_NVCC" > "$log.nvcc.log" 2>&1; then
      nvcc=build
      cmake --build "$out/nvcc" > "$log.nvcc.log" 2>&1 && nvcc=built
    fi
  fi
  # Keep the executables only (the GPU run needs them), not the objects.
  find "$out" -name '*.o' -delete 2> /dev/null
  printf '%s\t%s\t%s\t%s\n' "$name" "$pasta" "$nvcc" "$why"
}
export -f build_one

cd "$samples"
grep -l 'add_executable' Samples/*/*/CMakeLists.txt |
  xargs -n1 dirname | sort | grep -E "${SAMPLES_FILTER:-.}" |
  xargs -P "$jobs" -I{} bash -c 'build_one {}' > "$results/samples.tsv.tmp"
sort "$results/samples.tsv.tmp" > "$results/samples.tsv"
rm -f "$results/samples.tsv.tmp"
total=$(wc -l < "$results/samples.tsv")
built=$(awk -F'\t' '$2 == "built"' "$results/samples.tsv" | wc -l)
echo "cuda samples: $built of $total built through the toolchain ($results/samples.tsv)"
