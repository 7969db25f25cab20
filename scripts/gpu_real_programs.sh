#!/usr/bin/env bash
# One device-machine run for the real-program and robustness work: the
# program structures on the GPU (scripts/gpu_structures.sh: every row plain
# and instrumented, profiles checked against hand-derived counts), then the
# libFuzzer targets on the machine's cores (scripts/fuzz.sh with targets
# built here; the fuzzers need no GPU, the machine just has 16 cores).
#
# Stage and run (docs/validation.md, docs/fuzzing.md):
#   scripts/build.sh -DPASTA_SANITIZE=ON   # builds structures and fuzzers
#   PASTA_STAGE_NO_LINES=1 scripts/stage_gpu.sh && rm -rf build-gpu/bin/kernels
#   mkdir -p build-gpu/fuzz && cp build/fuzz/fuzz_* build-gpu/fuzz/
#   cp -L /lib/x86_64-linux-gnu/libjansson.so.4 build-gpu/lib/
#   run(command="bash scripts/gpu_real_programs.sh", carry=["build-gpu"])
# Environment: FUZZ_SECONDS (default 300), FUZZ_JOBS (default: all cores).
# Results in $OUT: structures.md, ncu_structures.md (PASTA against Nsight
# Compute on the structures' kernels), fuzz.txt (one line per target) and
# logs.tgz (every structure's stdout, stderr and profile; fuzz logs and any
# crash inputs). Exit status 1 when a structure failed or a fuzzer crashed.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  > "$OUT/device.txt" 2>&1
OUT=$work bash scripts/gpu_structures.sh
structures=$?
cp "$work/structures.md" "$OUT/"
# Nsight Compute on the plain builds of the structures whose kernels are
# templates, functors, lambdas, graph nodes and driver launches: PASTA's
# counts (the instrumented run above) against ncu's, kernel by kernel
# (scripts/compare_ncu.py; table in $OUT/ncu_structures.md).
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
ncu_status=0
if [ -x "$NCU" ]; then
  W=$work/ncu
  mkdir -p "$W"
  metrics=$(tr -d ' \n' < scripts/ncu_metrics.txt)
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv > "$W/gpu.csv"
  bin=$PWD/build-gpu/bin/structures
  for k in ${NCU_STRUCTURES:-cxx_names graphs driver_api threads thrust}; do
    cp "$work/structures/$k-return/profile.json" "$W/$k.json" || ncu_status=1
    LD_LIBRARY_PATH=$PWD/build-gpu/lib "$NCU" --csv --page raw \
      --print-units base --print-kernel-base mangled --metrics "$metrics" \
      --log-file "$W/$k.ncu.csv" \
      "$bin/$k.plain" > /dev/null 2>&1 || ncu_status=1
  done
  python3 scripts/compare_ncu.py --work "$W" \
    --kernels ${NCU_STRUCTURES:-cxx_names graphs driver_api threads thrust} \
    --validation "$OUT/ncu_structures.md" || ncu_status=1
else
  echo "gpu_real_programs: no ncu" > "$OUT/ncu_structures.md"
  ncu_status=1
fi
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PASTA_FUZZ_BIN=$PWD/build-gpu/fuzz PASTA_FUZZ_OUT=$work/fuzz \
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-300}" "${FUZZ_JOBS:-$(nproc)}" \
  > "$OUT/fuzz.txt" 2>&1
fuzz=$?
(cd "$work" && find fuzz -type f \( -name '*.summary' -o -name '*.log' \
  -o -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
  -o -name 'oom-*' \) -print0 | tar czf "$OUT/logs.tgz" --null -T - \
  structures.log structures ncu)
cat "$OUT/structures.md" "$OUT/ncu_structures.md" "$OUT/fuzz.txt"
echo "gpu_real_programs: structures exit $structures, ncu exit $ncu_status," \
  "fuzz exit $fuzz"
[ "$structures" = 0 ] && [ "$ncu_status" = 0 ] && [ "$fuzz" = 0 ]
