#!/usr/bin/env bash
# A divergence copy without an uncapped twin (its stub: one-thread blocks,
# returns at once; passes/DivergenceEmission.cpp, addUncappedStub) on the
# GPU: `myocyte 12`'s one launch fits in one wave, so a real twin would
# run (myocyte12-div-twin must launch __pasta_divu); the stub never may
# (myocyte12-div must launch __pasta_div alone). Both print the plain
# build's checksum, and their profiles are equal
# (scripts/compare_profiles.py; a second run of the stub build leaves out
# racy values). Stage: scripts/stage_div_stub_twin.sh, then
# run(command="bash scripts/gpu_div_stub_twin.sh", carry=["build-gpu"]).
# Results: $OUT/div-stub-twin.txt, logs and profiles in $OUT/div-stub-twin/.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/div-stub-twin
mkdir -p "$W"
bin=build-gpu/bin/stubtwin
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
status=0
"$bin/myocyte12.plain" > "$W/plain.out" 2>&1 || status=1
for b in div div-twin; do
  for r in 1 2; do
    PASTA_DIVERGENCE=1 PASTA_OUTPUT="$W/$b.$r.json" "$bin/myocyte12-$b" \
      > "$W/$b.$r.out" 2> "$W/$b.$r.err" || status=1
    cmp -s "$W/plain.out" "$W/$b.$r.out" ||
      { echo "$b run $r: output differs from plain"; status=1; }
    grep "pasta: warning" "$W/$b.$r.err" && status=1
  done
  if [ -x "$NCU" ]; then
    PASTA_DIVERGENCE=1 PASTA_OUTPUT=/dev/null "$NCU" --csv \
      --metrics launch__grid_size "$bin/myocyte12-$b" > "$W/$b.ncu.csv" 2>&1
    twin=$(grep -c '__pasta_divu' "$W/$b.ncu.csv")
    capped=$(grep -c '__pasta_div[^u]' "$W/$b.ncu.csv")
    echo "$b: launches of the twin (__pasta_divu) $twin, of the capped copy $capped"
    case $b in
      div) [ "$twin" = 0 ] && [ "$capped" -ge 1 ] || status=1 ;;
      div-twin) [ "$twin" -ge 1 ] || status=1 ;;
    esac
  else
    echo "gpu_div_stub_twin: ncu not found: launches not checked"; status=1
  fi
done
echo "checksums: plain $(cat "$W/plain.out"), stub build $(cat "$W/div.1.out"), twin build $(cat "$W/div-twin.1.out")"
python3 scripts/compare_profiles.py "$W/div-twin.1.json" "$W/div.1.json" \
  "$W/div-twin.2.json" && echo "profiles: equal" ||
  { echo "profiles: differ"; status=1; }
echo "gpu_div_stub_twin: status $status"
exit $status
