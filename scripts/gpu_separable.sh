#!/usr/bin/env bash
# Relocatable device code through CMake, on the GPU: runs the integration
# test's sample (tests/integration/cmake_project, built by
# check_cmake_project.sh with CUDA_SEPARABLE_COMPILATION ON and staged as
# build-gpu/bin/kernels/cmake-separable-sample) and checks that it computes
# its result and that the profile counts both translation units' kernels,
# one launch each. Writes $OUT/separable.txt.
set -u
OUT=${OUT:-$PWD/gpu-out}
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
mkdir -p "$OUT"
exe="$BIN/cmake-separable-sample"
PASTA_OUTPUT="$OUT/separable.json" "$exe" > "$OUT/separable.txt" 2>&1
rc=$?
python3 - "$OUT/separable.json" >> "$OUT/separable.txt" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
kernels = {k["mangled"]: k for k in p["kernels"]}
ok = True
for name in ("_Z14add_one_kernelPfi", "_Z12scale_kernelPffi"):
    k = kernels.get(name)
    launches = k and k.get("launches")
    print(f"{name}: launches={launches}")
    ok &= launches == 1
print("separable: counts of both units" if ok else "separable: FAILED")
sys.exit(0 if ok else 1)
PY
prc=$?
cat "$OUT/separable.txt"
grep -q "sample: ok" "$OUT/separable.txt" && [ $rc -eq 0 ] && [ $prc -eq 0 ]
