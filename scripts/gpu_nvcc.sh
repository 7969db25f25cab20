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
# Programs of tests/nvcc/ that check their own results (exit 0 when the
# values are nvcc's: managed.cu's __managed__ globals, math_globals.cu),
# linked by ctests nvcc-managed and nvcc-math-globals; stage
#   mkdir -p build-gpu/nvcc/self
#   cp build/tests/nvcc_managed build/tests/nvcc_math_globals build-gpu/nvcc/self/
# Each runs instrumented and must exit 0; where nvcc is on the PATH its own
# build of the same source runs too and must print the same.
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
# Programs that check themselves: nvcc_<stem> is tests/nvcc/<stem>.cu.
selfrows=""
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
for exe in "$bin"/self/nvcc_*; do
  [ -x "$exe" ] || continue
  stem=$(basename "$exe")
  stem=${stem#nvcc_}
  d=$W/self/$stem
  mkdir -p "$d"
  PASTA_OUTPUT=$d/profile.json "$exe" > "$d/pasta.out" 2> "$d/pasta.err"
  rc_pasta=$?
  rc_plain="no nvcc" same="-"
  if [ -x "$NVCC" ] && "$NVCC" -arch=sm_90 -O3 -o "$d/plain" \
    "tests/nvcc/$stem.cu" > "$d/nvcc.log" 2>&1; then
    "$d/plain" > "$d/plain.out" 2> "$d/plain.err"
    rc_plain=$?
    same=no
    cmp -s "$d/plain.out" "$d/pasta.out" && same=yes
    [ "$same" = yes ] && [ "$rc_plain" = 0 ] || ok=0
  fi
  counted=$(python3 -c 'import json, sys
print(sum(k.get("launches", 0) for k in json.load(open(sys.argv[1]))["kernels"]))' \
    "$d/profile.json" 2> /dev/null || echo "no profile")
  selfrows+="| $stem | $rc_plain | $rc_pasta | $same | $(head -c 120 "$d/pasta.out" | tr '\n|' ' /') | $counted |"$'\n'
  [ "$rc_pasta" = 0 ] || ok=0
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
  # The two builds ran in sibling directories (tests/nvcc/pasta/ and
  # pasta-nolineinfo/), which the profiles' file paths name: compared as one.
  sed 's#/pasta-nolineinfo/#/pasta/#g' "$d/profile.json" > "$d/profile.samedir.json"
  python3 scripts/compare_profiles.py "$W/make/profile.json" "$d/profile.samedir.json" \
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
# Projects nobody here wrote (docs/validation.md says how each was built and
# staged; their code is never committed): build-gpu/nvcc/external/<name>/
# holds `plain` (the real nvcc, their Makefile unmodified), `pasta` (the same
# Makefile with only NVCC swapped for pasta-nvcc: no -g, no -lineinfo, gcc
# linking where the Makefile says so), `pasta-lineinfo` (the same with
# -lineinfo), `clang-plain` (the same through pasta-nvcc with
# PASTA_KERNELS='^$': clang's code for the kernels, uninstrumented, which is
# what PASTA's counts describe) and `args` (the command line). Per project:
# the builds must print the same, the two profiles must be equal with every
# line tied to a file, and PASTA's counts must agree with Nsight Compute on
# clang-plain (on plain, nvcc's code, where there is no clang-plain).
external=""
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
metrics=$(tr -d ' \n' < scripts/ncu_metrics.txt)
for dir in "$bin"/external/*/; do
  [ -x "$dir/pasta" ] || continue
  name=$(basename "$dir")
  d=$W/external/$name
  mkdir -p "$d"
  args=$(cat "$dir/args" 2> /dev/null)
  # shellcheck disable=SC2086
  (cd "$d" && "$dir/plain" $args > plain.out 2> plain.err)
  rc_plain=$?
  # shellcheck disable=SC2086
  (cd "$d" && PASTA_OUTPUT=$d/pasta.json "$dir/pasta" $args > pasta.out 2> pasta.err)
  rc_pasta=$?
  # shellcheck disable=SC2086
  (cd "$d" && PASTA_OUTPUT=$d/lineinfo.json "$dir/pasta-lineinfo" $args \
    > lineinfo.out 2> lineinfo.err)
  rc_lineinfo=$?
  same=no
  cmp -s "$d/plain.out" "$d/pasta.out" && cmp -s "$d/plain.out" "$d/lineinfo.out" && same=yes
  python3 scripts/compare_profiles.py "$d/lineinfo.json" "$d/pasta.json" > "$d/compare.txt" 2>&1
  rc_cmp=$?
  read -r total unlined < <(python3 -c 'import json, sys
lines = json.load(open(sys.argv[1]))["lines"]
print(len(lines), sum(1 for l in lines if not l.get("file") or not l.get("line")))' \
    "$d/pasta.json" 2> /dev/null || echo "? ?")
  ncu="no ncu"
  ncu_bin=$dir/plain
  [ -x "$dir/clang-plain" ] && ncu_bin=$dir/clang-plain
  if [ -x "$NCU" ]; then
    mkdir -p "$d/ncu"
    cp "$d/pasta.json" "$d/ncu/$name.json"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
      --format=csv > "$d/ncu/gpu.csv"
    # shellcheck disable=SC2086
    (cd "$d" && "$NCU" --csv --page raw --print-units base --print-kernel-base mangled \
      --metrics "$metrics" \
      --log-file "$d/ncu/$name.ncu.csv" "$ncu_bin" $args > /dev/null 2>&1)
    python3 scripts/compare_ncu.py --work "$d/ncu" --kernels "$name" \
      --validation "$d/ncu.md" > "$d/ncu.txt" 2>&1 && ncu="agree" || ncu="DIFFERENT ($d/ncu.md)"
  fi
  external+="| $name | $rc_plain / $rc_pasta / $rc_lineinfo | $same | $total | $unlined | $([ $rc_cmp = 0 ] && echo equal || echo DIFFERENT) | $ncu |"$'\n'
  [ $rc_plain = 0 ] && [ $rc_pasta = 0 ] && [ $rc_lineinfo = 0 ] && [ $same = yes ] &&
    [ $rc_cmp = 0 ] && [ "$unlined" = 0 ] && [ "$ncu" = agree ] || ok=0
done
{
  echo "# Projects written for nvcc on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  echo
  echo "| project | exit (nvcc) | exit (PASTA) | same stdout | stdout | hand-derived counts |"
  echo "|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  printf '%s' "$checks"
  if [ -n "$selfrows" ]; then
    echo
    echo "| program (checks itself) | exit (nvcc) | exit (PASTA) | same stdout | PASTA's stdout | kernel launches in the profile |"
    echo "|---|---|---|---|---|---|"
    printf '%s' "$selfrows"
  fi
  if [ -n "$nolines" ]; then
    echo
    echo "| build | exit | same stdout | lines | lines without file:line | profile vs the -lineinfo build |"
    echo "|---|---|---|---|---|---|"
    echo "$nolines"
  fi
  if [ -n "$external" ]; then
    echo
    echo "| project (not ours) | exit: nvcc / PASTA / PASTA -lineinfo | same stdout | lines | lines without file:line | profile vs the -lineinfo build | counts vs ncu (compare_ncu.py's required agreements) |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s' "$external"
    for f in "$W"/external/*/ncu.md; do
      [ -f "$f" ] && { echo; cat "$f"; }
    done
  fi
} > "$OUT/nvcc.md"
cat "$OUT/nvcc.md"
[ $ok = 1 ]
