#!/usr/bin/env bash
# Kernel time of non-inlined device functions (issue [overhead-3]; the
# structure tests/structures/devfn/devfn.cu): the plain build and the
# counting build (today a device function flushes its counts at every
# return), each under Nsight Compute (gpu__time_duration.sum per kernel), at the clustering size:
# 2^22 threads x 32 centers = 134M calls of dist (the seen kernel made
# 27.9M). Also checks the default-size counts against the EXPECT lines.
# Build and carry:
#   scripts/build_structures.sh build/gpu-devfn devfn
#   cp build/lib/libpasta_rt.so build/gpu-devfn/
#   run(command="bash scripts/gpu_devfn.sh build/gpu-devfn", carry=["build/gpu-devfn"])
# Results: $OUT/devfn.md (a table), $OUT/devfn/ (ncu CSVs, profiles, logs).
set -u
cd "$(dirname "$0")/.." || exit 1
bin=$(cd "${1:-build/gpu-devfn}" && pwd)
args=(${PASTA_DEVFN_ARGS:-22 32})
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/devfn
mkdir -p "$W"
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# shellcheck source=scripts/lib/gpu.sh
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
status=0
for prog in devfn; do
  (cd "$bin" && PASTA_OUTPUT=$W/$prog.json "./$prog") > "$W/$prog.out" 2> "$W/$prog.err" || status=1
  python3 tests/structures/check_structure.py "$W/$prog.json" \
    tests/structures/devfn/devfn.cu --stderr "$W/$prog.err" > "$W/$prog.check" || status=1
  tail -n 1 "$W/$prog.check"
done
[ -x "$NCU" ] || { echo "gpu_devfn: ncu not found"; exit 1; }
for prog in devfn.plain devfn; do
  (cd "$bin" && PASTA_OUTPUT=$W/$prog.big.json timeout 600 "$NCU" --csv --page raw \
    --print-units base --metrics gpu__time_duration.sum -k 'regex:^(assign|chain)$' \
    --log-file "$W/$prog.csv" "./$prog" "${args[@]}") > "$W/$prog.big.out" 2>&1 ||
    { echo "$prog: ncu or the program failed"; status=1; }
done
python3 - "$W" "${args[*]}" > "$OUT/devfn.md" <<'PY' || status=1
import csv, sys
w, args = sys.argv[1], sys.argv[2]
def base(name):  # "assign(float const*, ...)" -> "assign"
    return name.split("(")[0].split("<")[0].strip().split(" ")[-1]
def times(prog):
    with open(f"{w}/{prog}.csv", newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    head, data = rows[0], rows[2:]  # rows[1] holds the units
    k, t = head.index("Kernel Name"), head.index("gpu__time_duration.sum")
    return {base(r[k]): float(r[t].replace(",", "")) for r in data}
plain, counting = times("devfn.plain"), times("devfn")
print(f"devfn {args} (ncu gpu__time_duration.sum, ns)\n")
print("| kernel | plain | counting | ratio |")
print("|---|---|---|---|")
for k in sorted(plain):
    p, c = plain[k], counting.get(k, 0)
    print(f"| {k} | {p:.0f} | {c:.0f} | {c / p:.2f}x |")
PY
cat "$OUT/devfn.md"
exit $status
