#!/usr/bin/env bash
# GPU run of the [host+ws] analyzers (kernel frequency, working set):
#  1. tests/gpu/working_set.cu in working-set mode, checked against the
#     hand-derived numbers (tests/check_working_set.py ws), and in a launch
#     window (PASTA_START_GRID_ID=2 PASTA_END_GRID_ID=3; ... window);
#  2. every bundled program, plain, instrumented (counting, with launch
#     timing) and instrumented with PASTA_WORKING_SET=1: the three must print
#     the same checksum; the profiles give the suite table
#     (scripts/ws_table.py);
#  3. the overhead benchmark with the working-set mode
#     (VARIANTS="plain pasta pasta-ws" scripts/gpu_bench.sh).
# Build here, scripts/stage_gpu.sh, then through the device tool:
#   run(command="PASTA_KERNEL_BIN=build-gpu/bin/kernels bash scripts/gpu_host_ws.sh",
#       carry=["build-gpu"])
# Results: $OUT/host_ws.md, $OUT/bench.md; profiles and logs in $OUT/hws/.
set -u
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/hws
mkdir -p "$W"
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
KERNELS=${KERNELS:-$(sed -n 's/^\([a-z_0-9]*\) .*/\1/p' test_kernels/bench_sizes.txt | grep -v launch_overhead)}
status=0
# The symbolizer dlopen()s libdwarf; stage_gpu.sh carries it when the GPU
# machine has none.
[ -d build-gpu/lib ] && export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$W/gpu.txt"

echo "== working_set (hand-computed)"
PASTA_WORKING_SET=1 PASTA_HOTNESS=1 PASTA_OUTPUT="$W/working_set.json" "$BIN/working_set-pasta" \
  > "$W/working_set.out" 2> "$W/working_set.err" || status=1
cat "$W/working_set.out" "$W/working_set.err"
python3 tests/check_working_set.py ws tests/gpu/working_set.cu "$W/working_set.json" \
  "$W/working_set.hotness.csv" || status=1
echo "== working_set (launch window 2..3)"
PASTA_START_GRID_ID=2 PASTA_END_GRID_ID=3 PASTA_OUTPUT="$W/window.json" \
  "$BIN/working_set-pasta" > "$W/window.out" 2> "$W/window.err" || status=1
python3 tests/check_working_set.py window "$W/window.json" || status=1

for k in $KERNELS; do
  size=$(awk -v k="$k" '$1 == k && NF >= 3 { print $3 }' test_kernels/bench_sizes.txt)
  timeout 300 "$BIN/$k" $size > "$W/$k.plain.out" 2>&1
  PASTA_OUTPUT="$W/$k.json" timeout 300 "$BIN/$k-pasta" $size > "$W/$k.pasta.out" 2> "$W/$k.pasta.err"
  PASTA_WORKING_SET=1 PASTA_OUTPUT="$W/$k.ws.json" timeout 300 "$BIN/$k-pasta" $size \
    > "$W/$k.ws.out" 2> "$W/$k.ws.err"
  sums=$(for v in plain pasta ws; do grep -o 'PASSED.*' "$W/$k.$v.out" || echo "FAILED $v"; done | sort -u | wc -l)
  if [ "$sums" = 1 ] && grep -q PASSED "$W/$k.plain.out"; then
    echo "$k: same result plain / counting / working-set"
  else
    echo "$k: RESULTS DIFFER"; status=1
    tail -n 3 "$W/$k".*.out "$W/$k".*.err
  fi
done
python3 scripts/ws_table.py "$W" $KERNELS > "$OUT/host_ws.md" || status=1
cat "$OUT/host_ws.md"
[ -n "${SKIP_BENCH:-}" ] || VARIANTS="plain pasta pasta-ws" TK_BENCH=${TK_BENCH:-10} bash scripts/gpu_bench.sh || status=1
tar czf "$OUT/hws.tar.gz" -C "$OUT" hws && rm -rf "$W"
exit $status
