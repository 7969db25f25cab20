# Shell helpers the GPU scripts source (`. scripts/lib/gpu.sh` from the
# repository root, or `. "$(dirname "$0")/lib/gpu.sh"`). Functions only:
# sourcing it changes nothing.

# The path of Nsight Compute's ncu (PATH, the CUDA toolkit, /opt/nvidia), or
# nothing.
pasta_find_ncu() {
  command -v ncu || ls /usr/local/cuda/bin/ncu \
    /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1
}

# Nsight Compute's divergence metrics ($METRICS, read by the caller from
# scripts/ncu_divergence_metrics.txt) of one command, with the clocks left
# alone, into a CSV file: SECONDS CSV COMMAND [ARGS...]. $NCU is
# pasta_find_ncu's answer.
pasta_ncu_divergence() {
  local seconds=$1 csv=$2
  shift 2
  timeout "$seconds" "$NCU" --clock-control none --csv --page raw \
    --print-units base --metrics "$METRICS" --log-file "$csv" "$@"
}

# One line naming the GPU, its driver and the commit measured.
# The commit is the staged build's (build-gpu/commit, written by the
# staging scripts) where there is one: the tree copied to the GPU machine
# may be newer than what was built.
pasta_gpu_header() {
  local built
  built=$(cat build-gpu/commit 2>/dev/null)
  echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')${built:+, staged build $built}"
}

# For the design measurements that nvcc builds on the GPU machine: OUT
# (created; default out), NVCC and a work directory W.
pasta_design_setup() {
  OUT=${OUT:-out}
  mkdir -p "$OUT"
  NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
  W=$(mktemp -d)
}

# A GPU test program built in divergence mode (bin/kernels/NAME-div, under
# $PASTA_KERNEL_BIN or build-gpu/bin/kernels) run once: its profile in
# $OUT/STEM.json, its output in $OUT/STEM.txt. Returns the program's exit
# status, 127 (with a line saying so) where it is not built. NAME STEM.
pasta_run_div_program() {
  local exe=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}/$1-div
  [ -x "$exe" ] || { echo "$1: no $exe"; return 127; }
  PASTA_DIVERGENCE=1 PASTA_OUTPUT="$OUT/$2.json" "$exe" >"$OUT/$2.txt" 2>&1
}
