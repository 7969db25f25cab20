#!/usr/bin/env bash
# Working-set mode of two builds side by side on one GPU (issue
# [overhead-2]: the table lookup of a cache miss moved out of line): the
# bundled programs' results in working-set mode compared profile by profile
# (scripts/gpu_compare_builds.sh), their kernel times (scripts/gpu_bench.sh:
# plain, counting, working-set mode of this build and of the one before),
# and the Thrust structure's kernels under ncu (gpu__time_duration: plain,
# counting, working-set mode of both builds). Each part has a time limit so
# one device call brings back what finished.
# Stage on the development machine (about 8 MB, within the 64 MiB carry):
#   scripts/stage_ws_before_after.sh <build dir of the earlier tree>
# then run(command="bash scripts/gpu_ws_before_after.sh", carry=["build-gpu"]).
# WS_VARIANTS replaces gpu_bench.sh's variants (e.g. add "pasta-ws1bank"),
# COMPARE_MODES the modes compared (default "ws"; "count ws" adds counting),
# THRUST_VARIANTS the Thrust runs (default "plain counting ws before-ws";
# "before" is the earlier build's counting mode; "ws-inline" this build's
# Thrust with no compact copies, staged with STAGE_THRUST_INLINE=1). The
# first is the baseline.
# PROGRAMS limits the timed part to some programs (gpu_bench.sh; e.g. "nw
# gaussian vector_add" for the per-launch cost of working-set mode; the
# profiles are still compared program by program).
# Results in $OUT: compare.txt, working_set_check.txt, bench.md, thrust.md,
# device.txt; logs in rest.tgz.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/work
mkdir -p "$W/before" "$W/after" "$W/cmp" "$W/bench" "$W/thrust"
bash scripts/unpack_gpu.sh
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
KBIN=$PWD/build-gpu/bin/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt"
echo "commit $(cat build-gpu/commit 2>/dev/null)" >>"$OUT/device.txt"

# gpu_compare_builds.sh wants <program>-pasta in two folders.
for f in "$KBIN"/*-before; do
  n=$(basename "$f" -before)
  [ -x "$KBIN/$n-pasta" ] || continue
  ln -s "$f" "$W/before/$n-pasta"
  ln -s "$KBIN/$n-pasta" "$W/after/$n-pasta"
done
MODES=${COMPARE_MODES:-ws} OUT=$W/cmp timeout "${COMPARE_S:-110}" \
  bash scripts/gpu_compare_builds.sh "$W/before" "$W/after" >"$W/compare.log" 2>&1
cp "$W/cmp/compare.txt" "$OUT/" 2>/dev/null
# This build's working sets against the hand-derived ones
# (tests/gpu/working_set.cu, with hotness): working_set_check.txt.
PASTA_WORKING_SET=1 PASTA_HOTNESS=1 PASTA_OUTPUT="$W/working_set.json" \
  timeout 60 "$KBIN/working_set-pasta" >"$W/working_set.out" 2>&1
python3 tests/check_working_set.py ws tests/gpu/working_set.cu "$W/working_set.json" \
  "$W/working_set.hotness.csv" >"$OUT/working_set_check.txt" 2>&1
echo "exit $?" >>"$OUT/working_set_check.txt"

PASTA_KERNEL_BIN=$KBIN OUT=$W/bench TK_BENCH=${TK_BENCH:-5} \
  VARIANTS="${WS_VARIANTS:-plain pasta pasta-ws before-ws}" timeout "${BENCH_S:-240}" \
  bash scripts/gpu_bench.sh >"$W/bench.log" 2>&1
cp "$W/bench/bench.md" "$OUT/" 2>/dev/null ||
  python3 scripts/bench_table.py "$W/bench/bench.txt" "$(cat "$OUT/device.txt")" \
    >"$OUT/bench.md" 2>&1

. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
S=$PWD/build-gpu/bin/structures
if [ -x "$NCU" ]; then
  for name in ${THRUST_VARIANTS:-plain counting ws before-ws}; do
    exe=$S/thrust ws=0 libs=${LD_LIBRARY_PATH:-}
    case $name in
    plain) exe=$S/thrust.plain ;;
    ws) ws=1 ;;
    # Staged with STAGE_THRUST_INLINE=1: no compact working-set copies.
    ws-inline) exe=$S/thrust.inline ws=1 ;;
    before | before-ws) exe=$S/thrust.before
      [ $name = before-ws ] && ws=1
      # Its own runtime when staged (STAGE_OLD_RUNTIME=1): the ABI versions
      # of plugin and runtime must agree.
      [ -d build-gpu/lib-before ] && libs=$PWD/build-gpu/lib-before:$libs ;;
    esac
    env LD_LIBRARY_PATH="$libs" PASTA_QUIET=1 PASTA_WORKING_SET=$ws \
      PASTA_OUTPUT="$W/thrust/$name.json" \
      timeout "${THRUST_S:-35}" "$NCU" --csv --page raw --print-units base \
      --print-kernel-base mangled --metrics gpu__time_duration.sum \
      --log-file "$W/thrust/$name.csv" "$exe" >"$W/thrust/$name.out" 2>&1
  done
  csvs=
  for name in ${THRUST_VARIANTS:-plain counting ws before-ws}; do
    csvs="$csvs $W/thrust/$name.csv"
  done
  python3 scripts/ncu_kernel_times.py $csvs >"$OUT/thrust.md" 2>&1
  # Where vector_add's working-set time goes (plain against working-set
  # mode): ncu's throughput, warp-state and memory sections, one launch each.
  # NCU_VECTOR_ADD=0 leaves this part out.
  [ "${NCU_VECTOR_ADD:-1}" = 1 ] && for exe in vector_add vector_add-pasta; do
    env PASTA_QUIET=1 PASTA_WORKING_SET=1 PASTA_OUTPUT=/dev/null \
      timeout "${NCU_S:-45}" "$NCU" -k regex:vector_add --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section InstructionStats \
      "$KBIN/$exe" 67108864 >"$W/ncu-$exe.txt" 2>&1
  done
  [ "${NCU_VECTOR_ADD:-1}" = 1 ] &&
    cat "$W/ncu-vector_add.txt" "$W/ncu-vector_add-pasta.txt" >"$OUT/ncu-vector_add.txt"
else
  echo "gpu_ws_before_after: no ncu" >"$OUT/thrust.md"
fi
tar czf "$OUT/rest.tgz" --exclude='*.json' -C "$W" . 2>/dev/null
rm -rf "$W"
ls -la "$OUT"
