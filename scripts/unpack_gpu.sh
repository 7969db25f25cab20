#!/usr/bin/env bash
# On the GPU machine: unpacks what PASTA_STAGE_PACK=1 scripts/stage_gpu.sh
# packed into build-gpu/kernels.tgz (or, packed by hand with xz, about a
# ninth of the size, kernels.txz), so that build-gpu/bin/kernels holds the
# executables again; build-gpu/structures.txz likewise into bin/structures.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build-gpu/kernels.tgz ]; then
  mkdir -p build-gpu/bin/kernels
  tar xzf build-gpu/kernels.tgz -C build-gpu/bin/kernels
fi
if [ -f build-gpu/kernels.txz ]; then
  mkdir -p build-gpu/bin/kernels
  tar xJf build-gpu/kernels.txz -C build-gpu/bin/kernels
fi
if [ -f build-gpu/structures.txz ]; then
  mkdir -p build-gpu/bin/structures
  tar xJf build-gpu/structures.txz -C build-gpu/bin/structures
fi
