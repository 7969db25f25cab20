#!/usr/bin/env bash
# One device-machine run for issue [overhead-2]: the counts checked first,
# then every benchmark table of docs/performance.md that this issue changed.
#  1. scripts/gpu_check.sh: every bundled program plain and instrumented
#     (same checksum), PASTA's counts against Nsight Compute, and the program
#     structures (scripts/gpu_structures.sh: Thrust/CUB included) against
#     their hand-derived counts;
#  2. scripts/gpu_bench.sh with the plain build, the counting build, the
#     counting build without counter placement (PASTA_PLACE_COUNTERS=0 at
#     compile time) and working-set mode, side by side per program;
#  3. the Thrust structure (CUB's radix sort, reduce, transform) under
#     Nsight Compute: gpu__time_duration of every kernel, plain, counting and
#     working-set mode (scripts/ncu_kernel_times.py).
# Stage on the development machine:
#   ninja -C build && ninja -C build pasta_kernels_blocks
#   scripts/build_structures.sh
#   PASTA_STAGE_PACK=1 PASTA_STAGE_NO_LINES=1 scripts/stage_gpu.sh
#   (to fit the 64 MiB carry: the trace-mode builds, which this run does not
#   use, left out of build-gpu/kernels.tgz, and the structures packed as
#   build-gpu/structures.tgz:
#   tar czf build-gpu/structures.tgz -C build-gpu/bin structures)
# then run(command="bash scripts/archive/gpu_overhead2.sh", carry=["build-gpu"]).
# Results in $OUT: check/ (validation.md, structures.md), bench/bench.md,
# thrust.md, launch.md (host time per launch, with settings); logs beside
# them. Exit status 1 when any step failed.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT/check" "$OUT/bench" "$OUT/thrust"
bash scripts/unpack_gpu.sh
# The structures travel packed too (see the staging lines above).
[ -f build-gpu/structures.tgz ] && tar xzf build-gpu/structures.tgz -C build-gpu/bin
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
KBIN=$PWD/build-gpu/bin/kernels
status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"

PASTA_KERNEL_BIN=$KBIN OUT=$OUT/check bash scripts/gpu_check.sh \
  > "$OUT/check.log" 2>&1 || status=1
PASTA_KERNEL_BIN=$KBIN OUT=$OUT/bench TK_BENCH=${TK_BENCH:-10} \
  VARIANTS="plain pasta pasta-blocks pasta-ws" bash scripts/gpu_bench.sh \
  > "$OUT/bench.log" 2>&1 || status=1

# Host time per launch (launch_overhead: 10,000 launches, no synchronisation
# until the end), plain and instrumented, and instrumented without launch
# timing and without call paths, to say where the added time goes.
{
  echo "| build | settings | host us per launch |"
  echo "|---|---|---|"
  for cfg in "plain:" "pasta:" "pasta:PASTA_TIMING=0" "pasta:PASTA_CALL_DEPTH=0" \
      "pasta:PASTA_TIMING=0 PASTA_CALL_DEPTH=0"; do
    b=${cfg%%:*}; settings=${cfg#*:}
    exe=$KBIN/launch_overhead; [ "$b" = pasta ] && exe=$KBIN/launch_overhead-pasta
    for rep in 1 2 3; do
      us=$(env $settings TK_BENCH=1 PASTA_QUIET=1 PASTA_OUTPUT=/dev/null "$exe" \
        2>/dev/null | sed -n 's/.*host_us_per_launch .*median_us=\([0-9.]*\).*/\1/p')
      echo "| $b | ${settings:-defaults} (run $rep) | ${us:-failed} |"
    done
  done
} > "$OUT/launch.md"

. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
bin=$PWD/build-gpu/bin/structures
if [ -x "$NCU" ]; then
  for name in plain counting ws; do
    exe=$bin/thrust; [ $name = plain ] && exe=$bin/thrust.plain
    ws=0; [ $name = ws ] && ws=1
    env PASTA_QUIET=1 PASTA_WORKING_SET=$ws \
      PASTA_OUTPUT="$OUT/thrust/$name.json" \
      "$NCU" --csv --page raw --print-units base --print-kernel-base mangled \
      --metrics gpu__time_duration.sum --log-file "$OUT/thrust/$name.csv" \
      "$exe" > "$OUT/thrust/$name.out" 2>&1 || status=1
  done
  python3 scripts/ncu_kernel_times.py "$OUT/thrust/plain.csv" \
    "$OUT/thrust/counting.csv" "$OUT/thrust/ws.csv" \
    > "$OUT/thrust.md" || status=1
else
  echo "gpu_overhead2: no ncu" > "$OUT/thrust.md"
  status=1
fi
tar czf "$OUT/logs.tgz" -C "$OUT" check bench thrust 2>/dev/null
cat "$OUT/check/validation.md" 2>/dev/null | tail -n 5
cat "$OUT/bench/bench.md" "$OUT/thrust.md" "$OUT/launch.md"
exit $status
