#!/usr/bin/env bash
# GPU check of the nvcc-style project (tests/nvcc/make_project), built by
# the nvcc-make-project test: its plain twin (the real nvcc) and its
# pasta-nvcc build run; both must print the same PASSED line, and the
# profile must hold the counts derived by hand in tests/nvcc/README.md.
#
# Stage (after ctest -R nvcc-make-project):
#   mkdir -p build-gpu/nvcc && cp build/tests/nvcc/plain/app build-gpu/nvcc/plain &&
#   cp build/tests/nvcc/pasta/app build-gpu/nvcc/pasta
# and run: run(command="bash scripts/gpu_nvcc.sh", carry=["build-gpu"]).
# Results: $OUT/nvcc.md (a table), $OUT/nvcc/ (outputs, profile).
set -u
OUT=${OUT:-$PWD/gpu-out}
bin=${PASTA_NVCC_BIN:-$PWD/build-gpu/nvcc}
W=$OUT/nvcc
mkdir -p "$W"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$bin/plain" > "$W/plain.out" 2> "$W/plain.err"
rc_plain=$?
PASTA_OUTPUT=$W/profile.json "$bin/pasta" > "$W/pasta.out" 2> "$W/pasta.err"
rc_pasta=$?
same=no
cmp -s "$W/plain.out" "$W/pasta.out" && same=yes
N=1048576
python3 tests/check_profile.py "$W/profile.json" \
  kernels:scale_twice:launches=1 \
  kernels:scale_twice:load_bytes.global=$((4 * N)) \
  kernels:scale_twice:store_bytes.global=$((4 * N)) \
  kernels:for_each_index:launches=1 \
  kernels:for_each_index:load_bytes.global=$((8 * N)) \
  kernels:for_each_index:store_bytes.global=$((4 * N)) \
  kernels:for_each_index:flops.f32=$((2 * N)) \
  > "$W/check.txt" 2>&1
rc_check=$?
{
  echo "# nvcc-style project on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo
  echo "| build | exit | stdout |"
  echo "|---|---|---|"
  echo "| nvcc (plain) | $rc_plain | $(cat "$W/plain.out") |"
  echo "| pasta-nvcc | $rc_pasta | $(cat "$W/pasta.out") |"
  echo
  echo "Same stdout: $same. Profile against the hand-derived counts:"
  echo
  sed 's/^/    /' "$W/check.txt"
} > "$OUT/nvcc.md"
cat "$OUT/nvcc.md"
[ $rc_plain = 0 ] && [ $rc_pasta = 0 ] && [ $same = yes ] && [ $rc_check = 0 ]
