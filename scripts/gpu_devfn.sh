#!/usr/bin/env bash
# Kernel time of device-function-heavy shapes (issue [overhead-3]): the
# structures tests/structures/devfn (a clustering kernel calling a
# non-inlined distance 32 times per thread, a chain of calls) and
# tests/structures/callgraph (a kernel calling 13 non-inlined functions, a
# 64-thread kernel launched 200 times, float4 loads), each built plain,
# counting (device functions return their counts to their callers), and
# counting with a flush at every device function's return
# (PASTA_CALLEE_COUNTS=0 at compile time: NAME.percall), under Nsight
# Compute (gpu__time_duration.sum per kernel, summed over launches) at
# timing sizes. Also checks the default-size counts of both counting builds
# against the EXPECT lines, and that their working sets
# (PASTA_WORKING_SET=1) are equal.
# Build and carry:
#   scripts/build_structures.sh build/gpu-devfn devfn callgraph
#   cp build/lib/libpasta_rt.so build/gpu-devfn/
#   run(command="bash scripts/gpu_devfn.sh build/gpu-devfn", carry=["build/gpu-devfn"])
# (or the staged build-gpu/bin/structures, which holds them too)
# Results: $OUT/devfn.md (a table), $OUT/devfn/ (ncu CSVs, profiles, logs).
set -u
cd "$(dirname "$0")/.." || exit 1
bin=$(cd "${1:-build/gpu-devfn}" && pwd)
OUT=${OUT:-$PWD/gpu-out}
W=${PASTA_DEVFN_WORK:-$OUT/devfn}
mkdir -p "$W"
# libpasta_rt.so: next to the programs, or staged in build-gpu/lib.
export LD_LIBRARY_PATH=$bin:$bin/../../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# shellcheck source=scripts/lib/gpu.sh
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
status=0
# program | timing arguments | kernels timed
shapes=("devfn|${PASTA_DEVFN_ARGS:-22 32}|assign|chain"
        "callgraph|${PASTA_CALLGRAPH_ARGS:-22 1}|many|tiny|sum4")
for shape in "${shapes[@]}"; do
  prog=${shape%%|*}
  for build in "$prog" "$prog.percall"; do
    (cd "$bin" && PASTA_OUTPUT=$W/$build.json "./$build") > "$W/$build.out" 2> "$W/$build.err" || status=1
    python3 tests/structures/check_structure.py "$W/$build.json" \
      "tests/structures/$prog/$prog.cu" --stderr "$W/$build.err" > "$W/$build.check" || status=1
    echo "$build: $(tail -n 1 "$W/$build.check")"
  done
done
# Working-set mode (PASTA_WORKING_SET=1): the working-set copies call the
# twins' copies; each kernel's working set must be the one the copies that
# flush per call find.
for shape in "${shapes[@]}"; do
  prog=${shape%%|*}
  for build in "$prog" "$prog.percall"; do
    (cd "$bin" && PASTA_WORKING_SET=1 PASTA_OUTPUT=$W/$build.ws.json "./$build") \
      > "$W/$build.ws.out" 2>&1 || status=1
  done
  python3 - "$W/$prog.ws.json" "$W/$prog.percall.ws.json" <<'PY' || status=1
import json, sys
def ws(path):  # the launch table's working-set figures per kernel
    return {k["mangled"]: {f: v for f, v in k.items() if f.startswith("ws_")}
            for k in json.load(open(path))["launches"]["kernels"]}
a, b = ws(sys.argv[1]), ws(sys.argv[2])
same = a == b and all(v.get("ws_launches") for v in a.values())
print(f"{sys.argv[1].rsplit('/', 1)[-1]}: working sets "
      f"{'equal to' if same else 'DIFFERENT from'} the flush-per-call build's"
      f" ({len(a)} kernels)")
for k in sorted(set(a) | set(b)):
    if a.get(k) != b.get(k):
        print(f"  {k}: {a.get(k)} against {b.get(k)}")
sys.exit(0 if same else 1)
PY
done
[ -x "$NCU" ] || { echo "gpu_devfn: ncu not found"; exit 1; }
for shape in "${shapes[@]}"; do
  IFS='|' read -r prog args kernels <<< "$shape"
  for build in "$prog.plain" "$prog" "$prog.percall"; do
    # shellcheck disable=SC2086
    (cd "$bin" && PASTA_OUTPUT=$W/$build.big.json timeout 600 "$NCU" --csv --page raw \
      --print-units base --metrics gpu__time_duration.sum -k "regex:^($kernels)\$" \
      --log-file "$W/$build.csv" "./$build" $args) > "$W/$build.big.out" 2>&1 ||
      { echo "$build: ncu or the program failed"; status=1; }
  done
done
python3 - "$W" "${shapes[@]}" > "$OUT/devfn.md" <<'PY' || status=1
import csv, sys
w, shapes = sys.argv[1], sys.argv[2:]
def base(name):  # "assign(float const*, ...)" -> "assign"
    return name.split("(")[0].split("<")[0].strip().split(" ")[-1]
def times(prog):
    with open(f"{w}/{prog}.csv", newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    head, data = rows[0], rows[2:]  # rows[1] holds the units
    k, t = head.index("Kernel Name"), head.index("gpu__time_duration.sum")
    out = {}
    for r in data:
        out[base(r[k])] = out.get(base(r[k]), 0.0) + float(r[t].replace(",", ""))
    return out
print("ncu gpu__time_duration.sum, ns, summed over each kernel's launches\n")
print("| program (args) | kernel | plain | counting | ratio | flush per call | ratio |")
print("|---|---|---|---|---|---|---|")
for shape in shapes:
    prog, args = shape.split("|")[:2]
    plain, counting, percall = (times(prog + s) for s in (".plain", "", ".percall"))
    for k in sorted(plain):
        p, c, f = plain[k], counting.get(k, 0), percall.get(k, 0)
        print(f"| {prog} ({args}) | {k} | {p:.0f} | {c:.0f} | {c / p:.2f}x | {f:.0f} | {f / p:.2f}x |")
PY
cat "$OUT/devfn.md"
exit $status
