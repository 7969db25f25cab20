#!/usr/bin/env bash
# Runs NVIDIA CUDA samples built through the PASTA toolchain
# (scripts/cuda_samples.sh) on the GPU. The samples check their own results
# against CPU references and say so in their exit status (a few also print
# "Test passed"); a row passes when the sample exits 0 and prints no
# failure. The profile's kernels with device counts (loads, stores, atomics
# or FLOPs) and their launches are listed beside: kernels a sample loads at
# run time (cuModuleLoad*, NVRTC) are not instrumented. Where the stage put
# a plain build beside one (NAME.plain), it runs too, for comparison.
#
# Stage (on the development machine, after scripts/cuda_samples.sh):
#   scripts/stage_samples.sh RESULTS build-gpu/samples NAME...
# and run: run(command="bash scripts/gpu_samples.sh", carry=["build-gpu"]).
# Results: $OUT/samples.md (a table), $OUT/samples-tails.txt (the last
# lines of each run), $OUT/samples/ (outputs, profiles).
set -u
OUT=${OUT:-$PWD/gpu-out}
dir=${PASTA_SAMPLES_BIN:-$PWD/build-gpu/samples}
W=$OUT/samples
mkdir -p "$W"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
limit=${SAMPLE_TIMEOUT:-120}
passed=0 failed=0 rows=""
: > "$OUT/samples-tails.txt"

# Kernels with device counts in a profile, and their launches.
counted_kernels() {
  python3 -c '
import json, sys
try:
    p = json.load(open(sys.argv[1]))
except Exception:
    print(0, 0)
    sys.exit()
fields = ("loads", "stores", "atomics", "flops")
def counted(k):
    return sum(sum(k.get(f, {}).values()) for f in fields)
ks = [k for k in p.get("kernels", []) if k.get("launches", 0) > 0 and counted(k)]
print(len(ks), sum(k["launches"] for k in ks))
' "$1"
}

for sample in "$dir"/*/; do
  name=$(basename "$sample")
  [ -x "$sample$name" ] || continue
  # In its own directory: the files it loads at run time are there.
  (cd "$sample" && PASTA_OUTPUT=$W/$name.json timeout "$limit" "./$name" \
    > "$W/$name.out" 2> "$W/$name.err")
  rc=$?
  verdict=$(cat "$W/$name.out" "$W/$name.err" |
    grep -m1 -iE "passed|result = pass|fail|mismatch" | tr '|' '/' |
    cut -c1-60)
  read -r kernels launches < <(counted_kernels "$W/$name.json")
  plain=-
  if [ -x "$sample$name.plain" ]; then
    (cd "$sample" && timeout "$limit" "./$name.plain" \
      > "$W/$name.plain.out" 2>&1)
    plain=$?
  fi
  # A failure said in words ("Test Results: 0 Failures" is none).
  if [ "$rc" = 0 ] && ! grep -iE "fail|mismatch" "$W/$name.out" |
    grep -qviE "(^|[^0-9])0 failures"; then
    passed=$((passed + 1))
    result=ok
  else
    failed=$((failed + 1))
    result=FAIL
  fi
  {
    echo "== $name (exit $rc, plain $plain)"
    tail -n 4 "$W/$name.out"
    grep -vE '^  |^$|^==|^Top|^Loads|^\(generic|^FLOP' "$W/$name.err" |
      tail -n 6
  } >> "$OUT/samples-tails.txt"
  rm -f "$W/$name.roofline.svg"
  rows+="| $name | $rc | $plain | ${verdict:-(exit status)} | $kernels | $launches | $result |"$'\n'
done
{
  echo "# CUDA samples built through the PASTA toolchain, on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo
  echo "| sample | exit | exit (plain) | it says | kernels with counts | their launches | row |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  echo "$passed passed, $failed failed"
} > "$OUT/samples.md"
cat "$OUT/samples.md"
[ "$failed" = 0 ]
