#!/usr/bin/env bash
# The main job, end to end: install what PASTA needs, build it, instrument a
# bundled program, run it and print PASTA's report. On a machine with an
# NVIDIA GPU it runs the instrumented axpy kernel; without one it shows the
# same pipeline on host code (PASTA_HOST=1), so the report is real either way.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh > /dev/null
out=$(mktemp -d)

if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1; then
  echo "== GPU found: running the instrumented axpy (build/bin/kernels/axpy-pasta)"
  PASTA_OUTPUT="$out/axpy.json" build/bin/kernels/axpy-pasta
else
  echo "== No GPU here: instrumenting host code instead (PASTA_HOST=1)"
  echo "   clang-22 -O2 -g -fpass-plugin=build/lib/libpasta.so tests/host/dot_scale.c build/lib/libpasta_rt.a"
  PASTA_HOST=1 clang-22 -O2 -g -fpass-plugin=build/lib/libpasta.so \
    tests/host/dot_scale.c -o "$out/dot_scale" build/lib/libpasta_rt.a
  PASTA_OUTPUT="$out/dot_scale.json" "$out/dot_scale"
fi
echo "== The JSON profile is in $out"
