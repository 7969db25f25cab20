#!/usr/bin/env bash
# Stages the closing run (scripts/gpu_closing_run.sh) into one folder to
# carry: this tree's builds beside an earlier tree's, both with their own
# plugin and runtime, for every before/after table of docs/performance.md
# and docs/validation.md in one GPU call:
#   ws/      scripts/stage_ws_before_after.sh (counting and working-set
#            timings, profile comparisons, Thrust, structures)
#   div/     scripts/stage_div_before_after.sh (divergence mode)
#   nvcc/    the projects written for nvcc and tests/nvcc's self-checking
#            programs (scripts/gpu_nvcc.sh)
#   launch/  scripts/stage_launch_cost.sh (host time per launch)
# usage: scripts/stage_closing_run.sh OLD_BUILD [DEST]
#   OLD_BUILD: a copied build of the earlier tree (lib/, bin/, CMakeCache.txt;
#   its lib/libpasta_rt.a naming OLD_BUILD/lib/libpasta_rt_members.a, and
#   bin/kernels/*-div built: ninja pasta_kernels_div there).
#   DEST: default build-gpu-closing (about 45 MB).
# CLOSING_PARTS="div nvcc" stages only those parts (default: ws div nvcc
# launch), for a shorter run when device time is short; gpu_closing_run.sh
# runs the parts it finds.
# then run(command="bash scripts/gpu_closing_run.sh",
#          carry=["build-gpu-closing"], kind="nvidia-h200-x2").
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(cd "${1:?usage: stage_closing_run.sh OLD_BUILD [DEST]}" && pwd)
dest=${2:-build-gpu-closing}
build=${PASTA_BUILD_DIR:-build}
[ -e build-gpu ] && { echo "stage_closing_run: build-gpu/ exists; move it away first" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest"

parts=" ${CLOSING_PARTS:-ws div nvcc launch} "
wanted() { [[ $parts == *" $1 "* ]]; }

if wanted ws; then
  STAGE_OLD_RUNTIME=1 scripts/stage_ws_before_after.sh "$old"
  mv build-gpu "$dest/ws"
fi

if wanted div; then
  ninja -C "$build" pasta_kernels_div > /dev/null
  scripts/stage_div_before_after.sh "$old"
  mv build-gpu "$dest/div"
fi

stage_nvcc() {
  # The nvcc projects are built by their ctests (make and CMake, plain and
  # with pasta-nvcc); the self-checking programs by theirs.
  (cd "$build" && PASTA_PLAIN_TWINS=1 ctest -R 'nvcc-(make|cmake)-project|nvcc-managed|nvcc-math-globals' \
    --output-on-failure > /dev/null)
  n=$dest/nvcc/nvcc
  for p in make cmake; do mkdir -p "$n/$p"; done
  cp "$build/tests/nvcc/plain/app" "$n/make/plain"
  cp "$build/tests/nvcc/pasta/app" "$n/make/pasta"
  cp "$build/tests/nvcc-cmake/plain/app" "$n/cmake/plain"
  cp "$build/tests/nvcc-cmake/pasta/app" "$n/cmake/pasta"
  mkdir -p "$n/self" "$dest/nvcc/lib"
  cp "$build/tests/nvcc_managed" "$build/tests/nvcc_math_globals" "$n/self/"
  cp "$build/lib/libpasta_rt.so" "$dest/nvcc/lib/"
  git rev-parse --short HEAD > "$dest/nvcc/commit"
}
if wanted nvcc; then stage_nvcc; fi

if wanted launch; then
  PASTA_BEFORE_BUILD=$old LAUNCH_DEST=$dest/launch scripts/stage_launch_cost.sh > /dev/null
fi
cp "$old/commit" "$dest/before-commit" 2>/dev/null || true
git rev-parse --short HEAD > "$dest/commit"
du -sh "$dest"
