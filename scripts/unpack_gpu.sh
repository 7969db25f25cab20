#!/usr/bin/env bash
# On the GPU machine: unpacks what PASTA_STAGE_PACK=1 scripts/stage_gpu.sh
# packed into build-gpu/kernels.tgz (or, packed by hand with xz, about a
# ninth of the size, kernels.txz), so that build-gpu/bin/kernels holds the
# executables again; build-gpu/structures.txz likewise into bin/structures.
set -euo pipefail
cd "$(dirname "$0")/.."
# unpack ARCHIVE DIR: ARCHIVE (gzip or xz, by tar's own detection) into DIR.
unpack() {
  [ -f "$1" ] || return 0
  mkdir -p "$2"
  tar xf "$1" -C "$2"
}
unpack build-gpu/kernels.tgz build-gpu/bin/kernels
unpack build-gpu/kernels.txz build-gpu/bin/kernels
unpack build-gpu/structures.txz build-gpu/bin/structures
