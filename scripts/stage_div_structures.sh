#!/usr/bin/env bash
# Stages scripts/gpu_divergence_structures.sh: the program structures built
# with PASTA_DIVERGENCE=1 (scripts/build_structures.sh with it set), their
# plain twins and libpasta_rt.so, packed with xz under the carry limit.
set -euo pipefail
cd "$(dirname "$0")/.."
PASTA_STAGE_DIV=1 scripts/stage_gpu.sh > /dev/null
rm -rf build-gpu/bin/kernels build-gpu/kernels.tgz
(cd build-gpu/bin/structures && XZ_OPT=-9 tar cJf ../../structures.txz .)
rm -rf build-gpu/bin
git rev-parse --short HEAD > build-gpu/commit
du -sh build-gpu
