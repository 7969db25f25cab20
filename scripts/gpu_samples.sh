#!/usr/bin/env bash
# Runs NVIDIA CUDA samples built through the PASTA toolchain
# (scripts/cuda_samples.sh) on the GPU. Each sample checks its own result
# against a CPU reference; a row passes when the sample exits 0, says it
# passed, and its profile was written with device counts (loads, stores or
# FLOPs) for at least one launched kernel.
#
# Stage (on the development machine, after scripts/cuda_samples.sh):
#   scripts/stage_samples.sh RESULTS build-gpu/samples NAME...
# and run: run(command="bash scripts/gpu_samples.sh", carry=["build-gpu"]).
# Results: $OUT/samples.md (a table), $OUT/samples/ (outputs, profiles).
set -u
OUT=${OUT:-$PWD/gpu-out}
dir=${PASTA_SAMPLES_BIN:-$PWD/build-gpu/samples}
W=$OUT/samples
mkdir -p "$W"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
passed=0 failed=0 rows=""
for sample in "$dir"/*/; do
  name=$(basename "$sample")
  exe=$sample$name
  [ -x "$exe" ] || continue
  # In its own directory: the files it loads at run time are there.
  (cd "$sample" && PASTA_OUTPUT=$W/$name.json timeout 120 "./$name" \
    > "$W/$name.out" 2> "$W/$name.err")
  rc=$?
  verdict=$(grep -m1 -iE "test passed|passed|result = pass|^done|correct" \
    "$W/$name.out" | tr '|' '/' | cut -c1-60)
  read -r kernels launches < <(python3 - "$W/$name.json" << 'EOF'
import json, sys
try:
    p = json.load(open(sys.argv[1]))
except Exception:
    print(0, 0)
    sys.exit()
def counted(k):
    return sum(sum(k.get(f, {}).values()) for f in ("loads", "stores", "flops"))
ks = [k for k in p.get("kernels", []) if k.get("launches", 0) > 0 and counted(k)]
print(len(ks), sum(k["launches"] for k in ks))
EOF
  )
  if [ "$rc" = 0 ] && [ -n "$verdict" ] && [ "${launches:-0}" -gt 0 ]; then
    passed=$((passed + 1))
    result=ok
  else
    failed=$((failed + 1))
    result=FAIL
  fi
  rows+="| $name | $rc | $verdict | $kernels | $launches | $result |"$'\n'
done
{
  echo "# CUDA samples built through the PASTA toolchain, on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo
  echo "| sample | exit | its own check says | kernels with counts | their launches | row |"
  echo "|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  echo "$passed passed, $failed failed"
} > "$OUT/samples.md"
cat "$OUT/samples.md"
[ "$failed" = 0 ]
