#!/usr/bin/env bash
# Stages scripts/gpu_trace.sh's inputs for a before/after of trace mode:
# this build's plain and trace-mode programs and, beside each
# <program>-trace, the same program built by ninja's own command with an
# earlier tree's plugin and host runtime (<program>-trace-before), packed
# (scripts/unpack_gpu.sh unpacks them on the GPU machine).
# usage: stage_trace_before_after.sh OLD_BUILD_DIR
#   OLD_BUILD_DIR: a build of the earlier tree with `ninja pasta pasta_rt`
#   run (its lib/libpasta.so and lib/libpasta_rt.a are used: the two halves
#   must agree on the ABI version).
# then run(command="scripts/unpack_gpu.sh && TRACE_BEFORE=1
#   PASTA_KERNEL_BIN=build-gpu/bin/kernels bash scripts/gpu_trace.sh",
#   carry=["build-gpu"]).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(cd "$1" && pwd)/lib/libpasta_rt.a
old_plugin=$(cd "$1" && pwd)/lib/libpasta.so
build=${PASTA_BUILD_DIR:-build}
root=$(pwd)
for f in "$old" "$old_plugin"; do
  [ -f "$f" ] || { echo "stage_trace_before_after: no $f" >&2; exit 1; }
done
ninja -C "$build"
for exe in "$build"/bin/kernels/*-trace; do
  target=bin/kernels/$(basename "$exe")
  cmd=$(ninja -C "$build" -t commands "$target" | tail -1)
  case $cmd in *"$root/$build/lib/libpasta_rt.a"*) ;;
  *) echo "stage_trace_before_after: $target: no libpasta_rt.a in its command" >&2
     exit 1 ;;
  esac
  case $cmd in *"-fpass-plugin=$root/$build/lib/libpasta.so"*) ;;
  *) echo "stage_trace_before_after: $target: no plugin in its command" >&2
     exit 1 ;;
  esac
  cmd=${cmd//$root\/$build\/lib\/libpasta_rt.a/$old}
  cmd=${cmd//-fpass-plugin=$root\/$build\/lib\/libpasta.so/-fpass-plugin=$old_plugin}
  cmd=${cmd//-o $root\/$build\/$target /-o $root\/$build\/$target-before }
  bash -c "$cmd" || { echo "stage_trace_before_after: $target failed" >&2; exit 1; }
  echo "built $target-before"
done
PASTA_STAGE_TRACE=1 scripts/stage_gpu.sh
# Under the 64 MiB carry limit: only the bundled programs (no structures),
# packed with xz.
cd build-gpu
(cd bin/kernels && find . -maxdepth 1 -type f ! -name "*-before" -o -name "*-trace-before" |
  XZ_OPT=-9 tar cJf ../../kernels.txz -T -)
rm -rf bin
git rev-parse --short HEAD > commit
du -sh .
