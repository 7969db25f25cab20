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
# Results in $OUT: structures.md, fuzz.txt (one line per target) and
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
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PASTA_FUZZ_BIN=$PWD/build-gpu/fuzz PASTA_FUZZ_OUT=$work/fuzz \
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-300}" "${FUZZ_JOBS:-$(nproc)}" \
  > "$OUT/fuzz.txt" 2>&1
fuzz=$?
(cd "$work" && find fuzz -type f \( -name '*.summary' -o -name '*.log' \
  -o -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
  -o -name 'oom-*' \) -print0 | tar czf "$OUT/logs.tgz" --null -T - \
  structures.log structures)
cat "$OUT/structures.md" "$OUT/fuzz.txt"
echo "gpu_real_programs: structures exit $structures, fuzz exit $fuzz"
[ "$structures" = 0 ] && [ "$fuzz" = 0 ]
