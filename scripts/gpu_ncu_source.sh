#!/usr/bin/env bash
# Where one kernel's instrumented copy spends its time, instruction by
# instruction: Nsight Compute's source page (SASS, warp-stall samples and
# executed instructions per instruction) and its summary sections for the
# plain build and the counting build of one staged program, one launch each.
# usage (GPU machine, programs staged by scripts/stage_gpu.sh or
# stage_ws_before_after.sh):
#   scripts/gpu_ncu_source.sh PROGRAM KERNEL_REGEX [ARGS...]
# e.g. scripts/gpu_ncu_source.sh reduction reduce_f32 16777216
# Writes $OUT/ncu-<program>-{plain,pasta}.{txt,csv}; PRINT_SOURCE=cuda gives
# the CSV per source line (the runtime's inlined helpers by their own lines),
# PRINT_SOURCE='sass cuda' both (the second as <base>.cuda.csv).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
prog=$1 kernel=$2
shift 2
KBIN=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_ncu_source: no ncu" >&2; exit 1; }
# BUILDS="before pasta" compares two instrumented builds instead (staged by
# stage_ws_before_after.sh: <program>-before).
for build in ${BUILDS:-plain pasta}; do
  exe=$KBIN/$prog
  [ "$build" = plain ] || exe=$KBIN/$prog-$build
  base=$OUT/ncu-$prog-$build
  env PASTA_QUIET=1 PASTA_OUTPUT=/dev/null timeout "${NCU_S:-60}" "$NCU" \
    -k "regex:$kernel" --launch-count 1 --set full -o "$base" "$exe" "$@" \
    >"$base.log" 2>&1
  "$NCU" -i "$base.ncu-rep" --page details >"$base.txt" 2>&1
  for view in ${PRINT_SOURCE:-sass}; do
    suffix=; [ "$view" = sass ] || suffix=.$view
    "$NCU" -i "$base.ncu-rep" --page source --csv --print-source "$view" \
      >"$base$suffix.csv" 2>&1
  done
  rm -f "$base.ncu-rep"
done
ls -la "$OUT"/ncu-"$prog"-*
