#!/usr/bin/env bash
# Warps split on purpose around PASTA's runtime calls and flushes
# (tests/structures/splitwarps; issue [overhead-3]). Every build of the
# structure in DIR (splitwarps*, not *.plain) runs in counting mode twice and in
# working-set mode once, and its plain twin once; for each build:
#  - each PASTA run's profile against the counts the source derives by hand
#    (tests/structures/check_structure.py, its EXPECT lines);
#  - the working-set run's counts against the counting runs'
#    (scripts/compare_profiles.py --counts; what differs between the two
#    counting runs, the wait loop's lines, is left out);
#  - stdout against the plain build's (it says whether every waiting lane
#    saw the rest of its warp leave: the split happened);
#  - the YIELDs at called functions' entries (scripts/sass_yields.py,
#    where cuobjdump is found).
# usage (GPU machine, repository root or a staged copy of the files named
# above): [SPLIT_DIR=DIR] [OUT=DIR] bash scripts/gpu_split_warps.sh
#   SPLIT_DIR: the builds (default build-gpu/bin/structures); builds whose
#   runtime is not static find libpasta_rt.so in SPLIT_LIB (default
#   DIR/../../lib).
# Results: $OUT/split-warps.md (one line per build and check) and
# $OUT/split-warps/NAME.{count,count2,ws,plain}.{json,out,err}.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$PWD/gpu-out}
dir=${SPLIT_DIR:-$PWD/build-gpu/bin/structures}
[ -d "$dir" ] || { echo "gpu_split_warps: no $dir" >&2; exit 1; }
dir=$(cd "$dir" && pwd)
lib=${SPLIT_LIB:-$dir/../../lib}
if [ -d "$lib" ]; then
  lib=$(cd "$lib" && pwd)
  export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
res=$OUT/split-warps
mkdir -p "$res"
md=$OUT/split-warps.md
src=$here/tests/structures/splitwarps/splitwarps.cu
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null)
fails=0
say() { echo "$*" | tee -a "$md"; }
: > "$md"
say "# Split warps ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1))"
for exe in "$dir"/splitwarps*; do
  name=$(basename "$exe")
  case $name in *.plain) continue ;; esac
  [ -x "$exe" ] || continue
  r=$res/$name
  say ""
  say "## $name"
  timeout 60 "$exe.plain" > "$r.plain.out" 2> "$r.plain.err" ||
    say "- plain build: exit $?"
  for run in count count2 ws; do
    ws=0
    [ $run = ws ] && ws=1
    PASTA_WORKING_SET=$ws PASTA_OUTPUT=$r.$run.json timeout 60 "$exe" \
      > "$r.$run.out" 2> "$r.$run.err"
    rc=$?
    mode="return"
    [ $run = ws ] && mode="ws"
    python3 "$here/tests/structures/check_structure.py" "$r.$run.json" "$src" \
      --mode $mode --stderr "$r.$run.err" > "$r.$run.check" 2>&1
    verdict=$(tail -n 1 "$r.$run.check")
    [ "$verdict" = "RESULT: ok" ] && [ $rc = 0 ] || fails=$((fails + 1))
    say "- $run (exit $rc): hand-derived counts: $verdict"
    grep -A3 '^FAIL' "$r.$run.check" | sed 's/^/    /' | tee -a "$md"
    cmp -s "$r.plain.out" "$r.$run.out" || {
      fails=$((fails + 1))
      say "  stdout differs from the plain build's"
    }
  done
  say "- $(grep 'waiting lanes' "$r.count.out" || echo 'no split line')"
  if python3 "$here/scripts/compare_profiles.py" --counts "$r.count.json" \
    "$r.ws.json" "$r.count2.json" > "$r.compare" 2>&1; then
    say "- working-set counts equal counting mode's"
  else
    fails=$((fails + 1))
    say "- working-set counts DIFFERENT from counting mode's:"
    head -n 12 "$r.compare" | sed 's/^/    /' | tee -a "$md"
  fi
  if [ -n "$cuobjdump" ]; then
    "$cuobjdump" -sass "$exe" > "$r.sass" 2>/dev/null
    say "- YIELDs: $(python3 "$here/scripts/sass_yields.py" "$r.sass" | tr '\n' ';')"
    gzip -f "$r.sass"
  fi
done
say ""
say "split-warps: $fails failed checks"
[ $fails = 0 ]
