#!/usr/bin/env bash
# Stages bench/gpu_single_tile.sh's run (lab
# docs/lab/2026-11-30-overhead3-81-single-tile.md): Thrust plain / before /
# after as bench/stage_reductions.sh packs it (redux.txz, for
# bench/gpu_thrust_rounds.sh), and the bundled programs named in PROGRAMS
# (default: those whose counting PTX the change touches) built plain,
# before and after (kern.txz: <program>, <program>-before, <program>-after),
# for their profiles (scripts/gpu_compare_builds.sh) and their kernel times
# (scripts/gpu_bench.sh). Writes DEST/run.sh for `bash build-gpu/<name>/run.sh`.
# usage: [STAGE_NAME=cntsingle] [PROGRAMS="nw reduction"] \
#          bench/stage_single_tile.sh BEFORE DEST
#   (BEFORE: a build directory of the earlier tree, its own plugin and
#   static runtime; PASTA_BUILD_DIR: this tree's build, with the targets
#   pasta, pasta_rt, pasta_rt_shared and pasta_glue)
set -euo pipefail
name=${STAGE_NAME:-cntsingle}
STAGE_NAME=$name "$(dirname "$0")/stage_reductions.sh" "$1" "$2"
. "$(dirname "$0")/stage_common.sh"
stage_setup "$1" "$2" kern
programs=${PROGRAMS:-"reduction histogram nw bfs backprop bicg gaussian kmeans pathfinder syrk"}
for k in $programs; do
  stage_three "$here/test_kernels/$k.cu" "$k" -I"$here/test_kernels" 2> /dev/null
  mv "$pack/$k-plain" "$pack/$k"
done
tar -cJf "$dest/kern.txz" -C "$(dirname "$pack")" kern
rm -rf "$(dirname "$pack")"
cp "$here/bench/gpu_thrust_rounds.sh" "$here/bench/gpu_single_tile.sh" "$dest/"
rm -f "$dest/gpu_reductions.sh"
sed "s/@NAME@/$name/g; s/@PROGRAMS@/$programs/g" > "$dest/run.sh" << 'EOF'
#!/usr/bin/env bash
# bash build-gpu/@NAME@/run.sh: bench/gpu_single_tile.sh, one archive.
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT/@NAME@"
OUT=$OUT/@NAME@ SCRATCH=/tmp/@NAME@-gpu PROGRAMS="@PROGRAMS@" \
  timeout 118 bash "$here/gpu_single_tile.sh"
tar -czf "$OUT/@NAME@.tgz" -C "$OUT" @NAME@ && rm -rf "$OUT/@NAME@"
EOF
echo "staged: $(du -sh "$dest" | cut -f1) in $dest"
