#!/usr/bin/env bash
# Stages scripts/gpu_div_variants.sh: this tree's staged programs
# (scripts/stage_gpu.sh, PASTA_STAGE_DIV=1) plus, for each NAME=DIR, the
# divergence builds DIR/<k>-div as <k>-div-NAME (e.g. before=OLD/bin/kernels
# for an earlier tree's, or copies of bin/kernels/*-div built with other
# settings).
# usage: scripts/stage_div_variants.sh NAME=DIR...
# then run(command="VARIANTS='div NAME...' bash scripts/gpu_div_variants.sh",
#          carry=["build-gpu"]) after scripts/unpack_gpu.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: stage_div_variants.sh NAME=DIR..." >&2; exit 1; }
PASTA_STAGE_DIV=1 scripts/stage_gpu.sh > /dev/null
dst=build-gpu/bin/kernels
for spec in "$@"; do
  name=${spec%%=*} dir=${spec#*=}
  n=0
  for exe in "$dir"/*-div; do
    [ -x "$exe" ] || continue
    k=$(basename "$exe" -div)
    [ -x "$dst/$k-div" ] || continue
    cp "$exe" "$dst/$k-div-$name"
    n=$((n + 1))
  done
  [ $n -gt 0 ] || { echo "stage_div_variants: no <k>-div in $dir" >&2; exit 1; }
  echo "stage_div_variants: $name: $n programs"
done
# Under the 64 MiB carry limit: the bundled programs only, packed with xz.
rm -rf build-gpu/bin/structures
(cd "$dst" && XZ_OPT=-9 tar cJf ../../kernels.txz .)
rm -rf build-gpu/bin
git rev-parse --short HEAD > build-gpu/commit
du -sh build-gpu
