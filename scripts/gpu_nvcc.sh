#!/usr/bin/env bash
# GPU check of the projects written for nvcc (tests/nvcc/): the Makefile
# project built with pasta-nvcc and the CMake project built through the
# toolchain file, each beside its plain twin (the real nvcc). Per project,
# both builds must print the same line, and the profile must hold the
# counts derived by hand in tests/nvcc/README.md (the same sources).
#
# Stage (after ctest -R nvcc-):
#   for p in make cmake; do mkdir -p build-gpu/nvcc/$p; done
#   cp build/tests/nvcc/plain/app build-gpu/nvcc/make/plain
#   cp build/tests/nvcc/pasta/app build-gpu/nvcc/make/pasta
#   cp build/tests/nvcc-cmake/plain/app build-gpu/nvcc/cmake/plain
#   cp build/tests/nvcc-cmake/pasta/app build-gpu/nvcc/cmake/pasta
# and run: run(command="bash scripts/gpu_nvcc.sh", carry=["build-gpu"]).
# Results: $OUT/nvcc.md (a table), $OUT/nvcc/ (outputs, profiles).
set -u
OUT=${OUT:-$PWD/gpu-out}
bin=${PASTA_NVCC_BIN:-$PWD/build-gpu/nvcc}
W=$OUT/nvcc
mkdir -p "$W"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
N=1048576
rows="" checks="" ok=1
for project in make cmake; do
  d=$W/$project
  mkdir -p "$d"
  [ -x "$bin/$project/pasta" ] || { echo "not staged: $bin/$project" >&2; ok=0; continue; }
  "$bin/$project/plain" > "$d/plain.out" 2> "$d/plain.err"
  rc_plain=$?
  PASTA_OUTPUT=$d/profile.json "$bin/$project/pasta" > "$d/pasta.out" 2> "$d/pasta.err"
  rc_pasta=$?
  same=no
  cmp -s "$d/plain.out" "$d/pasta.out" && same=yes
  python3 tests/check_profile.py "$d/profile.json" \
    kernels:scale_twice:launches=1 \
    kernels:scale_twice:load_bytes.global=$((4 * N)) \
    kernels:scale_twice:store_bytes.global=$((4 * N)) \
    kernels:for_each_index:launches=1 \
    kernels:for_each_index:load_bytes.global=$((8 * N)) \
    kernels:for_each_index:store_bytes.global=$((4 * N)) \
    kernels:for_each_index:flops.f32=$((2 * N)) \
    > "$d/check.txt" 2>&1
  rc_check=$?
  rows+="| $project | $rc_plain | $rc_pasta | $same | $(cat "$d/pasta.out") | $([ $rc_check = 0 ] && echo ok || echo FAIL) |"$'\n'
  checks+="$project:"$'\n'"$(sed 's/^/    /' "$d/check.txt")"$'\n'
  [ $rc_plain = 0 ] && [ $rc_pasta = 0 ] && [ $same = yes ] && [ $rc_check = 0 ] || ok=0
done
{
  echo "# Projects written for nvcc on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo
  echo "| project | exit (nvcc) | exit (PASTA) | same stdout | stdout | hand-derived counts |"
  echo "|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  printf '%s' "$checks"
} > "$OUT/nvcc.md"
cat "$OUT/nvcc.md"
[ $ok = 1 ]
