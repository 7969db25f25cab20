#!/usr/bin/env bash
# pasta-report on divergence figures (schema 4): show, merge and diff of the
# fixtures tests/fixtures/gen_coalescing_div.py writes, the figures of
# test_kernels/coalescing.cu at n = 1024 derived from its source:
#   scale_strided: 65536 global requests (a load and a store per warp,
#     32768 warps), 32 sectors each = 2,097,152, ideal 4 each = 262,144, so
#     1,835,008 (1.84M) excess sectors, all at coalescing.cu:42;
#   transpose_conflicts: 32,768 shared reads by column at line 62, 31
#     conflicts each = 1,015,808 (1.02M);
#   the fixed builds: no excess sector, no conflict.
# merge adds them (strided + fixed sectors: 2,097,152 + 262,144).
set -u
report=$1 fixtures=$2 work=$3
mkdir -p "$work"
before=$fixtures/coalescing.div.json after=$fixtures/coalescing-fixed.div.json
pass=0 fail=0
expect() { # expect TEXT NEEDLE
  if grep -qF -- "$2" <<< "$1"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "missing: $2"; fi
}
out=$("$report" show "$before") || { echo "show failed"; exit 1; }
expect "$out" "divergence (warp-level"
expect "$out" "top lines by excess sectors:"
expect "$out" "top lines by bank conflicts:"
if grep -qE '^  coalescing\.cu:42 +1\.84M +2\.10M +262K +32\.00 +scale_strided' <<< "$out"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "no excess-sector row for line 42"; fi
if grep -qE '^  coalescing\.cu:62 +1\.02M +32768 +32\.00 ' <<< "$out"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "no bank-conflict row for line 62"; fi
# Line 58's conflict-free writes are in no top table.
if grep -q 'coalescing\.cu:58' <<< "$out"; then
  fail=$((fail + 1)); echo "line 58 listed"; else pass=$((pass + 1)); fi
# The fixed profile: the divergence table, no top table by sectors or conflicts.
fixed=$("$report" show "$after") || { echo "show failed"; exit 1; }
expect "$fixed" "divergence (warp-level"
if grep -q "top lines by excess sectors\|top lines by bank conflicts" <<< "$fixed"; then
  fail=$((fail + 1)); echo "fixed profile has a top table"; else pass=$((pass + 1)); fi
# CSV: the function and line tables end with the twelve figures.
csv=$("$report" show "$before" --format csv --lines) || { echo "csv failed"; exit 1; }
expect "$csv" ",divergence.requests_global,divergence.requests_shared,"
if python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
r = [x for x in rows if x["line"] == "62"][0]
sys.exit(0 if r["divergence.bank_conflicts"] == "1015808" and r["divergence.sectors"] == "131072" else 1)
' <<< "$csv"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "csv line 62 figures"; fi
diff_out=$("$report" diff "$before" "$after") || { echo "diff failed"; exit 1; }
expect "$diff_out" "Divergence (before -> after):"
expect "$diff_out" "1835008 -> 0 (-1835008)"
expect "$diff_out" "1015808 -> 0 (-1015808)"
"$report" merge "$work/merged.json" "$before" "$after" --force > /dev/null ||
  { echo "merge failed"; exit 1; }
merged=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in d["kernels"]:
    print(k["mangled"], k["divergence"]["sectors"], k["divergence"]["bank_conflicts"])
' "$work/merged.json")
expect "$merged" "_Z13scale_stridedPKfPfi 2359296 0"
expect "$merged" "_Z19transpose_conflictsPKfPfi 524288 1015808"
# A malformed figure: one clear error line, exit status 1.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["kernels"][0]["divergence"]["sectors"] = -1
json.dump(d, open(sys.argv[2], "w"))
' "$before" "$work/bad.json"
bad=$("$report" show "$work/bad.json" 2>&1); rc=$?
[ $rc -ne 0 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "bad profile accepted"; }
expect "$bad" 'kernels[0].divergence: "sectors" is not an unsigned integer'
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
