#!/usr/bin/env bash
# Runs the instrumented bundled programs of two PASTA builds side by side on
# the GPU machine and compares what they report ([arch]: behaviour
# unchanged): each program in counting mode and in working-set mode, its
# stdout byte for byte and its JSON profile with scripts/compare_profiles.py
# (all counts, launches, memory, working sets, lines; times are measured, so
# they are left out, and so are values that differ between two runs of the
# "before" build: races in the program).
# usage: gpu_compare_builds.sh BEFORE_BIN AFTER_BIN   (folders holding the
#        *-pasta executables of two builds). To carry them: in each build's
#        bin/kernels, `tar cJf <repo>/build-gpu/cmp/<before|after>-pasta.txz
#        $(ls *-pasta)` (about 3 MB each), unpacked there with tar xJf.
# MODES="ws" compares only the working-set mode (default "count ws").
# TK_BENCH is unset for these runs: its timing lines would differ.
# Results: $OUT/compare.txt.
set -u
before=$1 after=$2
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/compare
mkdir -p "$W"
pass=0 fail=0
for b in "$before"/*-pasta; do
  k=$(basename "$b") name=${k%-pasta}
  [ -x "$after/$k" ] || { echo "$k: missing in $after"; fail=$((fail + 1)); continue; }
  case $name in
  exit_paths) args=return ;;
  multi_gpu | rdc | working_set) args= ;;
  *) args=$(awk -v k="$name" '$1 == k && NF >= 3 { print $3 }' test_kernels/bench_sizes.txt) ;;
  esac
  for mode in ${MODES:-count ws}; do
    envs=()
    [ $mode = ws ] && envs=(PASTA_WORKING_SET=1)
    for side in before after before2; do
      dir=$before
      [ $side = after ] && dir=$after
      env -u TK_BENCH "${envs[@]}" PASTA_OUTPUT="$W/$name.$mode.$side.json" "$dir/$k" $args \
        > "$W/$name.$mode.$side.out" 2> "$W/$name.$mode.$side.err"
      echo $? >> "$W/$name.$mode.$side.out"
    done
    if cmp -s "$W/$name.$mode.before.out" "$W/$name.$mode.after.out" &&
       python3 scripts/compare_profiles.py "$W/$name.$mode.before.json" \
         "$W/$name.$mode.after.json" "$W/$name.$mode.before2.json" \
         > "$W/$name.$mode.cmp" 2>&1; then
      pass=$((pass + 1))
      echo "$name $mode: same$(grep -o ': [0-9]* values vary.*' "$W/$name.$mode.cmp")"
    else
      fail=$((fail + 1))
      echo "$name $mode: DIFFERENT"
      cat "$W/$name.$mode.cmp"
    fi
  done
done | tee "$OUT/compare.txt"
p=$(grep -c ' [a-z]*: same' "$OUT/compare.txt")
f=$(grep -c ' [a-z]*: DIFFERENT$' "$OUT/compare.txt")
echo "gpu_compare_builds: $p passed, $f failed" | tee -a "$OUT/compare.txt"
[ "$f" -eq 0 ]
