#!/usr/bin/env bash
# Registers, local memory and occupancy of each bundled kernel's plain copy
# and counting copy, as the runtime reads them at the kernel's first launch
# (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor):
# one run of each instrumented program at its validation size, then
# scripts/resources_table.py over the profiles. GPU machine, over staged
# executables (scripts/stage_gpu.sh): run(command="PASTA_KERNEL_BIN=
# build-gpu/bin/kernels bash scripts/gpu_resources.sh", carry=["build-gpu"]).
# Results: $OUT/resources.md (scripts/gpu_check.sh prints the same table).
set -u
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/resources
mkdir -p "$W"
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
KERNELS=${KERNELS:-$(sed -n 's/^\([a-z_0-9]*\) .*/\1/p' test_kernels/bench_sizes.txt | tr '\n' ' ')}
status=0
for k in $KERNELS; do
  size=$(awk -v k="$k" '$1 == k && NF >= 3 { print $3 }' test_kernels/bench_sizes.txt)
  PASTA_QUIET=1 PASTA_OUTPUT="$W/$k.json" "$BIN/$k-pasta" $size > "$W/$k.out" 2> "$W/$k.err" ||
    { echo "gpu_resources: $k-pasta failed"; status=1; }
done
python3 scripts/resources_table.py $(for k in $KERNELS; do echo "$W/$k.json"; done) \
  > "$OUT/resources.md" || status=1
cat "$OUT/resources.md"
exit $status
