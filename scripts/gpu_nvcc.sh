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
#
# Line tables by default (no -lineinfo): build the Makefile project again
# without -lineinfo (PASTA_NVCC_NOLINEINFO=1 ctest -R nvcc-make-project)
# and stage
#   cp build/tests/nvcc/pasta-nolineinfo/app build-gpu/nvcc/make/pasta-nolineinfo
# Its profile must equal the -lineinfo build's (scripts/compare_profiles.py)
# and have a file and line for every line entry (no "?:0").
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
# The Makefile project without -lineinfo, against the -lineinfo build.
nolines=""
if [ -x "$bin/make/pasta-nolineinfo" ] && [ -f "$W/make/profile.json" ]; then
  d=$W/make-nolineinfo
  mkdir -p "$d"
  PASTA_OUTPUT=$d/profile.json "$bin/make/pasta-nolineinfo" > "$d/pasta.out" 2> "$d/pasta.err"
  rc=$?
  same=no
  cmp -s "$W/make/plain.out" "$d/pasta.out" && same=yes
  python3 scripts/compare_profiles.py "$W/make/profile.json" "$d/profile.json" \
    > "$d/compare.txt" 2>&1
  rc_cmp=$?
  unlined=$(python3 -c 'import json, sys
print(sum(1 for l in json.load(open(sys.argv[1]))["lines"] if not l.get("file") or not l.get("line")))' \
    "$d/profile.json" 2> /dev/null || echo "?")
  total=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["lines"]))' \
    "$d/profile.json" 2> /dev/null || echo "?")
  nolines="| make, no -lineinfo | $rc | $same | $total | $unlined | $([ $rc_cmp = 0 ] && echo equal || echo DIFFERENT) |"
  [ $rc = 0 ] && [ $same = yes ] && [ $rc_cmp = 0 ] && [ "$unlined" = 0 ] || ok=0
fi
{
  echo "# Projects written for nvcc on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo
  echo "| project | exit (nvcc) | exit (PASTA) | same stdout | stdout | hand-derived counts |"
  echo "|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  printf '%s' "$checks"
  if [ -n "$nolines" ]; then
    echo
    echo "| build | exit | same stdout | lines | lines without file:line | profile vs the -lineinfo build |"
    echo "|---|---|---|---|---|---|"
    echo "$nolines"
  fi
} > "$OUT/nvcc.md"
cat "$OUT/nvcc.md"
[ $ok = 1 ]
