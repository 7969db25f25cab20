#!/usr/bin/env bash
# Device run of the cleanup after the runtime is inlined (PASTA_CLEANUP,
# lab divergence-43), from a staging made by bench/stage_cleanup_gpu.sh
# (run as `bash build-gpu/<name>/run.sh` from the repository root):
#  1. scripts/gpu_divergence.sh without Nsight Compute (DIV_NCU=0) on the
#     bundled programs: plain, <k>-div (this tree, cleanup on) and
#     <k>-div-before (a build of the tree before): results equal to plain,
#     profiles equal to before's (a second before run leaves racy values
#     out), times (TK_BENCH=5);
#  2. bfs's warp instructions per kernel (ncu, smsp__inst_executed.sum, every
#     launch at the validation size): plain, before, after.
# Private copy in /tmp/$NAME-root; writes one file: $OUT/$NAME.tgz.
set -u
here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$here")
root=/tmp/$name-root out=/tmp/$name-out
rm -rf "$root" "$out"
mkdir -p "$root/build-gpu" "$out"
tar xzf "$here/tree.tgz" -C "$root"
cp "$here/kernels.txz" "$here/commit" "$here/before-roots" "$root/build-gpu/"
cd "$root"
# The staging's own list (file `programs`) if it has one.
[ -f "$here/programs" ] && PROGRAMS=${PROGRAMS:-$(cat "$here/programs")}
PROGRAMS=${PROGRAMS:-bfs nw pathfinder hotspot backprop lud gaussian srad kmeans
  histogram reduction matmul_tiled syrk bicg dgemm coalescing nn vector_add axpy}
PROGRAMS=$PROGRAMS DIV_NCU=0 TK_BENCH=5 DIV_DEADLINE=${DIV_DEADLINE:-60} \
  OUT="$out/div" timeout "${DIV_S:-78}" bash scripts/gpu_divergence.sh \
  > "$out/run.log" 2>&1
echo "gpu_divergence rc=$? at ${SECONDS}s" >> "$out/run.log"
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
bin=build-gpu/bin/kernels
for b in plain div-before div; do
  exe=$bin/bfs-$b
  [ $b = plain ] && exe=$bin/bfs
  PASTA_DIVERGENCE=1 PASTA_QUIET=1 PASTA_OUTPUT=/dev/null timeout 10 "$NCU" \
    --metrics smsp__inst_executed.sum --csv "$exe" > "$out/bfs-inst-$b.csv" 2>&1
  echo "ncu bfs $b rc=$? at ${SECONDS}s" >> "$out/run.log"
done
tar czf "${OUT:-/tmp}/$name.tgz" -C /tmp "$name-out"
