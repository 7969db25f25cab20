#!/usr/bin/env bash
# Divergence mode, several builds of one program against one Nsight Compute
# profile of its plain twin: for trying a change to the pass's planning on a
# program whose figures moved (CUB's Onesweep sort, issue [divergence]).
# Build on the development machine, one directory per variant, each with
# the program built with PASTA_DIVERGENCE=1 and its plain twin, e.g.
#   PASTA_DIVERGENCE=1 scripts/build_structures.sh /tmp/v/new thrust
#   (cd /tmp/v && XZ_OPT=-9 tar cJf .../build-gpu/variants.txz new old ...)
# with libpasta_rt.so in build-gpu/lib (scripts/stage_gpu.sh), then
#   run(command="PROG=thrust bash scripts/gpu_divergence_variants.sh",
#       carry=["build-gpu"])
# Results: $OUT/divergence-variants.md (one table per variant, the first
# variant's plain twin profiled once), logs in $OUT/variants/.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
prog=${PROG:?PROG names the program}
W=$OUT/variants
mkdir -p "$W" build-gpu/variants
tar xf build-gpu/variants.txz -C build-gpu/variants
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_divergence_variants: ncu not found"; exit 1; }
METRICS=$(tr -d ' \n' < scripts/ncu_divergence_metrics.txt)
status=0
variants=$(cd build-gpu/variants && ls)
first=${variants%%$'\n'*}
(cd "build-gpu/variants/$first" &&
  pasta_ncu_divergence 240 "$W/ncu.csv" "./$prog.plain") > /dev/null 2>&1 ||
  { echo "gpu_divergence_variants: ncu failed"; status=1; }
: > "$OUT/divergence-variants.md"
for v in $variants; do
  d=$W/$v
  mkdir -p "$d"
  cp "$W/ncu.csv" "$d/$prog.ncu-div.csv"
  (cd "build-gpu/variants/$v" && ./"$prog.plain") > "$d/plain.out" 2>&1
  (cd "build-gpu/variants/$v" && PASTA_DIVERGENCE=1 PASTA_OUTPUT="$d/$prog.div.json" \
    ./"$prog") > "$d/div.out" 2> "$d/div.err"
  cmp -s "$d/plain.out" "$d/div.out" ||
    { echo "gpu_divergence_variants: $v: results differ"; status=1; }
  python3 scripts/compare_divergence.py --work "$d" --programs "$prog" \
    --out "$d/table.md" > /dev/null || status=1
  { echo "## $v"; echo; cat "$d/table.md"; echo; } >> "$OUT/divergence-variants.md"
done
cat "$OUT/divergence-variants.md"
exit $status
