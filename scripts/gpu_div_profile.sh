#!/usr/bin/env bash
# Where a divergence copy's time goes (issue [divergence]): Nsight Compute on
# one launch of each named program's kernels, plain and divergence builds
# side by side, at the benchmark size: kernel time, instructions, registers,
# achieved occupancy, global atomics/reductions and the top stall reasons.
# Stage as for scripts/gpu_divergence.sh; then
#   run(command="PROGRAMS='vector_add reduction pathfinder' bash scripts/gpu_div_profile.sh", carry=["build-gpu"])
# VARIANTS="plain div div-before" adds the before build staged by
# scripts/stage_div_before_after.sh.
# Output: $OUT/div-profile.txt (ncu's raw CSV per program and build).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
bash scripts/unpack_gpu.sh
BIN=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_div_profile: ncu not found"; exit 1; }
METRICS=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_requests_srcunit_tex_op_red.sum,lts__t_requests_srcunit_tex_op_atom.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
: > "$OUT/div-profile.txt"
for k in ${PROGRAMS:-vector_add reduction pathfinder}; do
  n=$(awk -v k="$k" '$1 == k { print $2 }' test_kernels/bench_sizes.txt)
  for variant in ${VARIANTS:-plain div}; do
    exe="$BIN/$k"; [ $variant != plain ] && exe="$BIN/$k-$variant"
    echo "== $k $variant" >> "$OUT/div-profile.txt"
    PASTA_QUIET=1 PASTA_DIVERGENCE=1 PASTA_OUTPUT=/dev/null timeout 120 \
      "$NCU" --clock-control none --csv --page raw --print-units base \
      --launch-skip 2 --launch-count 2 --metrics "$METRICS" "$exe" "$n" \
      2>&1 | grep '^"' >> "$OUT/div-profile.txt"
  done
done
wc -l "$OUT/div-profile.txt"
