#!/usr/bin/env bash
# Host time per launch on a GPU machine, and where it goes
# (docs/performance.md, "Host time per launch"). Staged by
# scripts/stage_launch_cost.sh; run with
#   run(command="bash scripts/gpu_launch_cost.sh", carry=["build-gpu-launch"])
# Writes $OUT/launch_cost.md:
# 1. the plain launch_overhead with the vendor calls the wrapper makes added
#    one kind at a time (TK_LAUNCH_CALLS: e events, c capture query, d device
#    queries; cd: the two the wrapper makes at every launch): what each
#    costs the plain program;
# 2. the instrumented build by setting (defaults, PASTA_TIMING=0,
#    PASTA_CALL_DEPTH=0, both), with the launches whose call path came from
#    the launch cache (the profile's launches.paths_from_cache); the earlier
#    runtime beside it when staged;
# 3. bench_launch (fake vendor: the runtime's own CPU time per launch) on
#    this machine's CPU and C library; `bench_launch ws`, working-set
#    launches shaped like nw_tile, and `bench_launch wsnw`, nw_tile's
#    launches with the flags nw sets, read cold (and bench_launch-ws-before:
#    the same benchmark with the earlier runtime, when staged).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${PASTA_LAUNCH_BIN:-build-gpu-launch}
OUT=${OUT:-out}
N=${LAUNCHES:-20000}
REPS=${REPS:-9}
# One CPU for every run: host timings of one process vary less pinned (the
# scheduler's moves and other cores' clocks are out of it).
PIN=""
command -v taskset >/dev/null && PIN="taskset -c ${PIN_CPU:-2}"
mkdir -p "$OUT/launch_cost"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/launch_cost/gpu.txt" 2>&1
ldd --version 2>&1 | head -n 1 >"$OUT/launch_cost/libc.txt"
cat /etc/os-release >>"$OUT/launch_cost/libc.txt" 2>/dev/null

# One run: prints "us loop_us paths_from_cache launches" (loop_us: the
# launch loop alone, before the final wait: the host's share; us - loop_us
# is what the GPU still had queued when the host was done).
one() { # exe json env...
  local exe=$1 json=$2; shift 2
  local us loop text
  text=$(env "$@" TK_BENCH=1 PASTA_QUIET=1 PASTA_OUTPUT="$json" $PIN "$B/$exe" "$N" \
    2>>"$OUT/launch_cost/stderr.log")
  us=$(sed -n 's/.*host_us_per_launch .*median_us=\([0-9.]*\).*/\1/p' <<<"$text")
  loop=$(sed -n 's/.*host_loop_us_per_launch .*median_us=\([0-9.]*\).*/\1/p' <<<"$text")
  local cache
  cache=$(python3 -c "import json,sys
try:
  l=json.load(open(sys.argv[1])).get('launches',{})
  print(l.get('paths_from_cache','-'), l.get('total','-'))
except Exception: print('- -')" "$json" 2>/dev/null)
  echo "${us:-failed} ${loop:-failed} ${cache:-- -}"
}

# Median and range of REPS runs: "median (min-max)".
summary() {
  python3 -c "import sys,statistics as s
v=[float(x) for x in sys.argv[1:] if x!='failed']
print('%.2f (%.2f-%.2f)'%(s.median(v),min(v),max(v)) if v else 'failed')" "$@"
}

{
  echo "GPU: $(cat "$OUT/launch_cost/gpu.txt"); $(head -n 1 "$OUT/launch_cost/libc.txt");" \
    "commit $(cat "$B/commit" 2>/dev/null)$( [ -f "$B/before-commit" ] && echo ", before = $(cat "$B/before-commit")")"
  echo
  echo "launch_overhead, $N launches of a one-warp kernel, no synchronisation until the end;"
  echo "host us per launch, median of $REPS runs (min-max), runs interleaved, pinned to one CPU ($PIN)."
  echo
  echo "| build | settings | host us per launch | of it the launch loop | launches with a cached path |"
  echo "|---|---|---|---|---|"
  cfgs=("launch_overhead|TK_LAUNCH_CALLS=" "launch_overhead|TK_LAUNCH_CALLS=e"
        "launch_overhead|TK_LAUNCH_CALLS=c" "launch_overhead|TK_LAUNCH_CALLS=d"
        "launch_overhead|TK_LAUNCH_CALLS=cd" "launch_overhead|TK_LAUNCH_CALLS=ecd"
        "launch_overhead-pasta|PASTA_TIMING=all" "launch_overhead-pasta|PASTA_TIMING=1"
        "launch_overhead-pasta|PASTA_TIMING=0"
        "launch_overhead-pasta|PASTA_CALL_DEPTH=0"
        "launch_overhead-pasta|PASTA_TIMING=0 PASTA_CALL_DEPTH=0"
        "launch_overhead-pasta|PASTA_START_GRID_ID=4000000000")
  # The last: every launch outside the launch window, so the wrapper runs
  # the plain copy: the wrapper's whole host cost without the counting
  # kernel's GPU time. launch_overhead-pasta-exit (staged with
  # PASTA_STAGE_EXIT=1): the launch counted at the first thread's exit.
  [ -x "$B/launch_overhead-pasta-exit" ] &&
    cfgs+=("launch_overhead-pasta-exit|PASTA_TIMING=1")
  [ -x "$B/launch_overhead-pasta-before" ] &&
    cfgs+=("launch_overhead-pasta-before|PASTA_TIMING=1"
           "launch_overhead-pasta-before|PASTA_CALL_DEPTH=0"
           "launch_overhead-pasta-before|PASTA_TIMING=0")
  # LAUNCH_CONFIGS: an extended regular expression; only the configurations
  # ("exe|settings") it matches run.
  if [ -n "${LAUNCH_CONFIGS:-}" ]; then
    kept=()
    for c in "${cfgs[@]}"; do grep -qE -- "$LAUNCH_CONFIGS" <<<"$c" && kept+=("$c"); done
    cfgs=("${kept[@]}")
  fi
  declare -A times loops cached
  for rep in $(seq "$REPS"); do
    for i in "${!cfgs[@]}"; do
      exe=${cfgs[$i]%%|*}; settings=${cfgs[$i]#*|}
      read -r us loop hits total < <(one "$exe" "$OUT/launch_cost/$i.json" $settings)
      times[$i]+=" $us"
      loops[$i]+=" $loop"
      cached[$i]="$hits of $total"
    done
  done
  for i in "${!cfgs[@]}"; do
    exe=${cfgs[$i]%%|*}; settings=${cfgs[$i]#*|}
    [ "$exe" = launch_overhead ] && cached[$i]="-"
    echo "| $exe | $settings | $(summary ${times[$i]}) | $(summary ${loops[$i]}) | ${cached[$i]} |"
  done
  echo
  echo "bench_launch (fake vendor runtime: the runtime's own CPU time per launch), ns:"
  echo
  echo "| runtime | settings | ns added per launch (median of 3) |"
  echo "|---|---|---|"
  for exe in bench_launch bench_launch-before; do
    [ -x "$B/$exe" ] || continue
    for settings in "PASTA_TIMING=all" "PASTA_TIMING=1" "PASTA_TIMING=0" "PASTA_CALL_DEPTH=0"; do
      ns=$(env $settings PASTA_QUIET=1 PASTA_OUTPUT=/dev/null "$B/$exe" 1000000 3 2>/dev/null |
        sed -n 's/^median \([0-9.]*\).*/\1/p')
      echo "| $exe | $settings | ${ns:-failed} |"
    done
  done
  echo
  echo "bench_launch ws (working-set launches shaped like nw_tile, fake vendor): CPU ns per launch and vendor calls per launch:"
  echo
  for exe in bench_launch bench_launch-ws-before; do
    [ -x "$B/$exe" ] || continue
    echo "$exe: $(env PASTA_QUIET=1 PASTA_OUTPUT=/dev/null $PIN "$B/$exe" ws 100000 5 2>&1 |
      sed -n 's/^vendor calls per launch beyond the launch: //p; s/^median /median ns /p' | tr '\n' ' ')"
  done
  echo
  echo "bench_launch wsnw (nw_tile's 2,047 launches with the flags nw sets, copied back past the CPU's caches; BENCH_WS_WARM=1: left in cache): CPU ns per launch, figures:"
  echo
  for exe in bench_launch bench_launch-ws-before; do
    [ -x "$B/$exe" ] || continue
    for warm in 0 1; do
      echo "$exe BENCH_WS_WARM=$warm: $(env BENCH_WS_WARM=$warm PASTA_QUIET=1 PASTA_OUTPUT=/dev/null $PIN "$B/$exe" wsnw 20470 5 2>&1 |
        sed -n 's/^working-set launches /launches /p; s/^median /median ns /p' | tr '\n' ' ')"
    done
  done
} >"$OUT/launch_cost.md"
cat "$OUT/launch_cost.md"
