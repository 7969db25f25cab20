#!/usr/bin/env bash
# Builds each bundled program's instrumented executable again with another
# pass plugin (e.g. the libpasta.so of an earlier commit), as
# build/bin/kernels/<program>-<SUFFIX>, by ninja's own command for
# <program>-pasta with the plugin and the output replaced: a before/after
# pair on the GPU in one run (scripts/gpu_bench.sh VARIANTS="... SUFFIX-ws").
# usage: build_with_plugin.sh PLUGIN SUFFIX
# PASTA_RUNTIME_LIB=<libpasta_rt.a> links that host runtime instead of this
# build's (the earlier tree's whole runtime, not only its plugin).
# PASTA_PLUGIN_ARGS adds compiler arguments (shell words), e.g. this
# build's own plugin with one option changed:
#   PASTA_PLUGIN_ARGS="-Xarch_device -mllvm=-pasta-gather-warp-at-exit=0" \
#     build_with_plugin.sh build/lib/libpasta.so nogather
set -euo pipefail
cd "$(dirname "$0")/.."
plugin=$(realpath "$1") suffix=$2
build=${PASTA_BUILD_DIR:-build}
[ -f "$plugin" ] || { echo "build_with_plugin: no plugin at $1" >&2; exit 1; }
root=$(pwd)
for exe in "$build"/bin/kernels/*-pasta; do
  target=bin/kernels/$(basename "$exe")
  cmd=$(ninja -C "$build" -t commands "$target" | tail -1)
  case $cmd in *"-fpass-plugin=$root/$build/lib/libpasta.so"*) ;;
  *) echo "build_with_plugin: $target: no plugin in its command, skipped" >&2
     continue ;;
  esac
  cmd=${cmd//-fpass-plugin=$root\/$build\/lib\/libpasta.so/-fpass-plugin=$plugin}
  cmd=${cmd//-o $root\/$build\/$target /-o $root\/$build\/${target%-pasta}-$suffix }
  if [ -n "${PASTA_RUNTIME_LIB:-}" ]; then
    case $cmd in *"$root/$build/lib/libpasta_rt.a"*) ;;
    *) echo "build_with_plugin: $target: no $build/lib/libpasta_rt.a in its command" >&2
       exit 1 ;;
    esac
    cmd=${cmd//$root\/$build\/lib\/libpasta_rt.a/$(realpath "$PASTA_RUNTIME_LIB")}
  fi
  [ -z "${PASTA_PLUGIN_ARGS:-}" ] || cmd="$cmd $PASTA_PLUGIN_ARGS"
  bash -c "$cmd" || { echo "build_with_plugin: $target failed" >&2; exit 1; }
  echo "built ${target%-pasta}-$suffix"
done
