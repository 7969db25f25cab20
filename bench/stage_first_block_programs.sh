#!/usr/bin/env bash
# Stages bench/gpu_first_block_programs.sh's run into DEST: plain, before
# (BEFORE: a build directory of the earlier tree, its own plugin and static
# runtime) and after (this tree's build) copies of bundled programs (the
# suite's flags, this tree's sources), packed as DEST/fb.txz beside
# gpu_first_block_programs.sh.
# usage: [PROGRAMS="lud nw"] bench/stage_first_block_programs.sh BEFORE DEST
#   (PASTA_BUILD_DIR: this tree's build, default build/)
set -euo pipefail
. "$(dirname "$0")/stage_common.sh"
stage_setup "$1" "$2" fb
programs=${PROGRAMS:-lud nw}
for k in $programs; do
  stage_three "$here/test_kernels/$k.cu" "$k" -I"$here/test_kernels"
done
echo "$programs" > "$pack/programs"
cp "$here/test_kernels/bench_sizes.txt" "$here/scripts/compare_profiles.py" "$pack/"
tar -cJf "$dest/fb.txz" -C "$(dirname "$pack")" fb
rm -rf "$(dirname "$pack")"
cp "$here/bench/gpu_first_block_programs.sh" "$dest/"
echo "staged: $(du -sh "$dest/fb.txz" | cut -f1) in $dest"
