#!/usr/bin/env bash
# One device-machine run for issue [divergence]: the divergence copies of the
# bundled kernels against Nsight Compute, and their kernel time against the
# plain build.
#  1. every program's -div build (compiled with PASTA_DIVERGENCE=1) runs with
#     PASTA_DIVERGENCE=1 at the validation size and must print what the plain
#     build prints (results unchanged); its profile holds the figures;
#  2. ncu (--clock-control none) profiles the plain build at the same size
#     with the divergence metrics (gathered as scripts/gpu_check.sh gathers
#     its own, compared by scripts/compare_divergence.py, which reuses
#     compare_ncu.py's reader);
#  3. plain and divergence copies timed with CUDA events at the benchmark
#     size (TK_BENCH runs, bench: lines, test_kernels/bench.h).
# Stage on the development machine:
#   ninja -C build && ninja -C build pasta_kernels_div
#   PASTA_STAGE_DIV=1 PASTA_STAGE_PACK=1 scripts/stage_gpu.sh
# then run(command="bash scripts/gpu_divergence.sh", carry=["build-gpu"]).
# With <k>-div-before beside <k>-div (the divergence build of an earlier
# tree, staged by scripts/stage_div_before_after.sh), each program's
# before build runs too: its profile must equal the new one
# (scripts/compare_profiles.py, up to two more before runs to leave out
# racy values) and it is timed beside the others (a "before" column).
# With <k>-div-drain beside it (this tree's divergence build compiled with
# PASTA_DIV_DRAIN_EVERY=1: the loop registers drained at every loop-header
# visit, staged by DRAIN_KERNELS=DIR scripts/stage_div_before_after.sh), its
# profile must equal <k>-div's too; it is not timed.
# With DIV_VARIANTS='NAME ...' and <k>-div-NAME beside <k>-div (this tree's
# divergence builds with other settings, staged by VARIANTS=... 
# scripts/stage_div_before_after.sh), each one's profile must equal
# <k>-div's and it is timed too ($OUT/divergence.md, "Other builds").
# Then scripts/gpu_div_long_loop.sh ($OUT/div-long-loop.txt).
# Results: $OUT/divergence.md (both tables), $OUT/coalescing-report.txt (the
# worked example's stderr report), logs and profiles in
# $OUT/divergence-work.tgz.
# DIV_DEADLINE (seconds, default 330) stops starting new programs after that
# long, so a device run under a time limit still writes its tables; the
# worked example (coalescing) and the small kernels go first. PROGRAMS
# overrides the list. DIV_NCU=0 leaves out Nsight Compute (step 2): a
# before/after run that compares profiles and times only.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/divergence-work
mkdir -p "$W"
bash scripts/unpack_gpu.sh
BIN=${PASTA_KERNEL_BIN:-$PWD/build-gpu/bin/kernels}
RUNS=${TK_BENCH:-5}
# The validation runs must launch each kernel as ncu's run does: a TK_BENCH
# left in the environment would repeat the benchmark's kernel steps in them
# (seen: gaussian's figures 5 times ncu's); the timing sets it itself.
unset TK_BENCH
DEADLINE=$((SECONDS + ${DIV_DEADLINE:-330}))
FIRST="coalescing vector_add axpy matmul_tiled reduction histogram bfs hotspot srad"
PROGRAMS=${PROGRAMS:-$FIRST $(sed -n 's/^\([a-z_0-9]*\) .*/\1/p' test_kernels/bench_sizes.txt |
  grep -v launch_overhead | grep -vxF -e "${FIRST// /$'\n'}" | tr '\n' ' ')}

. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
if [ "${DIV_NCU:-1}" != 0 ]; then
  [ -x "$NCU" ] || { echo "gpu_divergence: ncu not found"; exit 1; }
  "$NCU" --version > "$W/ncu-version.txt" 2>&1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
METRICS=$(tr -d ' \n' < scripts/ncu_divergence_metrics.txt)

# The profile of program $1's build <k>-div-$3 at size $2 against <k>-div's,
# noted in $W/$3-compare.txt. While they differ the build runs again, up to
# three runs: a value that differs between its runs is racy and left out (a
# race whose figure seldom moves, as bfs's compare-and-swap winners' sectors,
# can look stable over two runs).
compare_build() {
  local k=$1 vsize=$2 b=$3 run reruns=""
  for run in 1 2 3; do
    PASTA_DIVERGENCE=1 PASTA_OUTPUT="$W/$k.div-$b$run.json" "$BIN/$k-div-$b" $vsize \
      > "$W/$k.div-$b.out" 2> "$W/$k.div-$b.err"
    if ! cmp -s "$W/$k.plain.out" "$W/$k.div-$b.out"; then
      echo "gpu_divergence: $k: the $b build's results differ"; return 1
    fi
    if [ $b = before ] && [ -f build-gpu/before-roots ]; then
      read -r old_root new_root < build-gpu/before-roots
      sed -i "s#$old_root/#$new_root/#g" "$W/$k.div-$b$run.json"
    fi
    [ $run = 1 ] || reruns="$reruns $W/$k.div-$b$run.json"
    # shellcheck disable=SC2086 # reruns: a list of paths without spaces
    python3 scripts/compare_profiles.py "$W/$k.div-${b}1.json" \
      "$W/$k.div.json" $reruns > "$W/$k.div-$b-compare.txt" && break
  done
  if [ $run = 3 ] && ! grep -q ': same$' "$W/$k.div-$b-compare.txt"; then
    echo "gpu_divergence: $k: divergence profile differs from the $b build"
    cat "$W/$k.div-$b-compare.txt"
    echo "$k differ" >> "$W/$b-compare.txt"; return 1
  fi
  echo "$k equal" >> "$W/$b-compare.txt"
}

status=0
ran=""
: > "$W/before-compare.txt"
: > "$W/drain-compare.txt"
for b in ${DIV_VARIANTS:-}; do : > "$W/$b-compare.txt"; done
: > "$W/bench.txt"
for k in $PROGRAMS; do
  [ -x "$BIN/$k-div" ] || { echo "gpu_divergence: no $BIN/$k-div"; status=1; continue; }
  if [ $SECONDS -ge $DEADLINE ]; then
    echo "gpu_divergence: out of time before $k"; status=1; break
  fi
  echo "== $k"
  read -r n vsize < <(awk -v k="$k" '$1 == k { print $2, ($3 ? $3 : "") }' test_kernels/bench_sizes.txt)
  "$BIN/$k" $vsize > "$W/$k.plain.out" 2>&1; rc_plain=$?
  PASTA_DIVERGENCE=1 PASTA_OUTPUT="$W/$k.div.json" "$BIN/$k-div" $vsize \
    > "$W/$k.div.out" 2> "$W/$k.div.err"; rc_div=$?
  cat "$W/$k.plain.out" "$W/$k.div.out"
  if [ $rc_plain -ne 0 ] || [ $rc_div -ne 0 ] || ! cmp -s "$W/$k.plain.out" "$W/$k.div.out"; then
    echo "gpu_divergence: $k: results differ or failed (plain rc=$rc_plain, div rc=$rc_div)"
    status=1
  fi
  grep "pasta: warning" "$W/$k.div.err" && status=1
  for b in before drain ${DIV_VARIANTS:-}; do
    if [ -x "$BIN/$k-div-$b" ]; then
      compare_build "$k" "$vsize" $b || status=1
    fi
  done
  if [ "${DIV_NCU:-1}" != 0 ]; then
    pasta_ncu_divergence 60 "$W/$k.ncu-div.csv" "$BIN/$k" $vsize \
      > /dev/null 2>&1 || { echo "gpu_divergence: ncu failed on $k"; status=1; }
  fi
  variants="plain div"
  for b in before ${DIV_VARIANTS:-}; do
    [ -x "$BIN/$k-div-$b" ] && variants="$variants $b"
  done
  for variant in $variants; do
    case $variant in
      plain) exe="$BIN/$k" ;; div) exe="$BIN/$k-div" ;; *) exe="$BIN/$k-div-$variant" ;;
    esac
    TK_BENCH=$RUNS PASTA_QUIET=1 PASTA_DIVERGENCE=1 PASTA_OUTPUT=/dev/null \
      timeout 45 "$exe" "$n" > "$W/run.txt" 2>&1 || { echo "gpu_divergence: $k $variant bench failed"; status=1; }
    sed -n "s/^bench: /$k $variant /p" "$W/run.txt" >> "$W/bench.txt"
  done
  ran="$ran $k"
done
rm -f "$W/run.txt"
# The loop registers' drain on a loop that would overflow them.
if [ -x "$BIN/div_long_loop-div" ]; then
  PASTA_KERNEL_BIN=$BIN bash scripts/gpu_div_long_loop.sh > /dev/null 2>&1 ||
    { echo "gpu_divergence: div_long_loop failed ($OUT/div-long-loop.txt)"; status=1; }
fi
# Twins measured once where their bases allow, each where not.
if [ -x "$BIN/div_twin_bases-div" ]; then
  PASTA_KERNEL_BIN=$BIN bash scripts/gpu_div_twin_bases.sh > /dev/null 2>&1 ||
    { echo "gpu_divergence: div_twin_bases failed ($OUT/div-twin-bases.txt)"; status=1; }
fi
# One kernel launched with blocks that are rows of 32 and blocks that are not.
if [ -x "$BIN/div_shapes-div" ]; then
  PASTA_KERNEL_BIN=$BIN bash scripts/gpu_div_shapes.sh > /dev/null 2>&1 ||
    { echo "gpu_divergence: div_shapes failed ($OUT/div-shapes.txt)"; status=1; }
fi
# One kernel launched with blocks of one thread: its one-lane copy.
if [ -x "$BIN/div_one_lane-div" ]; then
  PASTA_KERNEL_BIN=$BIN bash scripts/gpu_div_one_lane.sh > /dev/null 2>&1 ||
    { echo "gpu_divergence: div_one_lane failed ($OUT/div-one-lane.txt)"; status=1; }
fi
# One kernel launched as its divergence copy and through a CUDA graph.
if [ -x "$BIN/div_fallback-div" ]; then
  PASTA_KERNEL_BIN=$BIN bash scripts/gpu_div_fallback.sh > /dev/null 2>&1 ||
    { echo "gpu_divergence: div_fallback failed ($OUT/div-fallback.txt)"; status=1; }
fi
# The worked example's stderr report (docs/user-guide.md).
cp "$W/coalescing.div.err" "$OUT/coalescing-report.txt" 2>/dev/null
python3 scripts/compare_divergence.py --work "$W" --programs $ran \
  --bench "$W/bench.txt" --out "$OUT/divergence.md" > /dev/null || status=1
if [ -n "${DIV_VARIANTS:-}" ]; then
  { echo; echo "## Other builds (median us, ratio to plain)"; echo
    python3 scripts/div_variant_table.py "$W/bench.txt" div before $DIV_VARIANTS; } >> "$OUT/divergence.md"
fi
for b in before drain ${DIV_VARIANTS:-}; do
  [ -s "$W/$b-compare.txt" ] || continue
  { echo; echo "## Profiles against the $b build"; echo
    echo "$(grep -c ' equal$' "$W/$b-compare.txt") of $(wc -l < "$W/$b-compare.txt") programs' divergence profiles equal:"
    sed 's/^/    /' "$W/$b-compare.txt"; } >> "$OUT/divergence.md"
done
cat "$OUT/divergence.md"
# The device tool brings back a few files: the logs and profiles as one.
tar czf "$OUT/divergence-work.tgz" -C "$OUT" divergence-work && rm -rf "$W"
exit $status
