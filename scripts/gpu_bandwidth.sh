#!/usr/bin/env bash
# GPU run of the [bandwidth] analyzer and its comparison with Nsight Compute:
#  1. every bundled program at its benchmark size with PASTA_SAMPLE=2 (one
#     launch in two counted, the others run the plain copy and give the
#     time) and TK_BENCH=3 (so each kernel step runs several times);
#  2. the plain builds of $NCU_PROGRAMS under ncu (DRAM bytes read + written
#     and gpu__time_duration per launch, clocks not locked);
#  3. scripts/bandwidth_table.py: PASTA's requested and unique bandwidth
#     against ncu's DRAM bandwidth, kernel by kernel.
# Build here, scripts/stage_gpu.sh, then through the device tool:
#   run(command="PASTA_KERNEL_BIN=build-gpu/bin/kernels bash scripts/gpu_bandwidth.sh",
#       carry=["build-gpu"])
# Results: $OUT/bandwidth.md; profiles, rooflines and ncu CSVs in $OUT/bw/.
set -u
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/bw
mkdir -p "$W"
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
PROGRAMS=${PROGRAMS:-$(sed -n 's/^\([a-z_0-9]*\) .*/\1/p' test_kernels/bench_sizes.txt | grep -v launch_overhead)}
NCU_PROGRAMS=${NCU_PROGRAMS-"vector_add axpy nn histogram pathfinder hotspot srad bicg"}
[ -d build-gpu/lib ] && export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
. "$(dirname "$0")/lib/gpu.sh"
NCU=$(pasta_find_ncu)
status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$W/gpu.txt"
size_of() { awk -v k="$1" '$1 == k { print $2 }' test_kernels/bench_sizes.txt; }
for p in $PROGRAMS; do
  n=$(size_of "$p")
  PASTA_SAMPLE=2 TK_BENCH=3 PASTA_QUIET=1 PASTA_OUTPUT="$W/$p.json" timeout 300 \
    "$BIN/$p-pasta" "$n" > "$W/$p.out" 2>&1 || { echo "$p failed"; tail -3 "$W/$p.out"; status=1; }
done
if [ -x "$NCU" ] && [ -n "$NCU_PROGRAMS" ]; then
  for p in $NCU_PROGRAMS; do
    timeout 300 "$NCU" --clock-control none --csv --metrics \
      dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
      "$BIN/$p" "$(size_of "$p")" > "$W/$p.ncu.csv" 2> "$W/$p.ncu.err" || status=1
  done
else
  echo "gpu_bandwidth: no ncu or NCU_PROGRAMS empty; comparison skipped"
fi
python3 scripts/bandwidth_table.py "$W" "$(cat "$W/gpu.txt")" $PROGRAMS > "$OUT/bandwidth.md" || status=1
cat "$OUT/bandwidth.md"
cp "$W/vector_add.roofline.svg" "$OUT/" 2>/dev/null
tar czf "$OUT/bw.tar.gz" -C "$OUT" bw && rm -rf "$W"
exit $status
