#!/usr/bin/env bash
# Trace mode on the GPU: every bundled program built with PASTA_TRACE=1
# (<prog>-trace) is run at its default size next to the plain build; both
# must print PASSED, and the trace files must follow docs/trace-format.md
# (tests/check_trace.py: the .cats file balanced and in the C.A.T.S.
# viewer's schema, the Chrome trace in the trace-event format). Then the
# overhead: each kernel step timed with CUDA events (TK_BENCH=R, as
# gpu_bench.sh) plain, in trace mode as shipped (the first
# PASTA_TRACE_LAUNCHES=2 launches of each kernel traced, the rest counted)
# and with every launch traced.
# Runs on the GPU machine over a tree built on a development machine:
#   PASTA_STAGE_TRACE=1 PASTA_STAGE_PACK=1 scripts/stage_gpu.sh, then
#   run(command="scripts/unpack_gpu.sh && PASTA_KERNEL_BIN=build-gpu/bin/kernels
#   bash scripts/gpu_trace.sh", carry=["build-gpu"])
# TRACE_BEFORE=1 (after scripts/stage_trace_before_after.sh): each
# <program>-trace-before (an earlier tree's plugin and runtime) is timed beside it
# (trace-first-before, trace-all-before), and the every-launch runs of both
# are compared: traced launches, dropped records and trace events must be
# equal ($OUT/trace-before-after.txt).
# Writes $OUT/trace-summary.md (per program: result, events, sizes, checks),
# $OUT/trace-bench.txt and trace-bench.md (the overhead table), and keeps
# the traces of KEEP (default: hotspot) and of the -trace-host builds in
# $OUT/traces.tgz.
set -u
OUT=${OUT:-$PWD/gpu-out}
BIN=${PASTA_KERNEL_BIN:-build/bin/kernels}
RUNS=${TK_BENCH:-10}
KEEP=${KEEP:-hotspot}
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:${LD_LIBRARY_PATH:-}
mkdir -p "$OUT/traces"
work=$(mktemp -d)
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)
raw="$OUT/trace-bench.txt"
sum="$OUT/trace-summary.md"
: > "$raw"
{
  echo "GPU: $gpu"
  echo
  echo "| program | plain | trace mode | .cats events | .cats bytes | Chrome trace events | traced launches | dropped | schema |"
  echo "|---|---|---|---|---|---|---|---|---|"
} > "$sum"
status=0
while read -r prog n _; do
  [ -z "$prog" ] || [ "${prog#\#}" != "$prog" ] && continue
  [ -x "$BIN/$prog-trace" ] || continue
  plain=$("$BIN/$prog" 2>&1 | grep -Eo "PASSED|FAILED" | head -1)
  PASTA_QUIET=1 PASTA_OUTPUT="$work/$prog.json" "$BIN/$prog-trace" \
    > "$work/run.txt" 2>&1
  traced=$(grep -Eo "PASSED|FAILED" "$work/run.txt" | head -1)
  if python3 tests/check_trace.py --expect-balanced --cats "$work/$prog.cats" \
       --chrome "$work/$prog.trace.json" > "$work/check.txt" 2>&1; then
    schema=ok
  else
    schema=FAILED; status=1; cat "$work/check.txt"
  fi
  [ "$plain" = PASSED ] && [ "$traced" = PASSED ] || { status=1; cat "$work/run.txt"; }
  python3 - "$prog" "$plain" "$traced" "$schema" "$work/$prog.cats" \
    "$work/$prog.trace.json" >> "$sum" <<'PY'
import json, os, sys
prog, plain, traced, schema, cats, chrome = sys.argv[1:]
try:
    c = json.load(open(cats))
    t = json.load(open(chrome))
    print(f"| {prog} | {plain} | {traced} | {len(c['events'])} | "
          f"{os.path.getsize(cats):,} | {len(t['traceEvents'])} | "
          f"{c.get('traced_launches')} | {c.get('dropped')} | {schema} |")
except Exception as e:
    print(f"| {prog} | {plain} | {traced} | - | - | - | - | - | {schema}: {e} |")
PY
  for k in $KEEP; do
    [ "$k" = "$prog" ] && cp "$work/$prog.cats" "$work/$prog.trace.json" \
      "$work/run.txt" "$OUT/traces/" && mv "$OUT/traces/run.txt" "$OUT/traces/$prog.stderr.txt"
  done
  # Overhead, at the benchmark size.
  variants="plain trace-first trace-all"
  [ "${TRACE_BEFORE:-0}" = 1 ] && [ -x "$BIN/$prog-trace-before" ] &&
    variants="$variants trace-first-before trace-all-before"
  for variant in $variants; do
    exe="$BIN/$prog"; [ $variant != plain ] && exe="$BIN/$prog-trace"
    case $variant in *-before) exe="$BIN/$prog-trace-before" ;; esac
    launches=2; case $variant in trace-all*) launches=1000000 ;; esac
    TK_BENCH=$RUNS PASTA_QUIET=1 PASTA_OUTPUT="$work/bench-$variant.json" \
      PASTA_TRACE_LAUNCHES=$launches "$exe" "$n" > "$work/bench.txt" 2>&1 ||
      { echo "gpu_trace: $prog ($variant) failed"; cat "$work/bench.txt"; status=1; }
    sed -n "s/^bench: /$prog $variant /p" "$work/bench.txt" >> "$raw"
  done
  if [ "${TRACE_BEFORE:-0}" = 1 ] && [ -f "$work/bench-trace-all-before.cats" ]; then
    python3 - "$prog" "$work/bench-trace-all.cats" \
      "$work/bench-trace-all-before.cats" >> "$OUT/trace-before-after.txt" <<'PY' || status=1
import collections, json, sys
prog, new, old = sys.argv[1:]
def facts(path):
    c = json.load(open(path))
    kinds = collections.Counter(e.get("type") for e in c["events"])
    return {"traced_launches": c.get("traced_launches"),
            "dropped": c.get("dropped"), "events": dict(kinds)}
a, b = facts(new), facts(old)
same = a == b
print(f"{prog}: {'equal' if same else 'DIFFERENT'} after={a} before={b}")
sys.exit(0 if same else 1)
PY
  fi
  rm -f "$work"/bench-*.json "$work"/bench-*.cats "$work"/bench-*.trace.json
done < test_kernels/bench_sizes.txt
# Host scopes too (PASTA_HOST=1 at build time): the host loops around the
# launches. These traces are kept.
{
  echo
  echo "With host scopes (PASTA_HOST=1 PASTA_TRACE=1):"
  echo
  echo "| program | result | .cats events | .cats bytes | Chrome trace events | schema |"
  echo "|---|---|---|---|---|---|"
} >> "$sum"
for exe in "$BIN"/*-trace-host; do
  [ -x "$exe" ] || continue
  prog=$(basename "$exe")
  PASTA_QUIET=0 PASTA_OUTPUT="$OUT/traces/$prog.json" "$exe" \
    > "$OUT/traces/$prog.stderr.txt" 2>&1
  result=$(grep -Eo "PASSED|FAILED" "$OUT/traces/$prog.stderr.txt" | head -1)
  [ "$result" = PASSED ] || status=1
  if python3 tests/check_trace.py --expect-balanced \
       --cats "$OUT/traces/$prog.cats" --chrome "$OUT/traces/$prog.trace.json"; then
    schema=ok
  else
    schema=FAILED; status=1
  fi
  python3 - "$prog" "$result" "$schema" "$OUT/traces/$prog.cats" \
    "$OUT/traces/$prog.trace.json" >> "$sum" <<'PY'
import json, os, sys
prog, result, schema, cats, chrome = sys.argv[1:]
c, t = json.load(open(cats)), json.load(open(chrome))
print(f"| {prog} | {result} | {len(c['events'])} | {os.path.getsize(cats):,} | "
      f"{len(t['traceEvents'])} | {schema} |")
PY
  rm -f "$OUT/traces/$prog.json"
done
rm -rf "$work"
# One file, not dozens: the device tool brings back a limited number.
tar czf "$OUT/traces.tgz" -C "$OUT" traces && rm -rf "$OUT/traces"
python3 scripts/trace_table.py "$raw" "$gpu" > "$OUT/trace-bench.md" || status=1
cat "$sum" "$OUT/trace-bench.md"
exit $status
