#!/usr/bin/env bash
# Divergence figures of a kernel whose launches split between its
# divergence copy and its counting copy (tests/gpu/div_fallback.cu, built
# by CMake as bin/kernels/div_fallback-div): one direct launch, one through
# a CUDA graph. The program must compute its results; the kernel's
# "divergence" launch counts must say 1 measured, 1 not (a graph); the
# warp-level figures of its lines must be the ones its header derives by
# hand, and equal those of a run without the graph launch (`direct`).
# scripts/gpu_divergence.sh runs it at its end.
# usage (GPU machine): bash scripts/gpu_div_fallback.sh; writes
# $OUT/div-fallback.txt.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
. scripts/lib/gpu.sh
pasta_run_div_program div_fallback div-fallback
rc=$?
[ $rc -eq 127 ] && exit 1
prc=0
exe=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}/div_fallback-div
PASTA_DIVERGENCE=1 PASTA_OUTPUT="$OUT/div-fallback-direct.json" "$exe" direct \
  > "$OUT/div-fallback-direct.txt" 2>&1 || prc=1
kernel=launches.kernels:scale:divergence
line=line:div_fallback.cu
python3 tests/check_profile.py "$OUT/div-fallback.json" \
  $kernel.launches_measured=1 $kernel.launches_not_measured=1 \
  $kernel.not_measured.graph=1 $kernel.not_measured.block=0 \
  $line:30:divergence.branches=4 $line:30:divergence.divergent_branches=1 \
  $line:31:divergence.requests_global=8 $line:31:divergence.sectors=26 \
  $line:31:divergence.ideal_sectors=26 \
  >> "$OUT/div-fallback.txt" || prc=1
# The run without the graph launch has every launch measured.
python3 tests/check_profile.py "$OUT/div-fallback-direct.json" \
  $kernel.launches_measured=1 $kernel.launches_not_measured=0 \
  >> "$OUT/div-fallback.txt" || prc=1
# Warp-level figures, per line and kernel, equal to the direct run's; the
# thread-level ones printed beside them.
python3 - "$OUT/div-fallback-direct.json" "$OUT/div-fallback.json" \
  >> "$OUT/div-fallback.txt" 2>&1 <<'PY' || prc=1
import json, sys
WARP = ("requests_global", "requests_shared", "sectors", "ideal_sectors",
        "bank_conflicts", "branches", "divergent_branches", "warp_executions")
THREAD = ("requested_bytes", "distinct_bytes_global", "thread_executions")
def figures(path):
    p = json.load(open(path))
    out = {}
    for l in p["lines"]:
        if l.get("divergence") and l["file"].endswith("div_fallback.cu"):
            out["line %d" % l["line"]] = l["divergence"]
    for f in p["kernels"]:
        if f.get("divergence") and "scale" in f["name"]:
            out["kernel"] = f["divergence"]
    return out
direct, both = figures(sys.argv[1]), figures(sys.argv[2])
bad = 0
for where in sorted(set(direct) | set(both)):
    d, b = direct.get(where, {}), both.get(where, {})
    for key in WARP:
        same = d.get(key) == b.get(key)
        bad += not same
        print("%s %s %s: direct %s, with the graph launch %s"
              % ("ok  " if same else "FAIL", where, key, d.get(key), b.get(key)))
    for key in THREAD:
        print("info %s %s: direct %s, with the graph launch %s"
              % (where, key, d.get(key), b.get(key)))
print("warp-level figures: %s" % ("equal" if not bad and direct else "DIFFER"))
sys.exit(1 if bad or not direct else 0)
PY
cat "$OUT/div-fallback.txt"
grep -q "div_fallback: PASSED" "$OUT/div-fallback.txt" && [ $rc -eq 0 ] && [ $prc -eq 0 ]
