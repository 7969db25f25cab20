#!/usr/bin/env bash
# On the GPU machine: unpacks what PASTA_STAGE_PACK=1 scripts/stage_gpu.sh
# packed into build-gpu/kernels.tgz, so that build-gpu/bin/kernels holds the
# executables again.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build-gpu/kernels.tgz ]; then
  mkdir -p build-gpu/bin/kernels
  tar xzf build-gpu/kernels.tgz -C build-gpu/bin/kernels
fi
