#!/usr/bin/env bash
# Every test that needs no GPU: installs packages, builds (the C libraries'
# unit tests with AddressSanitizer and UBSan), and runs ctest: unit tests,
# lit/FileCheck tests of the passes, instrumented builds of every bundled
# kernel for sm_90 and gfx90a, host-code end-to-end tests. The GPU check is
# a test too; it reports "skipped: no GPU" where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The fuzz tests fuzz 30 s each here (PASTA_FUZZ_SECONDS; the cache
# default is 60): the whole run must stay inside CI's 20 minutes on 2 cores,
# and scripts/fuzz.sh is the long run.
scripts/build.sh -DPASTA_SANITIZE=ON -DPASTA_FUZZ_SECONDS="${PASTA_FUZZ_SECONDS:-30}"
cd "${PASTA_BUILD_DIR:-build}"
# ctest prints a skipped test's output only with -V: say it here.
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "gpu: skipped: no GPU (ctest's gpu test; run scripts/gpu_check.sh on a GPU machine)"
fi
if ! command -v chromium > /dev/null 2>&1; then
  echo "html-*: skipped: no chromium (scripts/setup.sh installs it)"
fi
# The plain twins of the structures and of the nvcc projects are built
# only to be run on a GPU (scripts/stage_gpu.sh, stage_closing_run.sh build
# them): not here, a fifth of the tests' time (PASTA_PLAIN_TWINS=1 builds
# them).
export PASTA_PLAIN_TWINS=${PASTA_PLAIN_TWINS:-0}
# One test per core (CI has 2): the tests write only below their own
# folders, and the full run stays well inside CI's 20 minutes.
ctest --output-on-failure -j "${PASTA_TEST_JOBS:-$(nproc)}"
