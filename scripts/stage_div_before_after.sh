#!/usr/bin/env bash
# Stages scripts/gpu_divergence.sh with an earlier tree's divergence builds
# beside this tree's: <k>-div-before is OLD_BUILD's <k>-div, built there with
# that tree's own plugin and runtime (git worktree add <dir> <commit>; cmake;
# ninja -C <dir>/build pasta pasta_rt pasta_kernels_div).
# With DRAIN_KERNELS=DIR, DIR/<k>-div is staged as <k>-div-drain too (this
# tree's divergence builds compiled with PASTA_DIV_DRAIN_EVERY=1, copied
# aside), whose profiles gpu_divergence.sh compares with <k>-div's.
# With VARIANTS='NAME=DIR ...', each DIR/<k>-div is staged as <k>-div-NAME
# (this tree's divergence builds compiled with other settings), which
# gpu_divergence.sh compares with <k>-div's and times when DIV_VARIANTS
# names NAME.
# usage, after ninja -C build pasta_kernels_div:
#   [DRAIN_KERNELS=DIR] [VARIANTS='NAME=DIR ...'] scripts/stage_div_before_after.sh OLD_BUILD
# then run(command="bash scripts/gpu_divergence.sh", carry=["build-gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: stage_div_before_after.sh OLD_BUILD}
PASTA_STAGE_DIV=1 scripts/stage_gpu.sh > /dev/null
dst=build-gpu/bin/kernels
n=0
for exe in "$old"/bin/kernels/*-div; do
  [ -x "$exe" ] || continue
  k=$(basename "$exe" -div)
  [ -x "$dst/$k-div" ] || continue
  cp "$exe" "$dst/$k-div-before"
  n=$((n + 1))
done
[ $n -gt 0 ] || {
  echo "stage_div_before_after: no <k>-div in $old/bin/kernels (ninja -C $old pasta_kernels_div)" >&2
  exit 1
}
if [ -n "${DRAIN_KERNELS:-}" ]; then
  for exe in "$DRAIN_KERNELS"/*-div; do
    k=$(basename "$exe" -div)
    [ -x "$dst/$k-div" ] && cp "$exe" "$dst/$k-div-drain"
  done
fi
for spec in ${VARIANTS:-}; do
  name=${spec%%=*} dir=${spec#*=}
  for exe in "$dir"/*-div; do
    k=$(basename "$exe" -div)
    [ -x "$dst/$k-div" ] && cp "$exe" "$dst/$k-div-$name"
  done
done
# Under the 64 MiB carry limit: the bundled programs only, packed with xz.
rm -rf build-gpu/bin/structures
(cd "$dst" && XZ_OPT=-9 tar cJf ../../kernels.txz .)
rm -rf build-gpu/bin
git rev-parse --short HEAD > build-gpu/commit
# The two source trees: profiles name source files by path, so the before
# build's are read as this tree's when compared.
old_root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$old/CMakeCache.txt")
echo "$old_root $PWD" > build-gpu/before-roots
echo "stage_div_before_after: $n programs with a before build"
du -sh build-gpu
