#!/usr/bin/env bash
# One GPU run for a divergence-mode change: the A/B timing table of
# scripts/gpu_div_variants.sh, then Nsight Compute's SASS source page of a
# few kernels in each build (scripts/gpu_div_sass.sh), packed in
# $OUT/ncu.tgz for scripts/ncu_sass_blocks.py.
# usage (GPU machine, after scripts/stage_div_variants.sh before=OLD/bin/kernels
# here and scripts/unpack_gpu.sh there):
#   VARIANTS='before div' BUILDS='div div-before' \
#   PROFILE='pathfinder:pathfinder_kernel:1048576 reduction:reduce_f32:16777216' \
#   bash scripts/gpu_div_ab_profile.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
export OUT
mkdir -p "$OUT"
VARIANTS=${VARIANTS:-before div} bash scripts/gpu_div_variants.sh >"$OUT/variants.log" 2>&1
cat "$OUT/variants.md"
[ -z "${PROFILE:-}" ] ||
  BUILDS=${BUILDS:-div div-before} bash scripts/gpu_div_sass.sh >/dev/null
ls "$OUT"
