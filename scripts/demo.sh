#!/usr/bin/env bash
# The main job, end to end: install what PASTA needs, build what the demo
# runs (the plugin, the runtime, the compiler wrapper and one program; not
# the test suite's bundled kernels in every mode, which scripts/test.sh
# builds), instrument a bundled program, run it and print PASTA's report.
# On a machine with an NVIDIA GPU it runs the instrumented axpy kernel;
# without one it shows the same pipeline on host code (PASTA_HOST=1), so
# the report is real either way. The host program is built as a user builds
# one, with the wrapper and no -g (the wrapper adds line tables).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${PASTA_BUILD_DIR:-build}
out=$(mktemp -d)

if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1; then
  PASTA_BUILD_TARGETS="pasta pasta_rt bin/kernels/axpy-pasta" scripts/build.sh > /dev/null
  echo "== GPU found: running the instrumented axpy ($build/bin/kernels/axpy-pasta)"
  PASTA_OUTPUT="$out/axpy.json" "$build/bin/kernels/axpy-pasta"
else
  PASTA_BUILD_TARGETS="pasta pasta_rt_shared pasta_glue" scripts/build.sh > /dev/null
  echo "== No GPU here: instrumenting host code instead (PASTA_HOST=1)"
  echo "   PASTA_HOST=1 $build/bin/pasta-clang -O2 tests/host/dot_scale.c -o dot_scale"
  PASTA_HOST=1 "$build/bin/pasta-clang" -O2 tests/host/dot_scale.c -o "$out/dot_scale"
  PASTA_OUTPUT="$out/dot_scale.json" "$out/dot_scale"
fi
echo "== The JSON profile is in $out"
