#!/usr/bin/env bash
# Divergence mode on the program structures (issue [divergence], the
# [real-programs] corpus: gcc main with kernels in objects, a static and a
# shared library and dlopen; host threads and streams; CUDA graphs; the
# driver API; C++ templates and lambdas; Thrust/CUB; -fgpu-rdc; vector
# types). Each
# structure built
# with PASTA_DIVERGENCE=1 runs with PASTA_DIVERGENCE=1 and must print what
# its plain twin prints; Nsight Compute profiles the plain twin with the
# divergence metrics, compared per kernel by scripts/compare_divergence.py.
# Build and stage on the development machine:
#   PASTA_DIVERGENCE=1 scripts/build_structures.sh
#   scripts/stage_div_structures.sh
# then run(command="bash scripts/gpu_divergence_structures.sh", carry=["build-gpu"]).
# Results: $OUT/divergence-structures.md, logs and profiles in
# $OUT/divergence-structures.tgz; the newer structures' results-only check
# in $OUT/divergence-structures-results.txt.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/divergence-structures
mkdir -p "$W"
bash scripts/unpack_gpu.sh
bin=$(cd build-gpu/bin/structures && pwd)
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_divergence_structures: ncu not found"; exit 1; }
METRICS=$(tr -d ' \n' < scripts/ncu_divergence_metrics.txt)
status=0 ran=""
# NAME PROGRAM [ARGS...]: the plain twin is PROGRAM.plain, with
# libstructures_kernels.so in the arguments read as its plain library.
one() {
  local name=$1 prog=$2
  shift 2
  local plain_args=() a
  for a in "$@"; do
    plain_args+=("${a/libstructures_kernels.so/libstructures_kernels_plain.so}")
  done
  (cd "$bin" && "./$prog.plain" "${plain_args[@]}") > "$W/$name.plain.out" 2>&1
  local rc_plain=$?
  (cd "$bin" && PASTA_DIVERGENCE=1 PASTA_OUTPUT="$W/$name.div.json" "./$prog" "$@") \
    > "$W/$name.div.out" 2> "$W/$name.div.err"
  local rc_div=$?
  echo "== $name: plain rc=$rc_plain, divergence rc=$rc_div"
  if [ $rc_plain -ne 0 ] || [ $rc_div -ne 0 ] || ! cmp -s "$W/$name.plain.out" "$W/$name.div.out"; then
    echo "gpu_divergence_structures: $name: results differ or failed"
    diff "$W/$name.plain.out" "$W/$name.div.out" | head -5
    status=1
  fi
  grep "pasta: warning" "$W/$name.div.err" && status=1
  (cd "$bin" && pasta_ncu_divergence 240 "$W/$name.ncu-div.csv" "./$prog.plain" \
    "${plain_args[@]}") \
    > /dev/null 2>&1 || { echo "gpu_divergence_structures: ncu failed on $name"; status=1; }
  ran="$ran $name"
}
one gcc_main gcc_main return
one static_main static_main return
one shared_main shared_main return
one dl_main dl_main dlopen ./libstructures_kernels.so
one threads threads
one graphs graphs
one driver_api driver_api
one cxx_names cxx_names
one thrust thrust
one rdc rdc
one vectors vectors
one ringsweep ringsweep
# -fgpu-rdc registers the copies through offloading entries. Its grids are
# one block, which fits in one wave: the uncapped twins must be what ran.
(cd "$bin" && PASTA_DIVERGENCE=1 PASTA_OUTPUT=/dev/null "$NCU" --csv \
  --metrics launch__grid_size ./rdc) > "$W/rdc.copies.csv" 2>&1
twins=$(grep -c '__pasta_divu' "$W/rdc.copies.csv")
echo "rdc: $twins kernel launches of uncapped divergence twins (2 expected)"
[ "$twins" = 2 ] || status=1
# The structures added since, results only (each divergence build must
# print what its plain twin prints; no ncu; DIV_RESULTS_ONLY overrides the
# list): $OUT/divergence-structures-results.txt.
for name in ${DIV_RESULTS_ONLY:-memops devfn callgraph hotshapes flushways
  captures shortloops spinwait splitwarps regcap occupancy driver_occupancy
  launch_ex skipahead sparseflush asmcopy asmloads onethread gridstride wmma
  slabwalk persistent}; do
  [ -x "$bin/$name" ] || { echo "$name: not built"; continue; }
  (cd "$bin" && timeout 120 "./$name.plain") > "$W/$name.plain.out" 2>&1
  rc_plain=$?
  (cd "$bin" && PASTA_DIVERGENCE=1 PASTA_OUTPUT="$W/$name.div.json" \
    timeout 120 "./$name") > "$W/$name.div.out" 2> "$W/$name.div.err"
  rc_div=$?
  if [ $rc_plain -ne 0 ] || [ $rc_div -ne 0 ] ||
    ! cmp -s "$W/$name.plain.out" "$W/$name.div.out"; then
    echo "$name: results differ or failed (plain rc=$rc_plain, divergence rc=$rc_div)"
    status=1
  else
    echo "$name: divergence build prints what the plain twin prints"
  fi
  grep -h "pasta: warning" "$W/$name.div.err" | sed "s/^/$name: /"
done > "$OUT/divergence-structures-results.txt" 2>&1
python3 scripts/compare_divergence.py --work "$W" --programs $ran \
  --out "$OUT/divergence-structures.md" > /dev/null || status=1
cat "$OUT/divergence-structures.md"
tar czf "$OUT/divergence-structures.tgz" -C "$OUT" divergence-structures && rm -rf "$W"
exit $status
