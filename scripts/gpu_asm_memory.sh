#!/usr/bin/env bash
# Memory operations written in inline PTX against Nsight Compute
# (tests/structures/asmloads/asmloads.cu and asmcopy/asmcopy.cu derive
# every count; passes/InlineAsmMemory.h says which forms PASTA counts).
# Runs each instrumented structure and checks its profile against the
# source's EXPECT lines (asmloads also in working-set mode, and, where
# BIN/div holds its divergence build, in divergence mode: results and
# profile kept), then ncu on the plain twins, and prints per kernel PASTA's
# thread-level counts beside ncu's warp-level ones: global loads / 32
# against LDG and LDGSTS instructions, load bytes against sectors x 32,
# shared loads / 32 against LDS and LDSM instructions.
# Build and carry:
#   scripts/build_structures.sh build/gpu-asm asmcopy asmloads
#   PASTA_DIVERGENCE=1 scripts/build_structures.sh build/gpu-asm/div asmloads
#   cp build/lib/libpasta_rt.so build/gpu-asm/
#   run(command="bash scripts/gpu_asm_memory.sh build/gpu-asm", carry=["build/gpu-asm"])
# SRC=<dir> takes the structures' sources and check_structure.py from
# another tree (a staging). Results: $OUT/asm-memory.md, $OUT/asm-memory/.
set -u
cd "$(dirname "$0")/.." || exit 1
bin=$(cd "${1:-build/gpu-asm}" && pwd)
src=${SRC:-$PWD/tests/structures}
OUT=${OUT:-$PWD/gpu-out}
W=$OUT/asm-memory
mkdir -p "$W"
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu \
  /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
status=0
md=$OUT/asm-memory.md
: > "$md"

# NAME MODE PROGRAM [ENV...]: the instrumented run against the plain
# twin's stdout, then the EXPECT lines of MODE.
check() {
  local name=$1 mode=$2 prog=$3
  shift 3
  local d=$W/$name-$mode rc=0
  mkdir -p "$d"
  (cd "$(dirname "$bin/$prog")" && "./$(basename "$prog").plain") > "$d/plain.out" 2>&1 || rc=1
  (cd "$(dirname "$bin/$prog")" && env PASTA_OUTPUT="$d/profile.json" "$@" \
    "./$(basename "$prog")") > "$d/out" 2> "$d/err" || rc=1
  cmp -s "$d/plain.out" "$d/out" || { echo "$name/$mode: stdout differs"; rc=1; }
  local m=()
  [ "$mode" = return ] || m=(--mode "$mode")
  python3 "$src/check_structure.py" "$d/profile.json" "$src/$name/$name.cu" \
    "${m[@]}" --stderr "$d/err" > "$d/check.txt" 2>&1 || rc=1
  printf '| %s | %s | %s | %s |\n' "$name" "$mode" "$(head -n 1 "$d/out")" \
    "$(tail -n 1 "$d/check.txt")" >> "$md"
  [ $rc = 0 ] || status=1
}

{
  echo "## Structures (PASTA's counts against the hand-derived EXPECT lines)"
  echo
  echo "| structure | mode | stdout | check |"
  echo "|---|---|---|---|"
} >> "$md"
check asmcopy return asmcopy
check asmloads return asmloads
check asmloads ws asmloads PASTA_WORKING_SET=1
# Working set in pages of 256 bytes: bulk_tile's bulk copies (2,048 B from
# each block's start) cover every page of g16 only where the working set
# marks all of a copy's pages (__pasta_ws_mark_range), not just its first:
# g16 524,288 B + out 131,072 B = 655,360 B touched (first pages only:
# 65,536 + 131,072 = 196,608).
d=$W/asmloads-ws256
mkdir -p "$d"
(cd "$bin" && env PASTA_OUTPUT="$d/profile.json" PASTA_WORKING_SET=1 \
  PASTA_PAGE_SIZE=256 ./asmloads) > "$d/out" 2> "$d/err"
python3 - "$d/profile.json" >> "$md" <<'EOF' || status=1
import json, sys
try:
    launches = json.load(open(sys.argv[1]))["working_set"]["per_launch"]
except (OSError, KeyError, ValueError):
    launches = []
got = [r.get("touched_bytes") for r in launches if "bulk_tile" in r.get("kernel", "")]
ok = got == [655360]
print("| asmloads | ws, 256-B pages | bulk_tile touched_bytes=%s | %s |"
      % (got, "ok" if ok else "FAIL: expected [655360]"))
sys.exit(0 if ok else 1)
EOF
if [ -x "$bin/div/asmloads" ]; then
  # Divergence mode: the counts as in counting mode; the inline PTX's
  # accesses have no figures of their own (not measured).
  cp "$bin/asmloads.plain" "$bin/div/" 2> /dev/null
  check asmloads div div/asmloads PASTA_DIVERGENCE=1
fi

# ncu: the metrics every GPU since Volta has, then those of the LDGSTS
# (cp.async) and LDSM (ldmatrix) instructions this GPU lists, in a run of
# their own (a name it lacks stops only that run).
base=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
base=$base,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
base=$base,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
base=$base,sm__sass_data_bytes_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_st.sum
base=$base,sm__sass_data_bytes_mem_shared_op_ld.sum,sm__sass_data_bytes_mem_shared_op_st.sum
if [ -x "$NCU" ]; then
  "$NCU" --query-metrics > "$W/query-metrics.txt" 2>&1
  extra=$(awk '{print $1}' "$W/query-metrics.txt" |
    grep -E '^(smsp__sass_inst_executed_op_(ldgsts|ldsm)|l1tex__t_(requests|sectors)_pipe_lsu_mem_global_op_ldgsts[a-z_]*|sm__sass_data_bytes_mem_shared_op_(ldsm|ldgsts)[a-z_]*|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld)$' |
    sed 's/$/.sum/' | paste -sd, -)
  echo "$extra" > "$W/extra-metrics.txt"
  for p in asmcopy asmloads; do
    (cd "$bin" && timeout 60 "$NCU" --csv --page raw --print-units base \
      --metrics "$base" --log-file "$W/$p.ncu.csv" "./$p.plain") > /dev/null 2>&1 ||
      { echo "$p: ncu failed"; status=1; }
    if [ -n "$extra" ]; then
      (cd "$bin" && timeout 60 "$NCU" --csv --page raw --print-units base \
        --metrics "$extra" --log-file "$W/$p.ncu-extra.csv" "./$p.plain") > /dev/null 2>&1 ||
        echo "$p: ncu (LDGSTS/LDSM metrics) failed"
    fi
  done
else
  echo "ncu not found"
  status=1
fi

echo >> "$md"
echo "## PASTA (thread level) against Nsight Compute (warp level), plain builds" >> "$md"
python3 - "$W" >> "$md" <<'EOF' || status=1
import csv, json, os, sys
W = sys.argv[1]

def base(name):  # "async_tiles(uint4 const*, ...)" -> "async_tiles"
    return name.split("(")[0].split("<")[0].strip().split(" ")[-1]

def ncu_rows(path):
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    if len(rows) < 3:
        return {}
    header, out = rows[0], {}
    for r in rows[2:]:  # rows[1] holds the units
        d = out.setdefault(base(r[header.index("Kernel Name")]), {})
        for i, h in enumerate(header):
            if "__" in h:
                try:
                    d[h] = int(float(r[i].replace(",", "")))
                except ValueError:
                    pass
    return out

for prog in ("asmcopy", "asmloads"):
    prof_path = os.path.join(W, prog + "-return", "profile.json")
    if not os.path.exists(prof_path):
        print(f"\n{prog}: no profile")
        continue
    prof = json.load(open(prof_path))
    ncu = ncu_rows(os.path.join(W, prog + ".ncu.csv"))
    for k, v in ncu_rows(os.path.join(W, prog + ".ncu-extra.csv")).items():
        ncu.setdefault(k, {}).update(v)
    for k in prof["kernels"]:
        m = ncu.get(base(k.get("display") or k["name"]), ncu.get(base(k["name"]), {}))
        print(f"\n### {k['name']}\n")
        print("| PASTA | value | / 32 | ncu | value |")
        print("|---|---|---|---|---|")
        pairs = [
            ("loads.global", k["loads"]["global"], True,
             ["smsp__sass_inst_executed_op_global_ld.sum",
              "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
              "smsp__sass_inst_executed_op_ldgsts.sum",
              "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"]),
            ("load_bytes.global", k["load_bytes"]["global"], False,
             ["sm__sass_data_bytes_mem_global_op_ld.sum",
              "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum x 32"] +
             [h + " x 32" for h in sorted(m) if "sectors" in h and "ldgsts" in h]),
            ("stores.global", k["stores"]["global"], True,
             ["smsp__sass_inst_executed_op_global_st.sum"]),
            ("store_bytes.global", k["store_bytes"]["global"], False,
             ["sm__sass_data_bytes_mem_global_op_st.sum"]),
            ("loads.shared", k["loads"]["shared"], True,
             ["smsp__sass_inst_executed_op_shared_ld.sum",
              "smsp__sass_inst_executed_op_ldsm.sum"]),
            ("load_bytes.shared", k["load_bytes"]["shared"], False,
             ["sm__sass_data_bytes_mem_shared_op_ld.sum"] +
             [h for h in sorted(m) if h.startswith("sm__sass_data_bytes_mem_shared_op_ldsm")]),
            ("stores.shared", k["stores"]["shared"], True,
             ["smsp__sass_inst_executed_op_shared_st.sum"]),
            ("store_bytes.shared", k["store_bytes"]["shared"], False,
             ["sm__sass_data_bytes_mem_shared_op_st.sum"] +
             [h for h in sorted(m) if h.startswith("sm__sass_data_bytes_mem_shared_op_ldgsts")]),
        ]
        for name, ours, per_warp, metrics in pairs:
            first = True
            for met in metrics:
                times = 32 if met.endswith(" x 32") else 1
                key = met.replace(" x 32", "")
                got = m.get(key)
                shown = "-" if got is None else f"{got * times:,}"
                print(f"| {name if first else ''} | {f'{ours:,}' if first else ''} | "
                      f"{(f'{ours / 32:,.0f}' if per_warp else '') if first else ''} | {met} | {shown} |")
                first = False
EOF
cat "$md"
exit $status
