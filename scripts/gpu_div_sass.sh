#!/usr/bin/env bash
# Where the divergence copies' instructions go, for several kernels in one
# GPU run: Nsight Compute's source page of one launch of each named kernel,
# plain and divergence builds, by SASS instruction, at the benchmark size
# (or with the arguments a spec's third field gives).
# (The page by CUDA source line came back without metrics in the run of
# 2026-11-28, so it is not asked for.) No timing:
# scripts/gpu_div_variants.sh does that.
# Stage with PASTA_STAGE_DIV=1 PASTA_STAGE_PACK=1 scripts/stage_gpu.sh; then
#   run(command="PROFILE='histogram:histogram_kernel pathfinder:pathfinder_kernel' bash scripts/gpu_div_sass.sh", carry=["build-gpu"])
# Output: $OUT/ncu.tgz (ncu-<program>-{plain,div}.csv and .txt; a program
# named twice, e.g. bfs:bfs_expand bfs:bfs_update, gets
# ncu-<program>.<kernel regex>-... so that the second does not overwrite
# the first); read with python3 scripts/ncu_sass_blocks.py
# ncu-<program>-div.csv.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
export OUT
mkdir -p "$OUT"
[ -d build-gpu/bin/kernels ] || bash scripts/unpack_gpu.sh # staged: packed
export PASTA_DIVERGENCE=1
for spec in ${PROFILE:?PROFILE=program:kernel_regex[:args] ...}; do
  IFS=: read -r prog kernel args <<<"$spec"
  [ -n "$args" ] ||
    args=$(awk -v k="$prog" '$1 == k { print $2 }' test_kernels/bench_sizes.txt)
  BUILDS=${BUILDS:-plain div} NCU_S=${NCU_S:-150} PRINT_SOURCE=sass \
    bash scripts/gpu_ncu_source.sh "$prog" "$kernel" $args >/dev/null 2>&1
  echo "$prog: $(ls "$OUT"/ncu-"$prog"-* 2>/dev/null | wc -l) files"
  if [ "$(printf '%s\n' $PROFILE | grep -c "^$prog:")" -gt 1 ]; then
    for f in "$OUT"/ncu-"$prog"-*; do
      [ -e "$f" ] && mv "$f" "$OUT/ncu-$prog.${kernel//[^A-Za-z0-9_]/_}-${f##*/ncu-$prog-}"
    done
  fi
done
(cd "$OUT" && tar czf ncu.tgz ncu-* && rm -f ncu-*)
