#!/usr/bin/env bash
# Copies sample executables built by scripts/cuda_samples.sh, with the
# files their build put beside them (a fatbin or PTX loaded at run time, a
# kernel source for NVRTC), into DEST/<name>/ for scripts/gpu_samples.sh,
# and the runtime library into DEST/../lib.
# usage: scripts/stage_samples.sh RESULTS DEST SAMPLE...   (SAMPLE: e.g.
# 0_Introduction/vectorAdd, as in RESULTS/samples.tsv)
set -eu
results=$1 dest=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest" "$dest/../lib"
cp "$repo/build/lib/libpasta_rt.so" "$dest/../lib/"
for sample in "$@"; do
  name=$(basename "$sample")
  out=$results/build/Samples+${sample//\//+}
  [ -x "$out/$name" ] || { echo "stage_samples: no executable $out/$name" >&2; exit 1; }
  mkdir -p "$dest/$name"
  cp "$out/$name" "$dest/$name/"
  find "$out" -maxdepth 1 -type f \( -name '*.fatbin' -o -name '*.ptx' \
    -o -name '*.cubin' -o -name '*.cu' -o -name '*.cuh' \) \
    -exec cp {} "$dest/$name/" \;
done
du -sh "$dest"
