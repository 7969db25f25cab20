#!/usr/bin/env bash
# The closing device run of issue [overhead-2] on a final tree: the counts
# and results re-checked (scripts/gpu_check.sh: suite against ncu, program
# structures against hand-derived counts), trace mode's overhead
# (scripts/gpu_trace.sh: as shipped and every launch traced) and the host
# time per launch (scripts/gpu_launch_cost.sh). Each part has a time limit so
# that one device call (10 minutes) brings back what finished.
# Stage on the development machine (fits the 64 MiB carry):
#   ninja -C build && scripts/build_structures.sh
#   PASTA_STAGE_NO_LINES=1 scripts/stage_gpu.sh
#   (cd build-gpu && rm -f bin/kernels/*-div bin/kernels/*-pasta-blocks &&
#     XZ_OPT=-9 tar cJf kernels.txz -C bin/kernels . && rm -rf bin/kernels &&
#     tar czf structures.tgz -C bin structures && rm -rf bin/structures)
#   (xz: gzip's kernels.tgz, 82 MB, no longer fits the 64 MiB carry)
#   git rev-parse --short HEAD > build-gpu/commit; scripts/stage_launch_cost.sh
# then run(command="bash scripts/archive/gpu_overhead2_final.sh",
#          carry=["build-gpu", "build-gpu-launch"]).
# Results in $OUT: check.md, structures.md, trace-bench.md, trace-summary.md,
# launch_cost.md, and everything else in rest.tgz.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/work
mkdir -p "$W/check" "$W/trace" "$W/lc"
bash scripts/unpack_gpu.sh
[ -f build-gpu/structures.tgz ] && tar xzf build-gpu/structures.tgz -C build-gpu/bin
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
KBIN=$PWD/build-gpu/bin/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt"
echo "commit $(cat build-gpu/commit 2>/dev/null)" >>"$OUT/device.txt"
PASTA_KERNEL_BIN=$KBIN OUT=$W/check timeout "${CHECK_S:-240}" bash scripts/gpu_check.sh \
  >"$W/check.log" 2>&1
PASTA_KERNEL_BIN=$KBIN OUT=$W/trace TK_BENCH=${TK_BENCH:-5} timeout "${TRACE_S:-200}" \
  bash scripts/gpu_trace.sh >"$W/trace.log" 2>&1
OUT=$W/lc REPS=${REPS:-7} timeout "${LAUNCH_S:-120}" bash scripts/gpu_launch_cost.sh \
  >"$W/lc.log" 2>&1
cp "$W/check/validation.md" "$OUT/check.md" 2>/dev/null
cp "$W/check/structures.md" "$OUT/structures.md" 2>/dev/null
cp "$W/trace/trace-bench.md" "$W/trace/trace-summary.md" "$OUT/" 2>/dev/null
cp "$W/lc/launch_cost.md" "$OUT/" 2>/dev/null
tar czf "$OUT/rest.tgz" --exclude='*.json' --exclude='traces.tgz' -C "$W" . 2>/dev/null
rm -rf "$W"
ls -la "$OUT"
