#!/usr/bin/env bash
# Working-set mode of two builds side by side on one GPU (issue
# [overhead-2]: the table lookup of a cache miss moved out of line): the
# bundled programs' results in working-set mode compared profile by profile
# (scripts/gpu_compare_builds.sh), their kernel times (scripts/gpu_bench.sh:
# plain, counting, working-set mode of this build and of the one before),
# and the Thrust structure's kernels under ncu (gpu__time_duration: plain,
# counting, working-set mode of both builds). Each part has a time limit so
# one device call brings back what finished.
# Stage on the development machine (about 8 MB, within the 64 MiB carry):
#   scripts/stage_ws_before_after.sh <build dir of the earlier tree>
# then run(command="bash scripts/gpu_ws_before_after.sh", carry=["build-gpu"]).
# WS_VARIANTS replaces gpu_bench.sh's variants (e.g. add "pasta-ws1bank"),
# COMPARE_MODES the modes compared (default "ws"; "count ws" adds counting),
# THRUST_VARIANTS the Thrust runs (default "plain counting ws before-ws";
# "before" is the earlier build's counting mode; "ws-inline" this build's
# Thrust with no compact copies, staged with STAGE_THRUST_INLINE=1;
# "noprefetch" its counting mode built without the first thread's
# counter-line prefetch, "inlinelaunch" with the first thread's launch
# count inline, staged with STAGE_THRUST_NOPREFETCH=1 and
# STAGE_THRUST_INLINELAUNCH=1). The first is the baseline. THRUST_REPEAT=R
# (default 1) has each Thrust run do its work R times, each kernel timed by
# its median launch (bench/gpu_thrust_rounds.sh measured R=5: the geomean
# of one run moves by about 0.02, plain against plain 0.99-1.02).
# PROGRAMS limits the timed part to some programs (gpu_bench.sh; e.g. "nw
# gaussian vector_add" for the per-launch cost of working-set mode; the
# profiles are still compared program by program).
# NCU_WS="PROGRAM:KERNEL_REGEX:ARGS ..." adds each kernel's time under ncu
# (gpu__time_duration, the first NCU_WS_LAUNCHES launches, default 200) in
# the plain build and in working-set mode of both builds: ncu_ws.md tells
# the working-set copy's own time from the gaps between launches that
# bench.md's CUDA events include. PARTS (default "compare check bench
# thrust") runs some parts only (ncu_ws runs when NCU_WS is set; "yields"
# lists the YIELDs at called functions' entries in every staged build).
# Results in $OUT: compare.txt, working_set_check.txt, bench.md, thrust.md,
# shape.md (the myocyte-like compile shape, in the thrust part: times,
# working sets compared; MEMCHECK_SHAPES="unbuf ..." runs those builds of it
# under compute-sanitizer too, MEMCHECK_TOOLS its tools: shape-memcheck.txt;
# SASS_SHAPES="unbuf ..." dumps their SASS: shape.NAME.sass.gz;
# SASS_THRUST="counting ..." the Thrust builds': thrust.NAME.sass.gz;
# shape-yields.txt: where ptxas put YIELDs in each shape build),
# ncu_ws.md, device.txt;
# logs in rest.tgz.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/work
mkdir -p "$W/before" "$W/after" "$W/cmp" "$W/bench" "$W/thrust"
bash scripts/unpack_gpu.sh
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
KBIN=$PWD/build-gpu/bin/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt"
echo "commit $(cat build-gpu/commit 2>/dev/null)" >>"$OUT/device.txt"

# part NAME: whether PARTS asks for NAME.
part() { case " ${PARTS:-compare check bench thrust} " in *" $1 "*) return 0 ;; esac; return 1; }

# gpu_compare_builds.sh wants <program>-pasta in two folders.
for f in "$KBIN"/*-before; do
  n=$(basename "$f" -before)
  [ -x "$KBIN/$n-pasta" ] || continue
  ln -s "$f" "$W/before/$n-pasta"
  ln -s "$KBIN/$n-pasta" "$W/after/$n-pasta"
done
part compare && {
  MODES=${COMPARE_MODES:-ws} OUT=$W/cmp timeout "${COMPARE_S:-110}" \
    bash scripts/gpu_compare_builds.sh "$W/before" "$W/after" >"$W/compare.log" 2>&1
  cp "$W/cmp/compare.txt" "$OUT/" 2>/dev/null
}
# This build's working sets against the hand-derived ones
# (tests/gpu/working_set.cu, with hotness): working_set_check.txt.
part check && {
  PASTA_WORKING_SET=1 PASTA_HOTNESS=1 PASTA_OUTPUT="$W/working_set.json" \
    timeout 60 "$KBIN/working_set-pasta" >"$W/working_set.out" 2>&1
  python3 tests/check_working_set.py ws tests/gpu/working_set.cu "$W/working_set.json" \
    "$W/working_set.hotness.csv" >"$OUT/working_set_check.txt" 2>&1
  echo "exit $?" >>"$OUT/working_set_check.txt"
}

part bench && {
  PASTA_KERNEL_BIN=$KBIN OUT=$W/bench TK_BENCH=${TK_BENCH:-5} \
    VARIANTS="${WS_VARIANTS:-plain pasta pasta-ws before-ws}" timeout "${BENCH_S:-240}" \
    bash scripts/gpu_bench.sh >"$W/bench.log" 2>&1
  cp "$W/bench/bench.md" "$OUT/" 2>/dev/null ||
    python3 scripts/bench_table.py "$W/bench/bench.txt" "$(cat "$OUT/device.txt")" \
      >"$OUT/bench.md" 2>&1
}

. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
S=$PWD/build-gpu/bin/structures
# Each NCU_WS kernel's own time: plain, and working-set mode of both builds.
if [ -x "$NCU" ] && [ -n "${NCU_WS:-}" ]; then
  mkdir -p "$W/ncu_ws"
  for spec in $NCU_WS; do
    IFS=: read -r prog kernel args <<<"$spec"
    csvs=
    for build in plain pasta before; do
      exe=$KBIN/$prog-$build ws=1
      [ $build = plain ] && exe=$KBIN/$prog ws=0
      [ -x "$exe" ] || continue
      log=$W/ncu_ws/$prog.$build.csv
      env PASTA_QUIET=1 PASTA_WORKING_SET=$ws PASTA_OUTPUT=/dev/null \
        timeout "${NCU_WS_S:-60}" "$NCU" --csv --page raw --print-units base \
        --metrics gpu__time_duration.sum -k "regex:$kernel" \
        --launch-count "${NCU_WS_LAUNCHES:-200}" --log-file "$log" \
        "$exe" $args >"$W/ncu_ws/$prog.$build.out" 2>&1
      csvs="$csvs $log"
    done
    # shellcheck disable=SC2086 # a list of files
    { echo "### $prog ($kernel, args $args): plain, working-set mode, before"
      python3 scripts/ncu_kernel_times.py $csvs; } >>"$OUT/ncu_ws.md" 2>&1
  done
fi

if [ -x "$NCU" ] && part thrust; then
  # THRUST_REPEAT=R > 1: each run does Thrust's work R times and a kernel's
  # time is its median launch (ncu_kernel_times.py --median R); the
  # profiles compared below are all of R runs.
  repeat=${THRUST_REPEAT:-1} median=
  [ "$repeat" -gt 1 ] && median="--median $repeat"
  for name in ${THRUST_VARIANTS:-plain counting ws before-ws}; do
    exe=$S/thrust ws=0 libs=${LD_LIBRARY_PATH:-}
    case $name in
    plain) exe=$S/thrust.plain ;;
    ws) ws=1 ;;
    # Staged with STAGE_THRUST_INLINE=1: no compact working-set copies.
    ws-inline) exe=$S/thrust.inline ws=1 ;;
    # Staged with STAGE_THRUST_NOPREFETCH=1 / STAGE_THRUST_INLINELAUNCH=1:
    # counting, no counter-line prefetch by the grid's first thread / its
    # launch count inline.
    noprefetch | inlinelaunch) exe=$S/thrust.$name ;;
    before | before-ws) exe=$S/thrust.before
      [ $name = before-ws ] && ws=1
      # Its own runtime when staged (STAGE_OLD_RUNTIME=1): the ABI versions
      # of plugin and runtime must agree.
      [ -d build-gpu/lib-before ] && libs=$PWD/build-gpu/lib-before:$libs ;;
    esac
    env LD_LIBRARY_PATH="$libs" PASTA_QUIET=1 PASTA_WORKING_SET=$ws \
      PASTA_OUTPUT="$W/thrust/$name.json" THRUST_REPEAT="$repeat" \
      timeout "${THRUST_S:-35}" "$NCU" --csv --page raw --print-units base \
      --print-kernel-base mangled --metrics gpu__time_duration.sum \
      --log-file "$W/thrust/$name.csv" "$exe" >"$W/thrust/$name.out" 2>&1
  done
  csvs=
  for name in ${THRUST_VARIANTS:-plain counting ws before-ws}; do
    csvs="$csvs $W/thrust/$name.csv"
  done
  # shellcheck disable=SC2086 # median, csvs: separate words
  python3 scripts/ncu_kernel_times.py $median $csvs >"$OUT/thrust.md" 2>&1
  # SASS_THRUST="counting inlinelaunch ...": the SASS of those Thrust builds
  # (cuobjdump), thrust.NAME.sass.gz: whether the first thread's inline
  # launch count stayed behind its branches (inlinelaunch) or ptxas
  # predicated it into every warp.
  for name in ${SASS_THRUST:-}; do
    exe=$S/thrust
    case $name in plain) exe=$S/thrust.plain ;; counting) ;; *) exe=$S/thrust.$name ;; esac
    dump=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
    [ -x "$dump" ] && [ -x "$exe" ] || continue
    "$dump" -sass "$exe" 2>&1 | gzip >"$OUT/thrust.$name.sass.gz"
  done
  # The radix sort's look-back polls (CUB's ThreadLoad, inline PTX, counted
  # since the inline-assembly reader) differ between any two runs: a second
  # counting run, outside ncu, names the values that vary (compare_profiles'
  # third profile) and they are left out of the comparisons below.
  if [ -f "$W/thrust/counting.json" ]; then
    PASTA_QUIET=1 PASTA_OUTPUT="$W/thrust/counting2.json" THRUST_REPEAT="$repeat" \
      timeout "${THRUST_S:-35}" "$S/thrust" >"$W/thrust/counting2.out" 2>&1
  fi
  # Neither option changes a count: "noprefetch" and "inlinelaunch"
  # against "counting"; and a working-set run's counts must be the counting
  # run's (THRUST_VARIANTS with both "counting" and "ws").
  for name in noprefetch inlinelaunch ws; do
    if [ -f "$W/thrust/counting.json" ] && [ -f "$W/thrust/$name.json" ]; then
      python3 scripts/compare_profiles.py --counts "$W/thrust/counting.json" \
        "$W/thrust/$name.json" "$W/thrust/counting2.json" >>"$OUT/thrust.md" 2>&1 &&
        echo "Thrust: $name's counts equal counting mode's (values that vary between two counting runs left out)" >>"$OUT/thrust.md"
    fi
  done
  # The myocyte-like shape (staged when its working-set copies buffer their
  # accesses): its kernel under ncu, plain, counting, working-set mode of
  # both builds, and its working-set profiles compared (stdout and
  # scripts/compare_profiles.py: the same working set).
  if [ -x "$S/shape_myocyte12" ]; then
    # The earlier build with its own runtime where staged (as Thrust's).
    blibs=${LD_LIBRARY_PATH:-}
    [ -d build-gpu/lib-before ] && blibs=$PWD/build-gpu/lib-before:$blibs
    for name in plain counting ws before-ws; do
      exe=$S/shape_myocyte12 ws=0 libs=${LD_LIBRARY_PATH:-}
      case $name in
      plain) exe=$S/shape_myocyte12.plain ;;
      ws) ws=1 ;;
      before-ws) exe=$S/shape_myocyte12.before ws=1 libs=$blibs ;;
      esac
      env LD_LIBRARY_PATH="$libs" PASTA_QUIET=1 PASTA_WORKING_SET=$ws PASTA_OUTPUT="$W/shape.$name.ncu.json" \
        timeout "${THRUST_S:-35}" "$NCU" --csv --page raw --print-units base \
        --print-kernel-base mangled --metrics gpu__time_duration.sum \
        --log-file "$W/shape.$name.csv" "$exe" >"$W/shape.$name.out" 2>&1
    done
    python3 scripts/ncu_kernel_times.py "$W"/shape.{plain,counting,ws,before-ws}.csv \
      >"$OUT/shape.md" 2>&1
    # Working-set mode (before, before2, after) and counting mode (-count):
    # a working-set run's counts must be its build's counting run's.
    for side in before before2 after before-count after-count; do
      exe=$S/shape_myocyte12.before libs=$blibs ws=1
      case $side in after*) exe=$S/shape_myocyte12 libs=${LD_LIBRARY_PATH:-} ;; esac
      case $side in *-count) ws=0 ;; esac
      LD_LIBRARY_PATH="$libs" PASTA_QUIET=1 PASTA_WORKING_SET=$ws PASTA_OUTPUT="$W/shape.$side.json" \
        timeout 30 "$exe" >"$W/shape.$side.out" 2>&1
    done
    { cmp "$W/shape.before.out" "$W/shape.after.out" && echo "stdout equal"
      python3 scripts/compare_profiles.py "$W/shape.before.json" \
        "$W/shape.after.json" "$W/shape.before2.json" && echo "profiles equal"
      for side in after before; do
        python3 scripts/compare_profiles.py --counts "$W/shape.$side.json" \
          "$W/shape.$side-count.json" && echo "$side: working-set counts equal counting mode's"
      done
      # Other builds of the shape staged beside them (shape_myocyte12.NAME,
      # e.g. with other plugin options): the same check.
      for exe in "$S"/shape_myocyte12.*; do
        name=${exe##*.}
        case $name in plain | before) continue ;; esac
        for ws in 1 0; do
          PASTA_QUIET=1 PASTA_WORKING_SET=$ws PASTA_OUTPUT="$W/shape.$name.ws$ws.json" \
            timeout 30 "$exe" >"$W/shape.$name.ws$ws.out" 2>&1
        done
        python3 scripts/compare_profiles.py --counts "$W/shape.$name.ws1.json" \
          "$W/shape.$name.ws0.json" && echo "$name: working-set counts equal counting mode's"
        # The program's own output (its checksum) in both modes: wrong
        # counts with equal output are the counting code's, not the data's.
        cmp -s "$W/shape.$name.ws1.out" "$W/shape.$name.ws0.out" &&
          echo "$name: stdout equal in both modes" ||
          echo "$name: stdout DIFFERENT: $(tr '\n' ' ' <"$W/shape.$name.ws1.out") vs $(tr '\n' ' ' <"$W/shape.$name.ws0.out")"
      done
    } >>"$OUT/shape.md" 2>&1
    cp "$W"/shape.*.json "$OUT/" 2>/dev/null
    # MEMCHECK_SHAPES="NAME ...": those shape builds in working-set mode
    # under compute-sanitizer's memcheck (an access out of bounds names the
    # function and address): shape-memcheck.txt.
    san=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
    # MEMCHECK_TOOLS: compute-sanitizer's tools to run (default memcheck;
    # e.g. "memcheck initcheck").
    for name in ${MEMCHECK_SHAPES:-}; do
      [ -x "$san" ] && [ -x "$S/shape_myocyte12.$name" ] || continue
      for tool in ${MEMCHECK_TOOLS:-memcheck}; do
        { echo "### $name ($tool)"
          PASTA_QUIET=1 PASTA_WORKING_SET=1 PASTA_OUTPUT=/dev/null timeout 120 \
            "$san" --tool "$tool" --print-limit 20 "$S/shape_myocyte12.$name" 2>&1 |
            head -80
        } >>"$OUT/shape-memcheck.txt"
      done
    done
    # SASS_SHAPES="NAME ...": the SASS of those shape builds (cuobjdump;
    # the development machine has no disassembler), shape.NAME.sass.gz.
    dump=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
    # Every shape build's YIELDs (scripts/sass_yields.py): the builds whose
    # working-set counts were wrong had one, at the entry of the runtime
    # callee called from both arms of data-dependent branches; the exact
    # ones none (docs/performance.md, "Known gaps").
    if [ -x "$dump" ]; then
      for exe in "$S"/shape_myocyte12 "$S"/shape_myocyte12.*; do
        [ -x "$exe" ] || continue
        "$dump" -sass "$exe" >"$W/yields.sass" 2>&1 &&
          python3 scripts/sass_yields.py "$W/yields.sass" |
          sed "s|^$W/yields.sass|${exe##*/}|" | grep -v "no YIELD"
      done >"$OUT/shape-yields.txt" 2>&1
      [ -s "$OUT/shape-yields.txt" ] || echo "no YIELD in any shape build" >"$OUT/shape-yields.txt"
    fi
    for name in ${SASS_SHAPES:-}; do
      [ -x "$dump" ] && [ -x "$S/shape_myocyte12.$name" ] || continue
      "$dump" -sass "$S/shape_myocyte12.$name" 2>&1 |
        gzip >"$OUT/shape.$name.sass.gz"
    done
  fi
  # Where vector_add's working-set time goes (plain against working-set
  # mode): ncu's throughput, warp-state and memory sections, one launch each.
  # NCU_VECTOR_ADD=0 leaves this part out.
  [ "${NCU_VECTOR_ADD:-1}" = 1 ] && for exe in vector_add vector_add-pasta; do
    env PASTA_QUIET=1 PASTA_WORKING_SET=1 PASTA_OUTPUT=/dev/null \
      timeout "${NCU_S:-45}" "$NCU" -k regex:vector_add --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section InstructionStats \
      "$KBIN/$exe" 67108864 >"$W/ncu-$exe.txt" 2>&1
  done
  [ "${NCU_VECTOR_ADD:-1}" = 1 ] &&
    cat "$W/ncu-vector_add.txt" "$W/ncu-vector_add-pasta.txt" >"$OUT/ncu-vector_add.txt"
elif part thrust; then
  echo "gpu_ws_before_after: no ncu" >"$OUT/thrust.md"
fi
# PARTS with "yields": every staged executable's YIELDs at the entry of a
# called function (scripts/sass_yields.py over cuobjdump's SASS): the
# bundled programs' builds and the structures, yields.txt. Such a YIELD
# came with wrong working-set counts in the myocyte-like shape; this lists
# which other runtime callees get one.
part yields && {
  dump=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
  for exe in "$KBIN"/* "$S"/*; do
    [ -x "$exe" ] && [ -f "$exe" ] && [ -x "$dump" ] || continue
    "$dump" -sass "$exe" >"$W/yields.sass" 2>/dev/null || continue
    python3 scripts/sass_yields.py "$W/yields.sass" |
      sed "s|^$W/yields.sass|${exe#"$PWD"/}|" | grep "entry of callee"
  done >"$OUT/yields.txt" 2>&1
  [ -s "$OUT/yields.txt" ] || echo "no YIELD at a callee's entry in any staged build" >"$OUT/yields.txt"
}
tar czf "$OUT/rest.tgz" --exclude='*.json' -C "$W" . 2>/dev/null
rm -rf "$W"
ls -la "$OUT"
