#!/usr/bin/env bash
# The launchfit structure (tests/structures/launchfit/launchfit.cu; issues
# 44 and 45) before and after: copies whose registers the program's blocks
# cannot have. Builds, on the development machine:
#   scripts/gpu_launch_fit.sh stage [OLD_BUILD]
# (this tree's build/ and, with OLD_BUILD, an earlier tree's lib/libpasta.so
# and lib/libpasta_rt.a) into build-gpu/launchfit/: launchfit.plain,
# launchfit.after, launchfit.after-div, launchfit.twin-div
# (-pasta-div-small-block-twin), and launchfit.before{,-div}.
# Runs, on the GPU machine: bash scripts/gpu_launch_fit.sh
# each build in counting, working-set (PASTA_WORKING_SET=1) and divergence
# mode, checked by check_structure.py against the source's EXPECT lines
# (modes return, ws, div; divtwin for the twin build) and the store line's
# divergence figures against the header's (check_div_line.py): the
# 16-thread launch's alone after, both launches' with the twin, none before
# (the refused copy was given up). Results in $OUT/summary.txt.
set -u
cd "$(dirname "$0")/.."
src=tests/structures/launchfit
dir=build-gpu/launchfit
if [ "${1:-}" = stage ]; then
  set -e
  mkdir -p "$dir"
  cp "$src/launchfit.cu" "$src/check_div_line.py" tests/structures/check_structure.py "$dir/"
  cu=(-x cuda --cuda-path=/usr/local/cuda --offload-arch=sm_90 -Wno-unknown-cuda-version -O2 -g)
  rt=(-L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -pthread)
  one() { # NAME LIBDIR [flags]
    local name=$1 lib=$2
    shift 2
    clang++-22 "${cu[@]}" -fpass-plugin="$lib/libpasta.so" "$@" "$src/launchfit.cu" \
      -o "$dir/launchfit.$name" -x none "$lib/libpasta_rt.a" "${rt[@]}"
  }
  clang++-22 "${cu[@]}" "$src/launchfit.cu" -o "$dir/launchfit.plain" "${rt[@]}"
  one after build/lib
  PASTA_DIVERGENCE=1 one after-div build/lib
  PASTA_DIVERGENCE=1 one twin-div build/lib -mllvm -pasta-div-small-block-twin
  if [ -n "${2:-}" ]; then
    one before "$2/lib"
    PASTA_DIVERGENCE=1 one before-div "$2/lib"
  fi
  exit 0
fi
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
cd "$dir" || exit 1
./launchfit.plain > "$OUT/plain.out" 2>&1
echo "plain rc=$?" | tee "$OUT/summary.txt"
# NAME MODE VAR=VALUE...: launchfit.NAME (less -div) run in MODE.
run() {
  local name=$1 mode=$2 bin=launchfit.${1%-count}
  shift 2
  bin=${bin%-ws}
  [ -x "$bin" ] || return 0
  env "$@" PASTA_OUTPUT="$OUT/$name.json" "./$bin" > "$OUT/$name.out" 2> "$OUT/$name.err"
  local rc=$? same=same
  cmp -s "$OUT/plain.out" "$OUT/$name.out" || same=DIFFERENT
  echo "== $name ($bin, mode $mode): rc=$rc, stdout $same as plain" | tee -a "$OUT/summary.txt"
  python3 check_structure.py "$OUT/$name.json" launchfit.cu --mode "$mode" \
    --stderr "$OUT/$name.err" > "$OUT/$name.check" 2>&1
  tail -n 1 "$OUT/$name.check" | tee -a "$OUT/summary.txt"
  grep -h "pasta: warning" "$OUT/$name.err" | tee -a "$OUT/summary.txt"
}
for b in before after; do
  run $b-count return
  run $b-ws ws PASTA_WORKING_SET=1
done
for b in before-div after-div; do run $b div PASTA_DIVERGENCE=1; done
run twin-div divtwin PASTA_DIVERGENCE=1
line=$(grep -n 'out\[blockIdx.x \* TileFloats' launchfit.cu | cut -d: -f1)
# After: the measured figures only (the derived ones cover the counting
# launch too: the source's header).
s16="requests_global=1024 sectors=2048 ideal_sectors=2048"
sum="requests_global=33792 requested_bytes=4259840 distinct_bytes_global=2162688 sectors=67584 ideal_sectors=67584"
for c in "before-div none=1" "after-div $s16" "twin-div $sum"; do
  set -- $c
  name=$1
  shift
  [ -f "$OUT/$name.json" ] || continue
  echo "== $name: line $line" | tee -a "$OUT/summary.txt"
  python3 check_div_line.py "$OUT/$name.json" "$line" row_solve "$@" | tee -a "$OUT/summary.txt"
done
