#!/usr/bin/env bash
# Stages bench/gpu_reductions.sh's run (the counting maximum: the suite's
# reductions and CUB's DeviceReduceSingleTileKernel; lab
# docs/lab/2026-11-30-overhead3-65-reductions.md) into DEST: plain, before
# (BEFORE: a build directory of the earlier tree, its own plugin and static
# runtime) and after (this tree's build) copies of the suite's reduction
# (the suite's flags) and of the Thrust structure, each compiled from this
# tree's sources (so that the profiles name the same files), packed as
# DEST/redux.txz beside gpu_reductions.sh and a run.sh for `bash
# build-gpu/<name>/run.sh` on the GPU machine.
# usage: [OLDER=<build>] [OLDER_FLAGS=...] [STAGE_NAME=<name>]
#          bench/stage_reductions.sh BEFORE DEST
#   (PASTA_BUILD_DIR: this tree's build, default build/; it needs the
#   targets pasta, pasta_rt, lib/libpasta_rt.so and lib/libpasta_glue.a;
#   OLDER_FLAGS: more compiler arguments for the OLDER build, e.g. this
#   build with `-mllvm -pasta-inline-first-block-flush=2` as an A/B;
#   STAGE_LIMIT: run.sh's limit, default 118 s;
#   STAGE_NAME (default redux): run.sh's scratch /tmp/<name>-gpu and its one
#   archive $OUT/<name>.tgz, as build-gpu/<name>/run.sh;
#   STAGE_THRUST_ALL: run.sh's THRUST_ALL_ROUNDS, default 0: rounds of ncu
#   over every Thrust kernel, gpu_reductions.sh's part 5)
set -euo pipefail
. "$(dirname "$0")/stage_common.sh"
stage_setup "$1" "$2" redux
# The suite's reduction as test_kernels/CMakeLists.txt builds it: clang with
# the plugin, the static runtime.
stage_three "$here/test_kernels/reduction.cu" red -I"$here/test_kernels"
# Thrust: plain (clang with CUDA's cccl headers) and each plugin with its
# own runtime, linked statically.
thrust=$here/tests/structures/thrust/thrust.cu
clang++-22 "${cu[@]}" -isystem "$cuda/include/cccl" "$thrust" -o "$pack/thrust-plain" "${rt[@]}"
PASTA_STATIC_RUNTIME=1 PASTA_BUILD_DIR=$before "$here/scripts/pasta-clang++" \
  "${cu[@]}" "$thrust" -o "$pack/thrust-before" "${rt[@]}" 2> /dev/null
PASTA_STATIC_RUNTIME=1 PASTA_BUILD_DIR=$build "$here/scripts/pasta-clang++" \
  "${cu[@]}" "$thrust" -o "$pack/thrust-after" "${rt[@]}" 2> /dev/null
# OLDER (optional): a build of a tree before CUB's inline-PTX loads were
# counted (lab 56; e.g. fc9075b, session 16's end): Thrust built
# by it too, as thrust-older, to split DeviceReduceSingleTileKernel's cost.
if [ -n "${OLDER:-}" ]; then
  # shellcheck disable=SC2086 # OLDER_FLAGS: separate words
  PASTA_STATIC_RUNTIME=1 PASTA_BUILD_DIR=$OLDER "$here/scripts/pasta-clang++" \
    "${cu[@]}" ${OLDER_FLAGS:-} "$thrust" -o "$pack/thrust-older" "${rt[@]}" 2> /dev/null
fi
cp "$here/scripts/compare_profiles.py" "$here/scripts/ncu_kernel_times.py" "$pack/"

tar -cJf "$dest/redux.txz" -C "$(dirname "$pack")" redux
rm -rf "$(dirname "$pack")"
cp "$here/bench/gpu_reductions.sh" "$dest/"
name=${STAGE_NAME:-redux}
# STAGE_LIMIT (default 118): run.sh's limit in seconds; the script skips
# later parts past 6 seconds less.
sed "s/@NAME@/$name/g; s/@LIMIT@/${STAGE_LIMIT:-118}/g; s/@ALL@/${STAGE_THRUST_ALL:-0}/g" > "$dest/run.sh" << 'EOF'
#!/usr/bin/env bash
# bash build-gpu/@NAME@/run.sh: bench/gpu_reductions.sh, one archive.
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT/@NAME@"
OUT=$OUT/@NAME@ REDUX_SCRATCH=/tmp/@NAME@-gpu DEADLINE=$((@LIMIT@ - 6)) \
  THRUST_ALL_ROUNDS=@ALL@ timeout @LIMIT@ bash "$here/gpu_reductions.sh"
tar -czf "$OUT/@NAME@.tgz" -C "$OUT" @NAME@ && rm -rf "$OUT/@NAME@"
EOF
git -C "$here" rev-parse --short HEAD > "$dest/commit"
echo "staged: $(du -sh "$dest" | cut -f1) in $dest"
