#!/usr/bin/env bash
# Runs PASTA's libFuzzer targets (fuzz/, docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS] [JOBS]
#       every target for SECONDS (default 600) of wall time, all three at
#       once, with JOBS fuzzing processes in all (default: the number of
#       cores), shared out between the targets. Builds the targets first
#       (cmake --build "$PASTA_BUILD_DIR" --target pasta_fuzz; default
#       build/, configured with clang-22). Writes each target's corpus,
#       crashes and log under $PASTA_FUZZ_OUT (default
#       fuzz-out/<date>-<time>) and prints one line per target: seconds,
#       executions, corpus size, crashes. PASTA_FUZZ_BIN: a directory of
#       targets already built (a machine without the toolchain); no build. Exit status 1 when any target
#       found a crash (a crash-*, leak-*, timeout-* or oom-* file); copy
#       each into fuzz/regressions/<target>/ once it is fixed.
#   scripts/fuzz.sh --one NAME SECONDS JOBS BINDIR WORKDIR
#       one target (what the ctest tests fuzz-NAME run): replays
#       fuzz/regressions/NAME/, then fuzzes for SECONDS.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
targets=(report trace line_ranges)

# The seed inputs of a target, copied into $2 (libFuzzer only reads them).
seeds() {
  local name=$1 dir=$2
  mkdir -p "$dir"
  case $name in
  report)
    cp "$src"/tests/integration/profiles/*.json "$src"/tests/fixtures/*.json \
      "$dir"/
    # Pairs for diff and merge: two profiles separated by a NUL byte.
    local files=("$src"/tests/integration/profiles/*.json \
      "$src"/tests/fixtures/*.json) i
    for ((i = 0; i + 1 < ${#files[@]}; ++i)); do
      { cat "${files[$i]}"; printf '\0'; cat "${files[$((i + 1))]}"; } \
        >"$dir/pair-$i"
    done
    ;;
  trace)
    cp "$src"/tests/fixtures/*.json "$src"/tests/integration/profiles/*.json \
      "$src"/docs/traces/* "$dir"/
    ;;
  line_ranges)
    cp "$src"/fuzz/seeds/line_ranges/* "$dir"/
    ;;
  esac
  # Earlier crashes are good starting points too.
  cp "$src/fuzz/regressions/$name"/* "$dir"/ 2>/dev/null || true
}

dict() {
  case $1 in
  line_ranges) echo "$src/fuzz/line_ranges.dict" ;;
  *) echo "$src/fuzz/profile.dict" ;;
  esac
}

# Replays the regression inputs, then fuzzes. Prints a summary line.
one() {
  local name=$1 seconds=$2 jobs=$3 bindir=$4 work=$5
  local bin="$bindir/fuzz_$name" reg="$src/fuzz/regressions/$name"
  [[ -x $bin ]] || {
    echo "fuzz.sh: $bin is missing: build it with" \
      "'cmake --build <build> --target pasta_fuzz' (PASTA_FUZZ=ON)" >&2
    return 2
  }
  mkdir -p "$work/corpus" "$work/crashes"
  rm -rf "$work/seeds"
  seeds "$name" "$work/seeds"
  local inputs=()
  if [[ -d $reg ]]; then
    mapfile -t inputs < <(find "$reg" -type f ! -name '*.md' | sort)
  fi
  if ((${#inputs[@]})); then
    if ! "$bin" -close_fd_mask=3 "${inputs[@]}" \
      >"$work/regressions.log" 2>&1; then
      echo "fuzz-$name: a regression input fails again:" >&2
      tail -40 "$work/regressions.log" >&2
      return 1
    fi
    echo "fuzz-$name: ${#inputs[@]} regression inputs replayed, all pass"
  fi
  local fork=()
  ((jobs > 1)) && fork=(-fork="$jobs" -ignore_crashes=1)
  local start=$SECONDS rc=0
  "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=3072 \
    -max_len=262144 -dict="$(dict "$name")" -close_fd_mask=3 \
    -print_final_stats=1 -artifact_prefix="$work/crashes/" "${fork[@]}" \
    "$work/corpus" "$work/seeds" >"$work/fuzz.log" 2>&1 || rc=$?
  local found execs
  found=$(find "$work/crashes" -type f | wc -l)
  execs=$({ grep -ho 'number_of_executed_units: *[0-9]*' "$work/fuzz.log" ||
    true; } | awk '{s += $2} END {print s + 0}')
  if ((execs == 0)); then # fork mode reports "#N: ..." lines
    execs=$({ grep -o '^#[0-9]*' "$work/fuzz.log" || true; } | tail -1 |
      tr -d '#')
  fi
  echo "fuzz-$name: $((SECONDS - start)) s, ${execs:-0} executions," \
    "corpus $(find "$work/corpus" -type f | wc -l) inputs," \
    "$found crashes (log: $work/fuzz.log)"
  if ((found || rc)); then
    find "$work/crashes" -type f >&2
    grep -m1 -A30 'ERROR: \|==ERROR\|runtime error\|fuzz_[a-z_]*: ' \
      "$work/fuzz.log" >&2 || tail -30 "$work/fuzz.log" >&2
    return 1
  fi
}

if [[ ${1:-} == --one ]]; then
  (($# == 6)) || {
    echo "usage: fuzz.sh --one NAME SECONDS JOBS BINDIR WORKDIR" >&2
    exit 2
  }
  one "$2" "$3" "$4" "$5" "$6"
  exit
fi

seconds=${1:-600}
jobs=${2:-$(nproc)}
[[ $seconds =~ ^[0-9]+$ && $jobs =~ ^[0-9]+$ ]] && ((jobs > 0)) || {
  echo "usage: scripts/fuzz.sh [SECONDS] [JOBS]" >&2
  exit 2
}
build=${PASTA_BUILD_DIR:-$src/build}
bindir=${PASTA_FUZZ_BIN:-}
if [[ -z $bindir ]]; then
  if [[ ! -f $build/CMakeCache.txt ]]; then
    CC=${CC:-clang-22} CXX=${CXX:-clang++-22} cmake -G Ninja -S "$src" \
      -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPASTA_FUZZ=ON
  fi
  cmake --build "$build" --target pasta_fuzz
  bindir=$build/fuzz
fi
out=${PASTA_FUZZ_OUT:-$src/fuzz-out/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
# The report target gets half the processes, the others a quarter each.
per=($(((jobs + 1) / 2)) $(((jobs + 3) / 4)) $(((jobs + 3) / 4)))
pids=()
for i in "${!targets[@]}"; do
  one "${targets[$i]}" "$seconds" "${per[$i]}" "$bindir" \
    "$out/${targets[$i]}" >"$out/${targets[$i]}.summary" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "$out/${targets[$i]}.summary"
done
echo "fuzz.sh: crashes, corpora and logs in $out"
exit $status
