#!/bin/sh
# tests/exit/exit_paths.c with its main instrumented (PASTA_HOST=1), so that
# the pass puts __pasta_main_exit where main returns, as in a CUDA program
# built with the plugin; then run_exit_paths.sh MODE on it.
# usage: run_exit_instrumented.sh CLANG PLUGIN RT_SO GLUE_LIB INCLUDE_DIR
#          LIB CHECK_PROFILE WORKDIR MODE
set -eu
clang=$1 plugin=$2 rt=$3 glue=$4 inc=$5 lib=$6 check=$7 work=$8 mode=$9
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
env PASTA_HOST=1 "$clang" -O0 -g -I"$inc" -fpass-plugin="$plugin" \
  "$here/exit_paths.c" "$here/fake_reset.c" -o "$work/exit_paths_host" \
  "$glue" "$rt" -Wl,-rpath,"$(dirname "$rt")" -Wl,--wrap=cudaDeviceReset \
  -pthread -ldl
exec "$here/run_exit_paths.sh" "$work/exit_paths_host" "$lib" "$check" "$mode"
