#!/usr/bin/env bash
# Builds NVIDIA's CUDA samples (github.com/NVIDIA/cuda-samples, a checkout
# given as SAMPLES) unmodified through cmake/pasta-toolchain.cmake: every
# sample's own CMakeLists.txt, added to one CMake build (one configure
# instead of ~200; the repository's top-level build cannot configure where
# a CUDA library it names, nvJPEG or NPP, is not installed). A sample whose
# CMakeLists.txt fails to configure is left out of that build and tried
# alone; a sample that does not build is tried again with the real nvcc, so
# that the table says whose failure it is. Writes RESULTS/samples.tsv:
#
#   sample <tab> pasta <tab> nvcc <tab> first error or CMake message
#
# pasta: built, configure or build (the step that failed), or skipped (the
# sample's CMakeLists built nothing here: a package it needs is missing);
# nvcc: the same for the real nvcc, "-" where not tried.
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
PASTA_BUILD_DIR=${PASTA_BUILD_DIR:-$repo/build}
PASTA_CUDA_ARCHITECTURES=${PASTA_CUDA_ARCHITECTURES:-90}
nvcc=${PASTA_REAL_NVCC:-/usr/local/cuda/bin/nvcc}

cd "$samples"
grep -l 'add_executable' Samples/*/*/CMakeLists.txt | xargs -n1 dirname |
  sort | grep -E "${SAMPLES_FILTER:-.}" > "$results/all.txt"
: > "$results/excluded.txt"

# The umbrella project: each sample's directory, binary dir named after it.
write_umbrella() {
  {
    echo "cmake_minimum_required(VERSION 3.20)"
    echo "project(pasta_cuda_samples LANGUAGES C CXX CUDA)"
    grep -vxFf "$results/excluded.txt" "$results/all.txt" | while read -r d; do
      echo "add_subdirectory($samples/$d ${d//\//+})"
    done
  } > "$results/umbrella/CMakeLists.txt"
}

configure() {
  cmake -G Ninja -S "$results/umbrella" -B "$results/build" \
    -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/pasta-toolchain.cmake" \
    -DPASTA_BUILD_DIR="$PASTA_BUILD_DIR" \
    -DPASTA_CUDA_ARCHITECTURES="$PASTA_CUDA_ARCHITECTURES" \
    > "$results/configure.log" 2>&1
}

# Samples named in configure errors ("CMake Error at <sample>/CMakeLists.txt"
# or "linked by target ... in directory <sample>").
failing_samples() {
  grep -oE "(CMake Error at |in directory )$samples/Samples/[^/ ]+/[^/ :]+" \
    "$results/configure.log" | grep -oE "Samples/[^/ ]+/[^/ :]+" | sort -u
}

rm -rf "$results/umbrella" "$results/build"
mkdir -p "$results/umbrella"
for _ in 1 2 3 4 5; do
  write_umbrella
  configure && break
  new=$(failing_samples | grep -vxFf "$results/excluded.txt")
  [ -n "$new" ] || { tail -20 "$results/configure.log"; exit 1; }
  echo "$new" >> "$results/excluded.txt"
done
cmake --build "$results/build" -- -k 0 -j "$jobs" > "$results/build.log" 2>&1

# One sample alone (a CMakeLists that does not configure here).
alone() { # alone DIR BUILD -- extra cmake arguments
  local dir=$1 out=$2
  shift 2
  cmake -G Ninja -S "$samples/$dir" -B "$out" "$@" > "$out.log" 2>&1 &&
    cmake --build "$out" >> "$out.log" 2>&1
}

python3 - "$samples" "$results" << 'EOF' > "$results/status.tsv"
import os, re, sys
samples, results = sys.argv[1:3]
excluded = set(open(f"{results}/excluded.txt").read().split())
log = open(f"{results}/build.log", errors="replace").read().splitlines()
# ninja prints each failed command as a block: "FAILED: <outputs>", the
# command, its output; the first error line of the block says why.
first_error = {}
i = 0
while i < len(log):
    if log[i].startswith("FAILED: "):
        m = re.search(r"(\d_[A-Za-z_]+\+[^/ ]+)/", log[i])
        j = i + 1
        why = ""
        while j < len(log) and not re.match(r"\[\d+/\d+\]|FAILED: |ninja: ", log[j]):
            if not why and re.search(r"error", log[j]):
                why = log[j]
            j += 1
        if m and m.group(1) not in first_error:
            first_error[m.group(1)] = why.replace("\t", " ")[:300]
        i = j
    else:
        i += 1
for d in open(f"{results}/all.txt").read().split():
    key = d.replace("Samples/", "", 1).replace("/", "+")
    name = d.split("/")[-1]
    if d in excluded:
        print(f"{d}\tconfigure\t")
        continue
    out = f"{results}/build/{d.replace('/', '+')}"
    built = any(os.access(os.path.join(r, f), os.X_OK) and not r.count("CMakeFiles")
                and os.path.isfile(os.path.join(r, f)) and "." not in f
                for r, _, fs in os.walk(out) for f in fs)
    if built:
        print(f"{d}\tbuilt\t")
    elif key in first_error or d.replace("/", "+") in first_error:
        print(f"{d}\tbuild\t{first_error.get(key) or first_error.get(d.replace('/', '+'))}")
    else:
        print(f"{d}\tskipped\t")
EOF

: > "$results/samples.tsv"
mkdir -p "$results/alone"
while IFS=$'\t' read -r dir status why; do
  key=${dir//\//+}
  name=${dir#Samples/}
  nvcc_status=-
  if [ "$status" = configure ]; then
    alone "$dir" "$results/alone/$key.pasta" \
      -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/pasta-toolchain.cmake" \
      -DPASTA_BUILD_DIR="$PASTA_BUILD_DIR" \
      -DPASTA_CUDA_ARCHITECTURES="$PASTA_CUDA_ARCHITECTURES" && status=built
    why=$(grep -m1 -E "CMake Error|error" "$results/alone/$key.pasta.log" |
      cut -c1-300)
  fi
  if [ "$status" = skipped ]; then
    why=$(grep -iF "$(basename "$dir")" "$results/configure.log" |
      grep -m1 -iE "skip|not found|missing|requires|will not" | cut -c1-300)
  fi
  if [ "$status" = build ] || [ "$status" = configure ]; then
    nvcc_status=configure
    if [ -x "$nvcc" ]; then
      if alone "$dir" "$results/alone/$key.nvcc" \
        -DCMAKE_CUDA_COMPILER="$nvcc"; then
        nvcc_status=built
      elif [ -f "$results/alone/$key.nvcc/build.ninja" ]; then
        nvcc_status=build
      fi
    fi
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$nvcc_status" "$why" >> "$results/samples.tsv"
done < "$results/status.tsv"
total=$(wc -l < "$results/samples.tsv")
built=$(awk -F'\t' '$2 == "built"' "$results/samples.tsv" | wc -l)
echo "cuda samples: $built of $total built through the toolchain ($results/samples.tsv)"
