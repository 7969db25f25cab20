#!/usr/bin/env bash
# Stages bench/gpu_cleanup_before_after.sh: DIR/run.sh, DIR/tree.tgz (this
# tree's scripts/ and test_kernels/), DIR/kernels.txz (each bundled program
# plain and -div from OLD_BUILD, a build of the tree before with its own
# plugin and runtime, as <k> and <k>-div-before; this tree's -div as <k>-div),
# DIR/before-roots and DIR/commit.
# AFTER=DIR takes the <k>-div builds from DIR instead of build/bin/kernels
# (e.g. built with PASTA_CLEANUP=div while the default is off), and
# PROGRAMS='k ...' (the order gpu_divergence.sh runs them in) is written to
# DIR/programs for run.sh.
# usage, after ninja -C build pasta_kernels_div:
#   [AFTER=DIR] [PROGRAMS='...'] bench/stage_cleanup_gpu.sh DIR OLD_BUILD
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$1 old=$2
rm -rf "$dir"
mkdir -p "$dir/k"
for exe in "${AFTER:-$here/build/bin/kernels}"/*-div; do
  k=$(basename "$exe" -div)
  [ -x "$old/bin/kernels/$k-div" ] || continue
  cp "$exe" "$dir/k/$k-div"
  cp "$old/bin/kernels/$k-div" "$dir/k/$k-div-before"
  cp "$old/bin/kernels/$k" "$dir/k/$k"
done
(cd "$dir/k" && XZ_OPT=-9 tar cJf ../kernels.txz .)
rm -rf "$dir/k"
tar czf "$dir/tree.tgz" -C "$here" scripts test_kernels
cp "$here/bench/gpu_cleanup_before_after.sh" "$dir/run.sh"
git -C "$here" rev-parse --short HEAD > "$dir/commit"
[ -n "${PROGRAMS:-}" ] && echo "$PROGRAMS" > "$dir/programs"
old_root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$old/CMakeCache.txt")
echo "$old_root $here" > "$dir/before-roots"
du -sh "$dir"
