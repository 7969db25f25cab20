#!/usr/bin/env bash
# Nsight Compute on bench/ws_state_strategies.cu's working-set modes
# (one launch each, --set full, details page and the per-instruction source
# view): where the page-flag stores' time goes. GPU machine, nothing staged.
# run(command="bash bench/gpu_ws_state_ncu.sh") -> $OUT/ws_state_ncu.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
mkdir -p "$OUT"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
W=$(mktemp -d)
"$NVCC" -O3 -arch=sm_90 -Itest_kernels -lineinfo -o "$W/wss" bench/ws_state_strategies.cu || exit 1
timeout 300 "$NCU" -k "regex:add_(plain|const)" --set full -o "$W/wss" "$W/wss" 16777216 >"$W/run.log" 2>&1
"$NCU" -i "$W/wss.ncu-rep" --page details >"$W/details.txt" 2>&1
"$NCU" -i "$W/wss.ncu-rep" --page raw --csv >"$W/raw.csv" 2>&1
"$NCU" -i "$W/wss.ncu-rep" --page source --csv --print-source sass >"$W/source.csv" 2>&1
rm -f "$W/wss.ncu-rep" "$W/wss"
tar czf "$OUT/ws_state_ncu.tgz" -C "$W" .
ls -la "$W"
