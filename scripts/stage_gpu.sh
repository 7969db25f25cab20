#!/usr/bin/env bash
# Copies what the GPU scripts need (the bundled programs' executables, no
# objects or PTX) from build/ into build-gpu/, small enough to carry to the
# GPU machine: run(command="PASTA_KERNEL_BIN=build-gpu/bin/kernels bash
# scripts/gpu_check.sh", carry=["build-gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
src=${PASTA_BUILD_DIR:-build}/bin/kernels
dst=build-gpu/bin/kernels
rm -rf build-gpu
mkdir -p "$dst"
# AMD code objects (*.co) never run on the NVIDIA machine.
find "$src" -maxdepth 1 -type f -perm -u+x ! -name "*.co" -exec cp {} "$dst"/ \;
du -sh build-gpu
