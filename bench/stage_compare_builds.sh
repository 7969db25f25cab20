#!/usr/bin/env bash
# Stages bundled programs built by two trees for scripts/gpu_compare_builds.sh
# (same stdout, same profiles): DEST/cmp.txz holds before/<k>-pasta and
# after/<k>-pasta (counting builds) and div-before/<k>-pasta and
# div-after/<k>-pasta (PASTA_DIVERGENCE=1 builds; run them with
# PASTA_DIVERGENCE=1 MODES=count). Both sides compile the same sources (the
# profiles hold their paths), each with its own plugin and static runtime.
# usage: stage_compare_builds.sh BEFORE_BUILD DEST SOURCE_DIR PROGRAM...
#   (SOURCE_DIR: a test_kernels folder; PASTA_BUILD_DIR: this tree's build)
set -euo pipefail
source "$(dirname "$0")/stage_common.sh"
stage_setup "$1" "$2" cmp
srcdir=$(cd "$3" && pwd)
shift 3
mkdir -p "$pack"/{before,after,div-before,div-after}
for k in "$@"; do
  for side in before:"$before" after:"$build"; do
    dir=${side#*:} s=${side%%:*}
    clang++-22 "${cu[@]}" -I"$srcdir" -fpass-plugin="$dir/lib/libpasta.so" \
      "$srcdir/$k.cu" -o "$pack/$s/$k-pasta" -x none "$dir/lib/libpasta_rt.a" \
      "${rt[@]}"
    PASTA_DIVERGENCE=1 clang++-22 "${cu[@]}" -I"$srcdir" \
      -fpass-plugin="$dir/lib/libpasta.so" "$srcdir/$k.cu" \
      -o "$pack/div-$s/$k-pasta" -x none "$dir/lib/libpasta_rt.a" "${rt[@]}"
  done
done
tar -C "$pack" -cJf "$dest/cmp.txz" before after div-before div-after
rm -rf "$(dirname "$pack")"
ls -l "$dest/cmp.txz"
