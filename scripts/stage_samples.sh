#!/usr/bin/env bash
# Copies sample executables built by scripts/cuda_samples.sh into a staging
# directory for scripts/gpu_samples.sh, with the runtime library beside.
# usage: scripts/stage_samples.sh RESULTS DEST SAMPLE...   (SAMPLE: e.g.
# 0_Introduction/vectorAdd, as in RESULTS/samples.tsv)
set -eu
results=$1 dest=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest" "$dest/../lib"
cp "$repo/build/lib/libpasta_rt.so" "$dest/../lib/"
for sample in "$@"; do
  out=$results/build/${sample//\//+}/pasta
  exe=$out/$(basename "$sample")
  [ -x "$exe" ] || { echo "stage_samples: no executable $exe" >&2; exit 1; }
  cp "$exe" "$dest/"
done
du -sh "$dest"
