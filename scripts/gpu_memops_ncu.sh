#!/usr/bin/env bash
# Device memcpy/memset of run-time length against Nsight Compute
# (tests/structures/memops/memops.cu, which derives every figure). Runs the
# instrumented structure, checks its profile against the source's EXPECT
# lines, then ncu on the plain twin, and prints per kernel PASTA's bytes
# beside ncu's (sm__sass_data_bytes_mem_{global,shared}_op_{ld,st}.sum: they
# must be equal) and the global load instructions (which differ: ncu counts
# the byte loop the back end makes of each call, PASTA the call).
# Build and carry:
#   scripts/build_structures.sh build/gpu-memops memops
#   cp build/lib/libpasta_rt.so build/gpu-memops/
#   run(command="bash scripts/gpu_memops_ncu.sh build/gpu-memops", carry=["build/gpu-memops"])
# Also memops-O0, the same at -O0 (the EXPECT lines hold there too).
# Results: $OUT/memops.md, $OUT/memops/<program>/ (profile, ncu CSV, logs).
set -u
cd "$(dirname "$0")/.." || exit 1
bin=$(cd "${1:-build/gpu-memops}" && pwd)
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/memops
mkdir -p "$W"
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# shellcheck source=scripts/lib/gpu.sh
. scripts/lib/gpu.sh
NCU=$(pasta_find_ncu)
status=0
metrics=sm__sass_data_bytes_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_st.sum
metrics=$metrics,sm__sass_data_bytes_mem_shared_op_ld.sum,sm__sass_data_bytes_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_inst_executed_op_global_ld.sum
: > "$OUT/memops.md"
# PROGRAM: memops (-O2, must agree with ncu) or memops-O0 (every pointer
# generic, resolved at run time: its counts must pass the EXPECT lines; its
# ncu bytes are shown, since generic LD/ST in SASS may not count as global).
one() {
  local prog=$1 rc=0
  local d=$W/$prog
  mkdir -p "$d"
  (cd "$bin" && "./$prog.plain") > "$d/plain.out" 2>&1 || rc=1
  (cd "$bin" && PASTA_OUTPUT=$d/profile.json "./$prog") > "$d/pasta.out" 2> "$d/pasta.err" || rc=1
  cmp -s "$d/plain.out" "$d/pasta.out" || { echo "$prog: stdout differs"; rc=1; }
  python3 tests/structures/check_structure.py "$d/profile.json" \
    tests/structures/memops/memops.cu --stderr "$d/pasta.err" | tee "$d/check.txt"
  tail -n 1 "$d/check.txt" | grep -q "RESULT: ok" || rc=1
  if [ -x "$NCU" ]; then
    (cd "$bin" && timeout 300 "$NCU" --csv --page raw --print-units base \
      --metrics "$metrics" --log-file "$d/ncu.csv" "./$prog.plain") > /dev/null 2>&1 ||
      { echo "$prog: ncu failed"; rc=1; }
  else
    echo "$prog: ncu not found"; rc=1
  fi
  echo "## $prog" >> "$OUT/memops.md"
  python3 - "$d/profile.json" "$d/ncu.csv" >> "$OUT/memops.md" <<'EOF' || { [ "$prog" = memops ] && rc=1; }
import csv, json, sys
def base(name):  # "void pack(char const*, ...)" -> "pack"
    return name.split("(")[0].split("<")[0].strip().split(" ")[-1]
prof = json.load(open(sys.argv[1]))
with open(sys.argv[2], newline="") as f:
    rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
header, data = rows[0], rows[2:]  # rows[1] holds the units
ncu = {}
for r in data:
    ncu.setdefault(base(r[header.index("Kernel Name")]), []).append(r)
def metric(r, m):
    return int(float(r[header.index(m)].replace(",", "")))
pairs = [("load_bytes", "global", "sm__sass_data_bytes_mem_global_op_ld.sum"),
         ("store_bytes", "global", "sm__sass_data_bytes_mem_global_op_st.sum"),
         ("load_bytes", "shared", "sm__sass_data_bytes_mem_shared_op_ld.sum"),
         ("store_bytes", "shared", "sm__sass_data_bytes_mem_shared_op_st.sum")]
print("| kernel | figure | PASTA | ncu | |")
print("|---|---|---|---|---|")
bad = 0
for k in prof["kernels"]:
    mine = ncu.get(base(k["name"]), [])
    if len(mine) != 1:
        print(f"| {k['name']} | | | {len(mine)} ncu rows | FAIL |")
        bad += 1
        continue
    for field, space, m in pairs:
        ours, theirs = k[field][space], metric(mine[0], m)
        bad += ours != theirs
        print(f"| {k['name']} | {m} | {ours:,} | {theirs:,} | {'ok' if ours == theirs else 'DIFFERS'} |")
    ld = metric(mine[0], "smsp__sass_inst_executed_op_global_ld.sum")
    print(f"| {k['name']} | global loads: PASTA per thread, ncu per warp | {k['loads']['global']:,} | {ld:,} | (the byte loop) |")
sys.exit(1 if bad else 0)
EOF
  echo >> "$OUT/memops.md"
  return $rc
}
one memops || status=1
one memops-O0 || status=1
cat "$OUT/memops.md"
exit $status
