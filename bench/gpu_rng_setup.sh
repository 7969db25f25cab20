#!/usr/bin/env bash
# curand_init's skip-ahead (bench/rng_setup.cu: a kernel of a local state
# and the MonteCarloMultiGPU sample's own shape) timed plain against its
# counting copies, and the counting copy under register caps, through the
# CUDA driver (bench/ptx_reg_sweep.c: median of 10 launches by events, the
# output's hash: every copy must write the plain copy's states).
# Staged (no GPU): bash bench/gpu_rng_setup.sh --stage DIR, which compiles
# the PTX with this tree's plugin (build/lib/libpasta.so) into DIR with the
# sources this script needs. On the GPU machine:
#   run(command="bash DIR/gpu_rng_setup.sh") -> $OUT/rng_setup.tar.gz
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --stage ]; then
  DIR=$2 REPO=$(cd "$HERE/.." && pwd)
  mkdir -p "$DIR"
  PLUGIN=${PLUGIN:-$REPO/build/lib/libpasta.so}
  CC=(clang++-22 -x cuda --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version
    --offload-arch=sm_90 -O3 --cuda-device-only -S -gline-tables-only)
  # counting: the defaults (counters in registers); mem: every counter of
  # a loop block in local memory (-pasta-many-loop-counters=32);
  # lcr8/lcr16: the hottest 8/16 in registers, the rest in memory.
  for v in counting: mem:-pasta-many-loop-counters=32 \
    lcr8:-pasta-loop-counter-registers=8 lcr16:-pasta-loop-counter-registers=16; do
    flag=${v#*:}
    "${CC[@]}" -fpass-plugin="$PLUGIN" ${flag:+-mllvm "$flag"} \
      -o "$DIR/${v%%:*}.ptx" "$HERE/rng_setup.cu"
  done
  cp "$HERE/ptx_reg_sweep.c" "$HERE/rng_setup.cu" "$0" "$DIR/"
  exit 0
fi
OUT=${OUT:-/tmp/rng-out}
W=/tmp/rng-work
mkdir -p "$OUT" "$W"
CUDA=${CUDA:-/usr/local/cuda}
cc -O2 -I"$CUDA/include" "$HERE/ptx_reg_sweep.c" -L"$CUDA/lib64/stubs" \
  -lcuda -o "$W/ptx_reg_sweep" || exit 1
K=_Z9rng_setupP17curandStateXORWOWy
BLOCKS=${BLOCKS:-1024}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo
  "$W/ptx_reg_sweep" "$BLOCKS" 256 48 0,64,48 "$HERE/counting.ptx" \
    "${K}__pasta_plain=plain" "$K=counting" "${K}__pasta_capped=capped64"
  for v in mem lcr8 lcr16; do
    echo
    "$W/ptx_reg_sweep" "$BLOCKS" 256 48 0 "$HERE/$v.ptx" "$K=counting-$v"
  done
  # The sample's own shape (rng_setup_in_place: subsequence = the thread's
  # index in its block, the state initialised in global memory) at the
  # sample's launch (2.93M threads: 11,440 blocks of 256).
  K2=_Z18rng_setup_in_placeP17curandStateXORWOWy
  echo
  "$W/ptx_reg_sweep" "${SAMPLE_BLOCKS:-11440}" 256 48 0 "$HERE/counting.ptx" \
    "${K2}__pasta_plain=plain-in-place" "$K2=counting-in-place"
  echo
  "$W/ptx_reg_sweep" "${SAMPLE_BLOCKS:-11440}" 256 48 0 "$HERE/mem.ptx" \
    "$K2=counting-in-place-mem"
} > "$OUT/rng_setup.md" 2>&1
cat "$OUT/rng_setup.md"
