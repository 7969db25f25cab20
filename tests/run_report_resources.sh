#!/usr/bin/env bash
# pasta-report on the registers, local memory and occupancy of each
# kernel's plain and counting copies (profile version 5, "resources"). The
# profile is tests/fixtures/working_set.ws.json (a recorded version 1
# profile) with resources written in by hand here, on a GPU of 2048 threads
# per SM and warps of 32, at blocks of 256 threads (8 warps):
#   fill: plain 32 registers, 8 blocks per SM (64 warps: 100%); counting 40
#     registers, 6 blocks (48 warps: 75%), local memory 0 -> 0: a note
#     naming registers 32 -> 40 and occupancy 100% -> 75%;
#   copy: plain 20, counting 24 registers, 8 blocks per SM each, no local
#     memory: no note (more registers that cost no occupancy);
#   bump_global: the same occupancy, local memory 0 -> 32 bytes per thread:
#     a note naming local memory;
# then: the version 1 profile as it is (no resources: no table, no note),
# CSV columns, the HTML report, and merge (the first input's figures kept);
# last, a kernel whose register-capped counting copy ran.
set -u
report=$1 fixtures=$2 work=$3
mkdir -p "$work"
. "$(dirname "$0")/lib/expect.sh"
python3 - "$fixtures/working_set.ws.json" "$work/resources.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["version"] = 5
def copy(regs, local, blocks):  # occupancy as the runtime writes it
    return {"registers": regs, "local_bytes": local, "shared_bytes": 0,
            "max_threads_per_block": 1024, "blocks_per_sm": blocks,
            "occupancy": blocks * 8 / 64}
figures = {"fill": (copy(32, 0, 8), copy(40, 0, 6)),
           "copy": (copy(20, 0, 8), copy(24, 0, 8)),
           "bump_global": (copy(16, 0, 8), copy(16, 32, 8))}
for k in d["launches"]["kernels"]:
    plain, counting = figures[k["name"]]
    k["resources"] = {"block_threads": 256, "dynamic_shared_bytes": 0,
                      "warp_size": 32, "max_threads_per_sm": 2048,
                      "plain": plain, "counting": counting}
json.dump(d, open(sys.argv[2], "w"))
PY
res=$work/resources.json
out=$("$report" show "$res") || { echo "show failed"; exit 1; }
expect "$out" "pasta: registers, local memory and occupancy (plain -> counting copy"
if grep -qE '^  fill +256 +32 -> 40 +0 -> 0 +100% -> 75%$' <<< "$out"; then ok; else bad "fill's row"; fi
if grep -qE '^  copy +256 +20 -> 24 +0 -> 0 +100% -> 100%$' <<< "$out"; then ok; else bad "copy's row"; fi
expect "$out" "    note: the counting copy raised registers 32 -> 40 and lowered occupancy 100% -> 75%: timings of this kernel's counted launches may be perturbed"
expect "$out" "    note: the counting copy raised local memory (stack, spills) 0 -> 32 bytes per thread: timings"
[ "$(grep -c '    note: the counting copy' <<< "$out")" = 2 ] && ok || bad "not two notes"
# The note follows its kernel's row.
grep -A1 -E '^  fill +256' <<< "$out" | grep -q 'note: the counting copy raised registers 32 -> 40' && ok ||
  bad "fill's note is not under its row"
grep -A1 -E '^  copy +256' <<< "$out" | grep -q 'note:' && bad "copy has a note" || ok
# A profile without resources (version 1): no table, no note.
old=$("$report" show "$fixtures/working_set.ws.json") || { echo "show failed"; exit 1; }
absent "$old" "registers, local memory and occupancy"
absent "$old" "note: the counting copy"
# CSV: the launches block ends with the figures.
"$report" show "$res" --format csv > "$work/resources.csv" || { echo "csv failed"; exit 1; }
expect "$(cat "$work/resources.csv")" ",resources.block_threads,resources.plain.registers,resources.counting.registers,"
python3 - "$work/resources.csv" <<'PY' && ok || bad "csv figures of fill"
import csv, io, sys
block = open(sys.argv[1]).read().split("# launches\n", 1)[1].split("\n\n", 1)[0]
f = {r["name"]: r for r in csv.DictReader(io.StringIO(block))}["fill"]
sys.exit(0 if (f["resources.plain.registers"], f["resources.counting.registers"],
               f["resources.plain.blocks_per_sm"], f["resources.counting.blocks_per_sm"],
               float(f["resources.plain.occupancy"]), float(f["resources.counting.occupancy"]))
         == ("32", "40", "8", "6", 1.0, 0.75) else 1)
PY
# HTML: the figures and the note in fill's article, the list of kernels
# counting changes under the kernel table.
"$report" html "$res" -o "$work/resources.html" > /dev/null 2>&1 || bad "html failed"
html=$(cat "$work/resources.html" 2>/dev/null)
expect "$html" 'registers 32 -&gt; 40, local memory 0 -&gt; 0 bytes per thread, occupancy 100% -&gt; 75%.'
expect "$html" '<p class="warn resources-note">Note: the counting copy raised registers 32 -&gt; 40 and lowered occupancy 100% -&gt; 75%'
expect "$html" '<p class="warn" id="perturbed">Counting changes the registers, local memory or occupancy of: '
[ "$(grep -o 'resources-note' <<< "$html" | wc -l)" = 2 ] && ok || bad "not two notes in the HTML"
# merge: the first input's figures (here both inputs have the same).
rm -f "$work/merged.json"
"$report" merge "$work/merged.json" "$res" "$fixtures/working_set.ws.json" > /dev/null 2>&1 ||
  bad "merge failed"
python3 - "$work/merged.json" <<'PY' && ok || bad "merged resources"
import json, sys
d = json.load(open(sys.argv[1]))
r = {k["name"]: k.get("resources") for k in d["launches"]["kernels"]}
sys.exit(0 if d["version"] == 6 and r["fill"]["counting"]["registers"] == 40
         and r["fill"]["plain"]["blocks_per_sm"] == 8 else 1)
PY
# A kernel whose register-capped counting copy ran ("capped": its counting
# copy, 128 registers, takes blocks of at most 512 threads; the launch had
# 1,024): its row shows plain -> the capped copy (56 -> 64 registers, 0 ->
# 200 bytes of local memory, 2 blocks per SM each: 100% -> 100%), its note
# says the launches were counted by that copy, and CSV has its figures.
python3 - "$res" "$work/capped.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def copy(regs, local, most, blocks):
    return {"registers": regs, "local_bytes": local, "shared_bytes": 0,
            "max_threads_per_block": most, "blocks_per_sm": blocks,
            "occupancy": blocks * 32 / 64}
k = [k for k in d["launches"]["kernels"] if k["name"] == "copy"][0]
k["resources"] = {"block_threads": 1024, "dynamic_shared_bytes": 0,
                  "warp_size": 32, "max_threads_per_sm": 2048,
                  "plain": copy(56, 0, 1024, 2), "counting": copy(128, 0, 512, 0),
                  "capped": copy(64, 200, 1024, 2)}
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$report" show "$work/capped.json") || { echo "show failed"; exit 1; }
if grep -qE '^  copy +1024 +56 -> 64 +0 -> 200 +100% -> 100%$' <<< "$out"; then ok; else bad "capped copy's row"; fi
grep -A1 -E '^  copy +1024' <<< "$out" | grep -qF "note: the counting copy cannot run blocks of 1024 threads (registers 56 -> 128): such launches ran its register-capped copy, counted, with registers 56 -> 64, local memory (stack, spills) 0 -> 200 bytes per thread, occupancy 100% -> 100%: their timings may be perturbed" &&
  ok || bad "capped copy's note"
absent "$out" "uncounted"
"$report" show "$work/capped.json" --format csv > "$work/capped.csv" || bad "csv failed"
python3 - "$work/capped.csv" <<'PY' && ok || bad "csv figures of the capped copy"
import csv, io, sys
block = open(sys.argv[1]).read().split("# launches\n", 1)[1].split("\n\n", 1)[0]
rows = {r["name"]: r for r in csv.DictReader(io.StringIO(block))}
c, f = rows["copy"], rows["fill"]
sys.exit(0 if (c["resources.capped.registers"], c["resources.capped.local_bytes"],
               c["resources.counting.blocks_per_sm"], f["resources.capped.registers"])
         == ("64", "200", "0", "") else 1)
PY
"$report" html "$work/capped.json" -o "$work/capped.html" > /dev/null 2>&1 || bad "html failed"
expect "$(cat "$work/capped.html" 2>/dev/null)" 'Plain &rarr; register-capped counting copy, at the first capped launch'"'"'s block of 1024 threads: registers 56 -&gt; 64'
checks_done
