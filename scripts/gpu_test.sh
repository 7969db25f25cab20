#!/usr/bin/env bash
# ctest's `gpu` test: the GPU validation run when a GPU is present (through
# scripts/gpu_check.sh), otherwise exit 77, which ctest reports as skipped.
cd "$(dirname "$0")/.."
if ! command -v nvidia-smi > /dev/null 2>&1 || ! nvidia-smi -L > /dev/null 2>&1; then
  echo "skipped: no GPU (run scripts/gpu_check.sh on a GPU machine)"
  exit 77
fi
exec scripts/gpu_check.sh
