#!/usr/bin/env bash
# pasta-report on divergence-mode launches that ran no divergence copy (the
# kernel's "divergence" entry in "launches", docs/profile-format.md). The
# profile is tests/fixtures/coalescing.div.json (a recorded divergence
# profile, no launch table) with a launch table written in by hand here:
#   scale_strided: 5 launches, 3 measured, 2 not (blocks of 1,024 threads
#     no divergence copy takes): the text report, CSV, HTML and JSON must
#     say "divergence figures from 3 of 5 launches; 2 ran no divergence
#     copy (2 with blocks of 1024 threads, ...)" (the text report under the
#     launch table and under the divergence table);
#   transpose_conflicts: 2 launches, both measured: no note;
# then the profile without "divergence" (a profile written before it): no
# note; and merge of the profile with a copy of itself (counts summed:
# 6 of 10, the block the largest).
set -u
report=$1 fixtures=$2 work=$3
mkdir -p "$work"
. "$(dirname "$0")/lib/expect.sh"
python3 - "$fixtures/coalescing.div.json" "$work/div.json" "$work/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["version"] = 6
def kernel(k, launches):
    return {"name": k["name"], "mangled": k["mangled"], "launches": launches,
            "counted": launches, "ws_launches": 0, "failed": 0, "timed": 0,
            "gpu_time_ns": {"total": 0, "min": 0, "max": 0, "mean": 0.0},
            "shapes": [], "call_paths": [], "ws_max_touched_bytes": 0,
            "ws_max_footprint_bytes": 0}
scale, transpose = d["kernels"]
d["launches"] = {"total": 7, "counted": 7, "untimed": 7, "gpu_time_ns": 0,
                 "window": {"start": 0, "end": None, "kernels": None},
                 "kernels": [kernel(scale, 5), kernel(transpose, 2)]}
json.dump(d, open(sys.argv[3], "w"))  # before the field
reasons = ["block", "driver_handle", "graph", "trace", "refused", "window",
           "working_set"]
def div(measured, **by):
    return {"launches_measured": measured,
            "launches_not_measured": sum(by.values()),
            "not_measured": {r: by.get(r, 0) for r in reasons},
            "block_threads": 1024 if by.get("block") else 0}
d["launches"]["kernels"][0]["divergence"] = div(3, block=2)
d["launches"]["kernels"][1]["divergence"] = div(2)
json.dump(d, open(sys.argv[2], "w"))
PY
div=$work/div.json
note="divergence figures from 3 of 5 launches; 2 ran no divergence copy (2 with blocks of 1024 threads, too large for its copies): the figures derived from thread-level counts (requested and distinct bytes, thread executions) may include those, the warp-level ones (requests, sectors, branches) do not"
out=$("$report" show "$div") || { echo "show failed"; exit 1; }
expect "$out" "pasta: divergence launches not measured"
expect "$out" "    note: $note"
[ "$(grep -c '    note: divergence figures' <<< "$out")" = 1 ] && ok || bad "not one note"
grep -B1 "note: divergence figures" <<< "$out" | grep -q "scale_strided" && ok ||
  bad "the note is not under scale_strided"
# And under the divergence table, naming the kernel.
grep -A4 "^divergence (warp-level" <<< "$out" |
  grep -qF "  note: scale_strided(float const*, float*, int): divergence figures from 3 of 5 launches" &&
  ok || bad "no note under the divergence table"
old=$("$report" show "$work/old.json") || { echo "show failed"; exit 1; }
absent "$old" "divergence launches not measured"
# CSV: the launches block ends with the figures.
"$report" show "$div" --format csv > "$work/div.csv" || { echo "csv failed"; exit 1; }
expect "$(cat "$work/div.csv")" ",divergence.launches_measured,divergence.launches_not_measured,divergence.not_measured.block,divergence.not_measured.driver_handle,"
python3 - "$work/div.csv" <<'PY' && ok || bad "csv figures of scale_strided"
import csv, io, sys
block = open(sys.argv[1]).read().split("# launches\n", 1)[1].split("\n\n", 1)[0]
rows = {r["name"].split("(")[0].split()[-1]: r for r in csv.DictReader(io.StringIO(block))}
s, t = rows["scale_strided"], rows["transpose_conflicts"]
sys.exit(0 if (s["divergence.launches_measured"], s["divergence.launches_not_measured"],
               s["divergence.not_measured.block"], s["divergence.block_threads"],
               t["divergence.launches_not_measured"])
         == ("3", "2", "2", "1024", "0") else 1)
PY
# JSON: the field written back as read.
"$report" show "$div" --format json > "$work/div.out.json" || bad "json failed"
python3 - "$work/div.out.json" <<'PY' && ok || bad "json figures"
import json, sys
d = json.load(open(sys.argv[1]))
k = {k["name"].split("(")[0].split()[-1]: k for k in d["launches"]["kernels"]}
v = k["scale_strided"]["divergence"]
sys.exit(0 if v["launches_measured"] == 3 and v["launches_not_measured"] == 2
         and v["not_measured"]["block"] == 2 and v["block_threads"] == 1024
         and k["transpose_conflicts"]["divergence"]["launches_measured"] == 2 else 1)
PY
# HTML: the note in scale_strided's article.
"$report" html "$div" -o "$work/div.html" > /dev/null 2>&1 || bad "html failed"
html=$(cat "$work/div.html" 2>/dev/null)
expect "$html" '<p class="warn div-coverage">Note: divergence figures from 3 of 5 launches; 2 ran no divergence copy (2 with blocks of 1024 threads'
[ "$(grep -o 'div-coverage' <<< "$html" | wc -l)" = 1 ] && ok || bad "not one note in the HTML"
# merge: summed, the block the largest.
rm -f "$work/merged.json"
cp "$div" "$work/div2.json"
"$report" merge "$work/merged.json" "$div" "$work/div2.json" > /dev/null 2>&1 ||
  bad "merge failed"
python3 - "$work/merged.json" <<'PY' && ok || bad "merged divergence launches"
import json, sys
d = json.load(open(sys.argv[1]))
k = {k["name"].split("(")[0].split()[-1]: k for k in d["launches"]["kernels"]}
v = k["scale_strided"]["divergence"]
sys.exit(0 if v["launches_measured"] == 6 and v["launches_not_measured"] == 4
         and v["not_measured"]["block"] == 4 and v["block_threads"] == 1024 else 1)
PY
checks_done report-div-launches
