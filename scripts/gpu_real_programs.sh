#!/usr/bin/env bash
# One device-machine run for the real-program and robustness work: the
# program structures on the GPU (scripts/gpu_structures.sh: every row plain
# and instrumented, profiles checked against hand-derived counts), then the
# libFuzzer targets on the machine's cores (scripts/fuzz.sh with targets
# built here; the fuzzers need no GPU, the machine just has 16 cores).
#
# Stage and run (docs/validation.md, docs/fuzzing.md):
#   scripts/build.sh -DPASTA_SANITIZE=ON   # builds structures and fuzzers
#   PASTA_STAGE_NO_LINES=1 scripts/stage_gpu.sh && rm -rf build-gpu/bin/kernels
#   mkdir -p build-gpu/fuzz && cp build/fuzz/fuzz_* build-gpu/fuzz/
#   cp -L /lib/x86_64-linux-gnu/libjansson.so.4 build-gpu/lib/
#   run(command="bash scripts/gpu_real_programs.sh", carry=["build-gpu"])
# Environment: FUZZ_SECONDS (default 300), FUZZ_JOBS (default: all cores).
# Results in $OUT: structures.md, ncu_structures.md (PASTA against Nsight
# Compute on the structures' kernels), fuzz.txt (one line per target) and
# logs.tgz (every structure's stdout, stderr and profile; fuzz logs and any
# crash inputs). Exit status 1 when a structure failed or a fuzzer crashed.
#
# `bash scripts/gpu_real_programs.sh unseen` runs only the unseen public
# programs staged in build-gpu/unseen: each line of
# build-gpu/unseen/programs.txt, `NAME DIR EXE [ARGS...]` (ARGS as shell
# words: quotes allowed), runs plain/DIR/EXE and pasta/DIR/EXE from their
# directory, then plain again
# (build-gpu/unseen.tar.xz, if there, is unpacked first);
# both must exit as one another, print the same stdout but for lines naming
# a time or a rate, and the PASTA run must write a profile with launches
# (the table also says whether the two plain runs printed the same: where
# they do not, a difference from PASTA's run says nothing about PASTA).
# Then Nsight Compute times both builds' kernels, side by side
# (scripts/ncu_kernel_times.py; the first NCU_LAUNCHES launches, default
# 30). UNSEEN_FILTER (a regex on NAME) runs some rows only;
# UNSEEN_NCU_FILTER (a regex on NAME) times only those rows under ncu (the
# others are run and compared, not timed: a call's minutes go further). Where
# clang-plain/DIR/EXE is staged too (the program built through pasta-nvcc
# with PASTA_KERNELS='^$': clang without instrumentation), ncu times it as
# well and a second table compares PASTA with it, which separates PASTA's
# cost from the compiler's (plain is usually nvcc's build). Where
# pasta-before/DIR/EXE is staged (PASTA's build from the tree before a
# change), a third table times it against the PASTA build; so does any
# other staged build (build-gpu/unseen/NAME/DIR/EXE, e.g. PASTA with
# PASTA_KERNELS naming some kernels only), in a table of its own. A staged
# build's file build-gpu/unseen/NAME/run.env (lines VAR=VALUE, e.g.
# PASTA_DIVERGENCE=1 for a build compiled in divergence mode) is exported
# while ncu runs that build.
# NCU_METRICS (ncu metric names, comma-separated) are collected with the
# time and tabled each, every build against plain (local memory traffic:
# l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,...).
# NCU_KERNEL (regexes on kernel names, separated by spaces) adds Nsight
# Compute's full set of sections for one launch of each matching kernel
# (the first; NCU_KERNEL_SKIP launches skipped), in every build named in
# NCU_KERNEL_BUILDS (default: all the staged ones): in $OUT/unseen-ncu/NAME/
# (written as each ends, so that a call cut short keeps them),
# <build>.<kernel>.txt (the details page: instructions, warp stall reasons,
# cache hit rates) and <build>.<kernel>.sass.csv (the source page: SASS
# with executed instructions and stall samples per instruction); the
# heaviest runs of instructions (scripts/ncu_sass_blocks.py) in
# $OUT/unseen-sass.md.
# UNSEEN_DIV_CHECK=1 checks each staged build whose run.env sets
# PASTA_DIVERGENCE=1 against Nsight Compute: that build runs once with its
# first NCU_LAUNCHES launches counted (PASTA_END_GRID_ID) and ncu reads
# scripts/ncu_divergence_metrics.txt over the same launches of clang-plain
# (clang's code, whose IR the copies measure; plain where clang-plain is
# not staged); scripts/compare_divergence.py tables the figures side by side.
# Results: $OUT/unseen.md, $OUT/unseen.tgz ($OUT/unseen-times.md grows as
# each program's ncu times come in; $OUT/unseen-raw/NAME/ holds each
# program's runs as it ends: stdout, stderr, exit status, profile).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
if [ "${1:-}" = unseen ]; then
  root=$PWD/build-gpu/unseen
  # Staged as build-gpu/unseen.tar.xz (the binaries are 45 MiB unpacked).
  [ -d "$root" ] || [ ! -f "$root.tar.xz" ] || tar -xJf "$root.tar.xz" -C build-gpu
  export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  . scripts/lib/gpu.sh
  NCU=$(pasta_find_ncu)
  W=$(mktemp -d)
  t=$OUT/unseen.md
  rm -rf "$OUT/unseen-times.md" "$OUT/unseen-sass.md" "$OUT/unseen-ncu"
  # The staged builds besides plain and pasta that hold DIR/EXE:
  # clang-plain and pasta-before first, then the others by name.
  staged_others() {
    local b seen=" plain pasta "
    for b in clang-plain pasta-before "$root"/*/; do
      b=$(basename "$b")
      case $seen in *" $b "*) continue ;; esac
      seen="$seen$b "
      [ -x "$root/$b/$1" ] && echo "$b"
    done
  }
  # run_env BUILD: exports the build's run.env (VAR=VALUE lines), if any.
  run_env() {
    local line
    [ -f "$root/$1/run.env" ] || return 0
    while IFS= read -r line; do
      case $line in '' | '#'*) continue ;; esac
      export "${line?}"
    done < "$root/$1/run.env"
  }
  # Nsight Compute's full set for one launch of each NCU_KERNEL kernel in
  # each build: NAME DIR EXE BUILDS [ARGS...].
  kernel_sections() {
    local name=$1 dir=$2 exe=$3 kbuilds=$4 b k base
    shift 4
    for k in $NCU_KERNEL; do
      for b in $kbuilds; do
        [ -x "$root/$b/$dir/$exe" ] || continue
        mkdir -p "$OUT/unseen-ncu/$name"
        base=$OUT/unseen-ncu/$name/$b.$(echo "$k" | tr -c 'A-Za-z0-9_\n' _)
        (run_env "$b" && cd "$root/$b/$dir" && PASTA_OUTPUT=/dev/null timeout 120 "$NCU" \
          -k "regex:$k" --launch-skip "${NCU_KERNEL_SKIP:-0}" \
          --launch-count 1 --set full -o "$base" "./$exe" "$@" \
          > "$base.log" 2>&1)
        "$NCU" -i "$base.ncu-rep" --page details > "$base.txt" 2>&1
        "$NCU" -i "$base.ncu-rep" --page source --csv --print-source sass \
          > "$base.sass.csv" 2>&1
        rm -f "$base.ncu-rep"
        {
          echo
          echo "$name, $b, $k: heaviest runs of SASS"
          echo
          echo '```'
          python3 scripts/ncu_sass_blocks.py "$base.sass.csv" 30 2>&1
          echo '```'
        } >> "$OUT/unseen-sass.md"
      done
    done
  }
  # Each staged divergence build's figures over the first NCU_LAUNCHES
  # launches against ncu's on clang-plain (plain where it is not staged):
  # NAME DIR EXE OTHERS; reads argv and d of the loop below.
  div_check() {
    local name=$1 dir=$2 exe=$3 others=$4 b ref=plain n=${NCU_LAUNCHES:-30}
    case " $(echo $others) " in *" clang-plain "*) ref=clang-plain ;; esac
    (cd "$root/$ref/$dir" && METRICS=$(tr -d ' \n' < "$OLDPWD/scripts/ncu_divergence_metrics.txt") &&
      PASTA_OUTPUT=/dev/null pasta_ncu_divergence 300 "$d/ncu-div.csv" \
        --launch-count "$n" "./$exe" "${argv[@]}" > /dev/null 2>&1)
    for b in $others; do
      grep -qx 'PASTA_DIVERGENCE=1' "$root/$b/run.env" 2> /dev/null || continue
      mkdir -p "$d/divcheck-$b"
      cp "$d/ncu-div.csv" "$d/divcheck-$b/$name.ncu-div.csv"
      (run_env "$b" && cd "$root/$b/$dir" && PASTA_END_GRID_ID=$((n - 1)) \
        PASTA_OUTPUT=$d/divcheck-$b/$name.div.json timeout 120 "./$exe" \
        "${argv[@]}" > /dev/null 2> "$d/divcheck-$b/run.err")
      {
        echo
        echo "$name: the divergence build $b over the first $n launches against ncu on $ref"
        echo
        python3 scripts/compare_divergence.py --work "$d/divcheck-$b" \
          --programs "$name" --out "$d/divcheck-$b/table.md" > /dev/null 2>&1
        sed -n '/^|/p' "$d/divcheck-$b/table.md" 2> /dev/null
      } >> "$OUT/unseen-times.md"
    done
  }
  {
    pasta_gpu_header
    echo
    echo "| program | exit (plain / PASTA) | same stdout | plain twice: same stdout | kernels with launches | PASTA warnings |"
    echo "|---|---|---|---|---|---|"
  } > "$t"
  bad=0
  # Timing lines differ from run to run.
  strip() { grep -Eiv 'time|timing|elapsed|[0-9] *(ms|us|s|sec)\b|/s(ec)?\b|throughput|bandwidth|flops|per sec' "$1"; }
  while read -r name dir exe args; do
    case "$name" in '' | '#'*) continue ;; esac
    [[ $name =~ ${UNSEEN_FILTER:-.} ]] || continue
    d=$W/$name
    mkdir -p "$d"
    # ARGS are read as shell words: quotes keep an argument with spaces
    # together (a command script such as -c "read x.aig; b; ps").
    argv=()
    eval "argv=($args)"
    # plain twice: a program whose output differs between two runs of
    # the same build cannot be told apart from PASTA by its stdout.
    for b in plain pasta plain2; do
      (cd "$root/${b%2}/$dir" && PASTA_OUTPUT=$d/profile.json timeout 60 \
        "./$exe" "${argv[@]}" > "$d/$b.out" 2> "$d/$b.err")
      echo $? > "$d/$b.rc"
    done
    same=no
    cmp -s <(strip "$d/plain.out") <(strip "$d/pasta.out") && same=yes
    twice=no
    cmp -s <(strip "$d/plain.out") <(strip "$d/plain2.out") && twice=yes
    kernels=$(python3 -c 'import json,sys
p=json.load(open(sys.argv[1]))
print(sum(1 for k in p.get("kernels",[]) if k.get("launches",0)>0))' \
      "$d/profile.json" 2> /dev/null || echo "no profile")
    warn=$(grep -c '^pasta: \(warning\|error\)' "$d/pasta.err")
    printf '| %s | %s / %s | %s | %s | %s | %s |\n' "$name" "$(cat "$d/plain.rc")" \
      "$(cat "$d/pasta.rc")" "$same" "$twice" "$kernels" "$warn" >> "$t"
    # The raw runs kept as each program ends (a call cut short keeps them).
    mkdir -p "$OUT/unseen-raw" && cp -r "$d" "$OUT/unseen-raw/"
    { [ "$same" = yes ] && [ "$(cat "$d/plain.rc")" = "$(cat "$d/pasta.rc")" ] &&
      [ "${kernels:-0}" -gt 0 ] 2> /dev/null; } || bad=1
    if [ -x "$NCU" ] && [[ $name =~ ${UNSEEN_NCU_FILTER:-.} ]]; then
      # clang-plain (staged when there): the same build through pasta-nvcc
      # with PASTA_KERNELS='^$', so PASTA's share is told from clang's.
      # pasta-before (staged when there): PASTA's build from the tree
      # before a change, timed against the PASTA build of the change; then
      # any other build staged.
      others=$(staged_others "$dir/$exe")
      builds="plain pasta $others"
      for b in $builds; do
        (run_env "$b" && cd "$root/$b/$dir" && PASTA_OUTPUT=/dev/null timeout 120 "$NCU" --csv \
          --page raw --print-units base --print-kernel-base mangled \
          --launch-count "${NCU_LAUNCHES:-30}" \
          --metrics "gpu__time_duration.sum${NCU_METRICS:+,$NCU_METRICS}" \
          --log-file "$d/$b.ncu.csv" \
          "./$exe" "${argv[@]}" > /dev/null 2>&1)
      done
      # Written as each program ends, so that a call cut short keeps them.
      {
        echo
        echo "$name: kernel time under ncu, plain against PASTA's counting build"
        echo
        python3 scripts/ncu_kernel_times.py "$d/plain.ncu.csv" "$d/pasta.ncu.csv" 2>&1
        # NCU_METRICS (ncu metric names, comma-separated) beside the time:
        # a table each, every staged build against plain.
        for m in ${NCU_METRICS:+${NCU_METRICS//,/ }}; do
          echo
          echo "$name: $m, plain against every staged build"
          echo
          python3 scripts/ncu_kernel_times.py --metric "$m" "$d/plain.ncu.csv" \
            "$d/pasta.ncu.csv" $(for o in $others; do echo "$d/$o.ncu.csv"; done) 2>&1
        done
        # The other builds staged (clang-plain, PASTA before the change).
        for other in $others; do
          [ -f "$d/$other.ncu.csv" ] || continue
          case $other in
            clang-plain) what=clang-plain ;;
            pasta-before) what="PASTA before the change" ;;
            *) what="the staged build $other" ;;
          esac
          echo
          echo "$name: $what (the first column) against PASTA's counting build"
          echo
          python3 scripts/ncu_kernel_times.py "$d/$other.ncu.csv" \
            "$d/pasta.ncu.csv" 2>&1
        done
      } >> "$OUT/unseen-times.md"
      [ -z "${UNSEEN_DIV_CHECK:-}" ] || div_check "$name" "$dir" "$exe" "$others"
      # shellcheck disable=SC2086 # ARGS are words
      [ -z "${NCU_KERNEL:-}" ] ||
        kernel_sections "$name" "$dir" "$exe" "${NCU_KERNEL_BUILDS:-$builds}" $args
    fi
  done < "$root/programs.txt"
  [ -f "$OUT/unseen-times.md" ] && cat "$OUT/unseen-times.md" >> "$t"
  (cd "$W" && tar czf "$OUT/unseen.tgz" .)
  cat "$t"
  exit "$bad"
fi
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  > "$OUT/device.txt" 2>&1
OUT=$work bash scripts/gpu_structures.sh
structures=$?
cp "$work/structures.md" "$OUT/"
# Nsight Compute on the plain builds of the structures whose kernels are
# templates, functors, lambdas, graph nodes and driver launches: PASTA's
# counts (the instrumented run above) against ncu's, kernel by kernel
# (scripts/compare_ncu.py; table in $OUT/ncu_structures.md).
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
ncu_status=0
if [ -x "$NCU" ]; then
  W=$work/ncu
  mkdir -p "$W"
  metrics=$(tr -d ' \n' < scripts/ncu_metrics.txt)
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv > "$W/gpu.csv"
  bin=$PWD/build-gpu/bin/structures
  for k in ${NCU_STRUCTURES:-cxx_names graphs driver_api threads thrust}; do
    cp "$work/structures/$k-return/profile.json" "$W/$k.json" || ncu_status=1
    LD_LIBRARY_PATH=$PWD/build-gpu/lib "$NCU" --csv --page raw \
      --print-units base --print-kernel-base mangled --metrics "$metrics" \
      --log-file "$W/$k.ncu.csv" \
      "$bin/$k.plain" > /dev/null 2>&1 || ncu_status=1
  done
  python3 scripts/compare_ncu.py --work "$W" \
    --kernels ${NCU_STRUCTURES:-cxx_names graphs driver_api threads thrust} \
    --validation "$OUT/ncu_structures.md" || ncu_status=1
else
  echo "gpu_real_programs: no ncu" > "$OUT/ncu_structures.md"
  ncu_status=1
fi
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PASTA_FUZZ_BIN=$PWD/build-gpu/fuzz PASTA_FUZZ_OUT=$work/fuzz \
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-300}" "${FUZZ_JOBS:-$(nproc)}" \
  > "$OUT/fuzz.txt" 2>&1
fuzz=$?
(cd "$work" && find fuzz -type f \( -name '*.summary' -o -name '*.log' \
  -o -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
  -o -name 'oom-*' \) -print0 | tar czf "$OUT/logs.tgz" --null -T - \
  structures.log structures ncu)
cat "$OUT/structures.md" "$OUT/ncu_structures.md" "$OUT/fuzz.txt"
echo "gpu_real_programs: structures exit $structures, ncu exit $ncu_status," \
  "fuzz exit $fuzz"
[ "$structures" = 0 ] && [ "$ncu_status" = 0 ] && [ "$fuzz" = 0 ]
