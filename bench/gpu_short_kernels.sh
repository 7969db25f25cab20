#!/usr/bin/env bash
# Short and one-block kernels' fixed counting cost, one build per option
# set (staged by scripts/stage_short_kernels.sh into build-gpu/short; lab
# docs/lab/2026-11-30-overhead3-37-*.md): each build of the Thrust
# structure and of bench/one_block_sum.cu timed by Nsight Compute
# (gpu__time_duration, caches flushed before each launch as in the Thrust
# table), REPEATS rounds with the builds interleaved in each; then the
# counts of every counting build compared with the default's; before
# them (EXIT_COST=1, the default) bench/gpu_exit_cost.sh. On a GPU machine:
# run(command="bash bench/gpu_short_kernels.sh", carry=["build-gpu"])
# (or build-gpu/gpu_short_kernels.sh, the staged copy)
# -> $OUT/short.md (tables), $OUT/short/*.csv, *.json, *.out.
#   SHORT_VARIANTS  the builds (default: every one staged; plain first)
#   REPEATS         rounds (default 3), as many as fit in SHORT_S seconds
#                   (default 110); OBS_LAUNCHES one_block_sum's launches a
#                   run (default 10); LAUNCHES exit_cost's (default 10)
set -uo pipefail
# Its helpers beside it: in bench/, or copies in the staged directory (for
# a tree that has not merged them). The root is the nearest directory above
# that has scripts/lib/gpu.sh; the staged builds are beside a staged copy
# (build-gpu/, or build-gpu/<name>/ where several stagings share one
# build-gpu), else in build-gpu/.
T=$(cd "$(dirname "$0")" && pwd)
root=$T/..
while [ ! -f "$root/scripts/lib/gpu.sh" ] && [ "$(cd "$root" && pwd)" != / ]; do root=$root/..; done
cd "$root" || exit 1
G=build-gpu
[ -f "$T/short.tar.xz" ] || [ -d "$T/short" ] && G=$T
. scripts/lib/gpu.sh
export OUT=${OUT:-$PWD/gpu-out}
W=$OUT/short
mkdir -p "$W"
NCU=$(pasta_find_ncu)
[ -x "$NCU" ] || { echo "gpu_short_kernels: ncu not found" | tee "$OUT/short.md"; exit 1; }
G=$(cd "$G" && pwd)
S=$G/short
# Staged packed (scripts/stage_short_kernels.sh).
[ -d "$S" ] || [ ! -f "$G/short.tar.xz" ] || tar xJf "$G/short.tar.xz" -C "$G"
export LD_LIBRARY_PATH=$G/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
staged() { for f in "$S"/thrust.*; do [ "$f" = "$S/thrust.plain" ] || echo "${f##*/thrust.}"; done; }
variants=${SHORT_VARIANTS:-plain $(staged | sort | tr '\n' ' ')}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/device.txt"
echo "commit $(cat "$G/commit" 2>/dev/null)" >>"$OUT/device.txt"
# bench/gpu_exit_cost.sh first (the parts written out by hand, about 30 s).
[ "${EXIT_COST:-1}" = 1 ] && LAUNCHES=${LAUNCHES:-10} EXIT_COST_SRC=$T/exit_cost.cu \
  bash "$T/gpu_exit_cost.sh" >/dev/null 2>&1
# Rounds until REPEATS, or until another round would pass SHORT_S seconds
# (default 110) from here (at least 2: the second is the default build's
# runs' comparison, below): the tables come from the rounds that ended.
start=$SECONDS last=0
for r in $(seq 1 "${REPEATS:-3}"); do
  if [ "$r" -gt 2 ] && [ $((SECONDS - start + last)) -gt "${SHORT_S:-110}" ]; then
    echo "gpu_short_kernels: stopped after $((r - 1)) rounds ($((SECONDS - start)) s)" >>"$W/errors.txt"
    break
  fi
  round=$SECONDS
  for v in $variants; do
    for prog in thrust one_block_sum; do
      args=()
      [ $prog = one_block_sum ] && args=("${OBS_LAUNCHES:-10}")
      env PASTA_QUIET=1 PASTA_OUTPUT="$W/$prog.$v.$r.json" \
        timeout 40 "$NCU" --csv --page raw --print-units base \
        --print-kernel-base mangled --metrics gpu__time_duration.sum \
        --log-file "$W/$prog.$v.$r.csv" "$S/$prog.$v" "${args[@]}" >"$W/$prog.$v.$r.out" 2>&1 ||
        echo "gpu_short_kernels: $prog.$v round $r exit $?" >>"$W/errors.txt"
    done
  done
  last=$((SECONDS - round))
done
# SASS of the one-block builds (SHORT_SASS, default "plain counting old";
# cuobjdump): whether the inline launch count and
# flush stayed behind their branches or ptxas predicated them into every
# warp.
dump=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
for v in ${SHORT_SASS-plain counting old}; do
  [ -x "$dump" ] && [ -x "$S/one_block_sum.$v" ] || continue
  "$dump" -sass "$S/one_block_sum.$v" 2>&1 | gzip >"$W/one_block_sum.$v.sass.gz"
done
{
  cat "$OUT/device.txt"
  echo
  # shellcheck disable=SC2086 # a list of names
  python3 "$T/short_kernels_table.py" "$W" $variants
  echo
  # Counts: every counting build's against the default's (profiles equal;
  # with the default's second round, what varies from run to run is left
  # out: the radix sort's look-back polls).
  for prog in thrust one_block_sum; do
    again=
    [ -f "$W/$prog.counting.2.json" ] && again=$W/$prog.counting.2.json
    for v in $variants; do
      case $v in plain | counting) continue ;; esac
      # shellcheck disable=SC2086 # none or one file
      python3 scripts/compare_profiles.py --counts "$W/$prog.$v.1.json" \
        "$W/$prog.counting.1.json" $again >"$W/$prog.$v.compare.txt" 2>&1 &&
        echo "$prog: $v's counts equal counting's" ||
        echo "$prog: $v's counts DIFFER from counting's ($W/$prog.$v.compare.txt)"
    done
  done
  cat "$W/errors.txt" 2>/dev/null
  grep -h "PASSED\|FAILED" "$W"/one_block_sum.*.1.out
  echo
  cat "$OUT/exit_cost.md" 2>/dev/null
} >"$OUT/short.md" 2>&1
cat "$OUT/short.md"
exit 0
