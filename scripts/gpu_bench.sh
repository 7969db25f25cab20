#!/usr/bin/env bash
# Overhead benchmark: every bundled program at its benchmark size, plain and
# instrumented, each kernel step timed with CUDA events (TK_BENCH=R: one
# warm-up run, then the median of R runs; test_kernels/bench.h). Plain and
# instrumented runs alternate per program so both see the same GPU state.
# Runs on the GPU machine over a tree built on a development machine:
#   scripts/stage_gpu.sh, then run(command="PASTA_KERNEL_BIN=build-gpu/bin/kernels
#   bash scripts/gpu_bench.sh", carry=["build-gpu"])
# VARIANTS="plain pasta pasta-ws" adds the working-set mode (the instrumented
# build with PASTA_WORKING_SET=1); "pasta-blocks" the counting build without
# counter placement (`ninja pasta_kernels_blocks`); "<build>" runs
# <program>-<build> and "<build>-ws" the same with PASTA_WORKING_SET=1 (another
# build staged beside them: scripts/build_with_plugin.sh); "<build>-wsNbank" the
# working-set mode with PASTA_WS_PAGE_BANKS=N (else the runtime's default,
# or PASTA_WS_PAGE_BANKS as set for the script). Writes $OUT/bench.txt
# (raw lines) and $OUT/bench.md (the table); PROGRAMS="nw gaussian" runs those
# programs alone; BENCH_PROFILES=1 also keeps each
# instrumented run's profile as $OUT/profiles.tgz (<program>.<variant>.json).
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
RUNS=${TK_BENCH:-20}
raw="$OUT/bench.txt"
: > "$raw"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/bench-gpu.txt"
status=0
while read -r prog n _; do
  [ -z "$prog" ] || [ "${prog#\#}" != "$prog" ] && continue
  [ -x "$BIN/$prog" ] || continue
  case " ${PROGRAMS:-$prog} " in *" $prog "*) ;; *) continue ;; esac
  for variant in ${VARIANTS:-plain pasta}; do
    ws=0 banks=${PASTA_WS_PAGE_BANKS:-}
    case $variant in
    plain) exe=$BIN/$prog ;;
    *-ws) exe=$BIN/$prog-${variant%-ws} ws=1 ;;
    *-ws[0-9]*bank)
      base=${variant%-ws*bank} nbank=${variant##*-ws}
      exe=$BIN/$prog-$base ws=1 banks=${nbank%bank} ;;
    *) exe=$BIN/$prog-$variant ;;
    esac
    extra=()
    [ -z "$banks" ] || extra=("PASTA_WS_PAGE_BANKS=$banks")
    if ! env TK_BENCH="$RUNS" PASTA_QUIET=1 PASTA_OUTPUT="$OUT/bench-profile.json" \
         PASTA_WORKING_SET=$ws "${extra[@]}" "$exe" "$n" > "$OUT/run.txt" 2>&1; then
      echo "gpu_bench: $prog ($variant) failed:"; cat "$OUT/run.txt"; status=1
    fi
    sed -n "s/^bench: /$prog $variant /p" "$OUT/run.txt" >> "$raw"
    if [ "${BENCH_PROFILES:-0}" = 1 ] && [ -f "$OUT/bench-profile.json" ]; then
      mkdir -p "$OUT/profiles"
      mv "$OUT/bench-profile.json" "$OUT/profiles/$prog.$variant.json"
    fi
    grep -E "PASSED|FAILED" "$OUT/run.txt" | sed "s/^/$variant: /"
  done
done < test_kernels/bench_sizes.txt
rm -f "$OUT/run.txt" "$OUT/bench-profile.json"
if [ -d "$OUT/profiles" ]; then
  tar czf "$OUT/profiles.tgz" -C "$OUT" profiles && rm -rf "$OUT/profiles"
fi
python3 scripts/bench_table.py "$raw" "$(cat "$OUT/bench-gpu.txt")" > "$OUT/bench.md" || status=1
cat "$OUT/bench.md"
exit $status
