#!/usr/bin/env bash
# Configures and builds PASTA into build/ (or $PASTA_BUILD_DIR) with clang-22,
# warnings as errors (PASTA_WERROR, off in a plain cmake build). Extra
# arguments go to cmake's configure step (e.g. -DPASTA_SANITIZE=ON).
# PASTA_BUILD_TARGETS="pasta pasta_rt" builds only those targets (and what
# they need) instead of everything (scripts/demo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PASTA_BUILD_DIR:-build}
CC=clang-22 CXX=clang++-22 cmake -G Ninja -S . -B "$build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPASTA_WERROR=ON "$@" > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
# shellcheck disable=SC2086 # a list of target names
ninja -C "$build" ${PASTA_BUILD_TARGETS:-}
