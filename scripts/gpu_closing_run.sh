#!/usr/bin/env bash
# The closing run: every before/after table of a session in one GPU call,
# from what scripts/stage_closing_run.sh staged (carry build-gpu-closing).
# Two streams, one per GPU when two are visible (kind nvidia-h200-x2; one GPU
# runs them one after the other, about twice as long):
#   stream 0: gpu_ws_before_after.sh (counting and working-set timings,
#             profiles compared, Thrust), then gpu_structures.sh, then
#             gpu_resources.sh (registers, local memory and occupancy of
#             each bundled kernel's plain and counting copies);
#   stream 1: gpu_divergence.sh, gpu_nvcc.sh, gpu_launch_cost.sh.
# Each stream runs in its own copy of the tree with its own TMPDIR; each
# part writes one archive: $OUT/{ws,structures,resources,div,nvcc,launch}.tgz,
# with its log inside.
# Durations (seconds; defaults fit one 600 s call on two GPUs):
#   CLOSING_BENCH_S=260 CLOSING_THRUST_S=60 CLOSING_COMPARE_S=110
#   CLOSING_DIV_S=300 CLOSING_LAUNCH_REPS=7
# CLOSING_THRUST_REPEAT=R (default 5): each Thrust benchmark run does its
# work R times and a kernel's time is its median launch (a repeatable
# table); only the Thrust part sees it: the structure
# `thrust`'s hand-derived counts are one pass's (THRUST_REPEAT in the
# environment of the whole run made it count five).
set -u
unset THRUST_REPEAT
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
src=${CLOSING_STAGE:-$PWD/build-gpu-closing}
# The parts staged (scripts/stage_closing_run.sh, CLOSING_PARTS) are run.
staged() { [ -d "$src/$1" ]; }
staged ws || staged div || staged nvcc || staged launch ||
  { echo "gpu_closing_run: nothing staged in $src (scripts/stage_closing_run.sh)" >&2; exit 1; }
root=$PWD
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)

# part NAME TIMEOUT COMMAND...: runs COMMAND with OUT=/tmp/<stream>/NAME,
# its log beside, and packs $OUT/NAME.tgz whatever the exit status.
part() {
  local name=$1 limit=$2 dir=$TMPDIR/$1
  shift 2
  mkdir -p "$dir"
  (export OUT=$dir; timeout "$limit" "$@") > "$dir/run.log" 2>&1
  echo "exit $?" >> "$dir/run.log"
  tar czf "$OUT/$name.tgz" -C "$TMPDIR" "$name"
}

# use STAGE: this copy's build-gpu/ becomes the staged STAGE.
use() {
  rm -rf build-gpu
  cp -r "$src/$1" build-gpu
}

stream0() {
  cd "$1"
  staged ws || return 0
  use ws
  part ws $((${CLOSING_BENCH_S:-260} + ${CLOSING_THRUST_S:-60} + ${CLOSING_COMPARE_S:-110} + 120)) \
    env COMPARE_MODES='count ws' COMPARE_S="${CLOSING_COMPARE_S:-110}" \
    WS_VARIANTS='plain pasta before pasta-ws before-ws' BENCH_S="${CLOSING_BENCH_S:-260}" \
    THRUST_VARIANTS='plain counting before ws' THRUST_S="${CLOSING_THRUST_S:-60}" \
    THRUST_REPEAT="${CLOSING_THRUST_REPEAT:-5}" \
    bash scripts/gpu_ws_before_after.sh
  part structures 120 bash scripts/gpu_structures.sh
  part resources 90 env PASTA_KERNEL_BIN=build-gpu/bin/kernels \
    bash scripts/gpu_resources.sh
}

stream1() {
  cd "$1"
  if staged div; then
    use div
    bash scripts/unpack_gpu.sh > /dev/null
    part div $((${CLOSING_DIV_S:-300} + 100)) \
      env DIV_DEADLINE="${CLOSING_DIV_S:-300}" bash scripts/gpu_divergence.sh
  fi
  if staged nvcc; then
    use nvcc
    part nvcc 90 bash scripts/gpu_nvcc.sh
  fi
  staged launch || return 0
  # One CPU to pin the launch loop to: 20 as in earlier tables, where the
  # machine has it (a one-GPU machine has 16 cores).
  local cpu=$(($(nproc) > 20 ? 20 : $(nproc) - 1))
  part launch 120 env PASTA_LAUNCH_BIN="$src/launch" PIN_CPU=$cpu \
    REPS="${CLOSING_LAUNCH_REPS:-7}" \
    LAUNCH_CONFIGS='TK_LAUNCH_CALLS=(cd)?$|pasta\|PASTA_TIMING=[01]$|before\|PASTA_TIMING=1$|START_GRID' \
    bash scripts/gpu_launch_cost.sh
}

copy=/tmp/closing-r1
rm -rf "$copy"
mkdir -p "$copy"
tar cf - --exclude=./build --exclude='./build-*' . | tar xf - -C "$copy"
if [ "$gpus" -ge 2 ]; then
  (export CUDA_VISIBLE_DEVICES=0 TMPDIR=/tmp/closing-t0; mkdir -p "$TMPDIR"; stream0 "$root") &
  (export CUDA_VISIBLE_DEVICES=1 TMPDIR=/tmp/closing-t1; mkdir -p "$TMPDIR"; stream1 "$copy") &
  wait
else
  (export TMPDIR=/tmp/closing-t0; mkdir -p "$TMPDIR"; stream0 "$root")
  (export TMPDIR=/tmp/closing-t1; mkdir -p "$TMPDIR"; stream1 "$copy")
fi
echo "gpu_closing_run: $(ls "$OUT"/*.tgz | wc -l) archives in $OUT"
