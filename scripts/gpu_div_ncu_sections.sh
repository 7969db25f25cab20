#!/usr/bin/env bash
# Nsight Compute's summary sections (--set full, one launch) of the plain
# build and the divergence copy of several bundled kernels, side by side:
# where divergence mode's time goes (instructions, occupancy, stall reasons,
# L2 atomics). Staged by scripts/stage_div_before_after.sh.
# usage (GPU machine): scripts/gpu_div_ncu_sections.sh "PROGRAM:KERNEL_REGEX:ARGS" ...
# e.g. scripts/gpu_div_ncu_sections.sh "vector_add:vector_add:67108864"
# Writes $OUT/ncu-<program>-{plain,div}.txt (ncu --page details).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
KBIN=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_div_ncu_sections: no ncu" >&2; exit 1; }
for spec in "$@"; do
  IFS=: read -r prog kernel args <<<"$spec"
  for build in ${BUILDS:-plain div}; do
    exe=$KBIN/$prog
    [ "$build" = plain ] || exe=$KBIN/$prog-$build
    base=$OUT/ncu-$prog-$build
    # shellcheck disable=SC2086 # ARGS are words
    env PASTA_DIVERGENCE=1 PASTA_QUIET=1 PASTA_OUTPUT=/dev/null \
      timeout "${NCU_S:-120}" "$NCU" -k "regex:$kernel" --launch-count 1 \
      --set full --page details "$exe" $args >"$base.txt" 2>&1
  done
done
ls -la "$OUT"
