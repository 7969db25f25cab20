#!/usr/bin/env bash
# Stages scripts/gpu_ws_before_after.sh's inputs into build-gpu/ (about
# 8 MB): this build's programs and, beside them, the same programs built with
# an earlier plugin (<program>-before), plus the Thrust structure of both,
# packed with xz (scripts/unpack_gpu.sh unpacks them on the GPU machine).
# usage: stage_ws_before_after.sh OLD_BUILD_DIR
#   OLD_BUILD_DIR: a build of the earlier tree (its lib/libpasta.so and
#   bin/pasta-clang++ are used; only the plugin needs to be built there).
#   STAGE_OLD_RUNTIME=1: the "before" builds (bundled programs and the
#   Thrust structure) link the earlier tree's host runtime too
#   (OLD_BUILD_DIR/lib: built there with `ninja pasta pasta_rt
#   pasta_rt_shared pasta_glue`), so that before/after is the whole tree.
#   STAGE_THRUST_INLINE=1: the Thrust structure with inline working-set
#   copies too (thrust.inline; THRUST_VARIANTS "ws-inline").
#   STAGE_THRUST_NOPREFETCH=1, STAGE_THRUST_INLINELAUNCH=1: and built
#   without the first thread's counter-line prefetch (thrust.noprefetch),
#   with its launch count inline (thrust.inlinelaunch); THRUST_VARIANTS of
#   those names.
# then run(command="bash scripts/gpu_ws_before_after.sh", carry=["build-gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(cd "$1" && pwd)
build=${PASTA_BUILD_DIR:-build}
[ -f "$old/lib/libpasta.so" ] || { echo "stage_ws_before_after: no $old/lib/libpasta.so" >&2; exit 1; }
# libpasta_rt.a is a linker script naming its members' archive by absolute
# path (cmake/runtime_archive_script.cmake): one copied out of another build
# still links that build's runtime, and "before" would be this tree's.
if [ "${STAGE_OLD_RUNTIME:-0}" = 1 ]; then
  members=$(sed -n 's/^INPUT(\(.*\))$/\1/p' "$old/lib/libpasta_rt.a" 2>/dev/null)
  case $members in
  "" | "$old"/*) ;;
  *) echo "stage_ws_before_after: $old/lib/libpasta_rt.a links $members, not a runtime of $old; build the earlier tree's runtime there (git worktree add, scripts/build.sh)" >&2
     exit 1 ;;
  esac
fi
ninja -C "$build"
if [ "${STAGE_OLD_RUNTIME:-0}" = 1 ]; then
  PASTA_RUNTIME_LIB=$old/lib/libpasta_rt.a scripts/build_with_plugin.sh "$old/lib/libpasta.so" before
else
  scripts/build_with_plugin.sh "$old/lib/libpasta.so" before
fi
# Every structure is staged below; one older than this build's plugin was
# built by an earlier tree (after an ABI change it would run uninstrumented,
# with the runtime's warning, and write no profile), and a fresh build has
# none (ctest builds them): build them all again unless a full build newer
# than the plugin left its stamp (scripts/build_structures.sh).
stamp=$build/bin/structures/.all-built
if [ ! "$stamp" -nt "$build/lib/libpasta.so" ] ||
  [ -n "$(find "$build/bin/structures" -maxdepth 1 -type f ! -newer "$build/lib/libpasta.so" 2>/dev/null | head -n 1)" ]; then
  scripts/build_structures.sh "$build/bin/structures"
else
  scripts/build_structures.sh "$build/bin/structures" thrust
fi
before=$(mktemp -d)
trap 'rm -rf "$before"' EXIT
# The earlier plugin with this build's runtimes (what links the program),
# or with STAGE_OLD_RUNTIME=1 the earlier tree's (built there with
# `ninja pasta_rt pasta_rt_shared pasta_glue`): a plugin and a runtime of
# different ABI versions do not work together.
mkdir -p "$before/build/bin" "$before/build/lib"
cp "$build/bin/pasta-clang++" "$before/build/bin/"
cp "$old/lib/libpasta.so" "$before/build/lib/"
runtimes=$(pwd)/$build/lib
[ "${STAGE_OLD_RUNTIME:-0}" = 1 ] && runtimes=$old/lib
for lib in libpasta_rt.so libpasta_rt.a libpasta_glue.a; do
  [ -f "$runtimes/$lib" ] || { echo "stage_ws_before_after: no $runtimes/$lib" >&2; exit 1; }
  ln -s "$runtimes/$lib" "$before/build/lib/$lib"
done
PASTA_BUILD_DIR=$before/build scripts/build_structures.sh "$before/structures" thrust
# The myocyte-like compile shape (bench/gen_compile_shapes.py myocyte 12, its
# main): a kernel tree of over 800 accesses, whose working-set copies buffer
# them (-pasta-ws-buffer-above), plain and built by both plugins, beside the
# structures as shape_myocyte12{.plain,,.before}.
python3 bench/gen_compile_shapes.py myocyte 12 "$before/myocyte12.cu"
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
scu=(-x cuda -O2 -g --cuda-path="$cuda" --offload-arch=sm_90
     -Wno-unknown-cuda-version -DSHAPE_MAIN "$before/myocyte12.cu")
srt=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
sdir=$build/bin/structures
clang++-22 "${scu[@]}" -o "$sdir/shape_myocyte12.plain" "${srt[@]}"
PASTA_BUILD_DIR=$build "$build/bin/pasta-clang++" "${scu[@]}" \
  -o "$sdir/shape_myocyte12" "${srt[@]}"
PASTA_BUILD_DIR=$before/build "$before/build/bin/pasta-clang++" "${scu[@]}" \
  -o "$sdir/shape_myocyte12.before" "${srt[@]}"
# And with unbuffered compact copies (one __pasta_ws_mark_compact call per
# batch, the default of trees of 33-256 accesses: CUB's sorts), whose
# working-set counts gpu_ws_before_after.sh checks against counting mode's
# as for every shape_myocyte12.NAME (they were wrong before session 13).
PASTA_BUILD_DIR=$build "$build/bin/pasta-clang++" "${scu[@]}" \
  -mllvm -pasta-ws-compact-buffer=0 -o "$sdir/shape_myocyte12.unbuf" "${srt[@]}"
# STAGE_THRUST_INLINE=1: the Thrust structure also with every working-set
# copy inline (no compact copies: the radix sort kernels' copies are compact
# at the default PASTA_WS_COMPACT_ABOVE=32), as thrust.inline, for
# gpu_ws_before_after.sh's THRUST_VARIANTS "ws-inline".
if [ "${STAGE_THRUST_INLINE:-0}" = 1 ]; then
  PASTA_WS_COMPACT_ABOVE=100000 scripts/build_structures.sh "$before/inline" thrust
  cp "$before/inline/thrust" "$build/bin/structures/thrust.inline"
fi
# The Thrust structure also built by this plugin with more options, as
# thrust.NAME, for gpu_ws_before_after.sh's THRUST_VARIANTS NAME: one
# change alone, against the same tree, in one call.
#   STAGE_THRUST_NOPREFETCH=1: noprefetch, -pasta-prefetch-counter-rows=0
#   (the grid's first thread does not prefetch its counter lines);
#   STAGE_THRUST_INLINELAUNCH=1: inlinelaunch, -pasta-inline-launch-count
#   (the first thread's launch count inline, no call).
stage_thrust_with() {
  local name=$1
  shift
  PASTA_BUILD_DIR=$build "$build/bin/pasta-clang++" -O2 -g -Wall -Wextra \
    --cuda-path="$cuda" --offload-arch=sm_90 -Wno-unknown-cuda-version \
    "$@" tests/structures/thrust/thrust.cu -o "$sdir/thrust.$name" \
    -L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread
}
if [ "${STAGE_THRUST_NOPREFETCH:-0}" = 1 ]; then
  stage_thrust_with noprefetch -mllvm -pasta-prefetch-counter-rows=0
fi
if [ "${STAGE_THRUST_INLINELAUNCH:-0}" = 1 ]; then
  stage_thrust_with inlinelaunch -mllvm -pasta-inline-launch-count
fi
PASTA_STAGE_NO_LINES=1 scripts/stage_gpu.sh
cd build-gpu
rm -f bin/kernels/*-div bin/kernels/*-trace* bin/kernels/*-pasta-blocks
(cd bin/kernels && XZ_OPT=-9 tar cJf ../../kernels.txz .)
cp "$before/structures/thrust" bin/structures/thrust.before
# Every structure build/bin/structures has (scripts/build_structures.sh),
# for scripts/gpu_structures.sh in the same call.
(cd bin/structures && XZ_OPT=-9 tar cJf ../../structures.txz .)
rm -rf bin
# The Thrust structure links libpasta_rt.so: its "before" build loads the
# earlier one from lib-before (gpu_ws_before_after.sh puts it first).
if [ "${STAGE_OLD_RUNTIME:-0}" = 1 ]; then
  mkdir -p lib-before
  cp "$old/lib/libpasta_rt.so" lib-before/
fi
git rev-parse --short HEAD > commit
du -sh .
