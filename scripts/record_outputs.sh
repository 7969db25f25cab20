#!/usr/bin/env bash
# Records every output of a PASTA build that must not change when the code is
# restructured ([arch]: "behaviour unchanged"), so that two builds can be
# compared byte for byte: `scripts/record_outputs.sh BUILD_A OUT_A`,
# `scripts/record_outputs.sh BUILD_B OUT_B`, `diff -r OUT_A OUT_B`.
#  - the host-code fixture profiles (as tests/integration/profiles/
#    regenerate.sh records them) and the tables the programs print, with the
#    process id and the time of day replaced by fixed values;
#  - pasta-report show (table, csv, json, --lines), html, diff and merge over every
#    recorded fixture (tests/fixtures, tests/integration/profiles);
#  - profiles with the sections the fixtures leave empty (copy resources,
#    trace loop allocations and reuse groups), shown, merged and as HTML;
#  - pasta-report's other paths: filters, merge --force and over a merged
#    profile, the fuzz regression inputs, damaged profiles (truncated JSON,
#    wrong schema or version, numbers too large, bad members) and command-
#    line errors, each with its exit status.
# usage: record_outputs.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report=$build/bin/pasta-report
# pid, time stamps and the temporary directory differ from run to run.
normalize() {
  sed -E -e 's/"pid":[0-9]+/"pid":0/g' -e 's/pid [0-9]+/pid N/g' \
    -e 's/"created":"[^"]*"/"created":"T"/g' \
    -e "s#$work#WORK#g" -e "s#$out#OUT#g" -e 's/\.[0-9]+\.json/.PID.json/g'
}

cd "$repo"
for spec in dot_scale:-O2 recursion:-O0 scopes:-O0; do
  name=${spec%%:*} opt=${spec#*:}
  PASTA_HOST=1 clang-22 "$opt" -g -fdebug-prefix-map="$repo=." \
    -fpass-plugin="$build/lib/libpasta.so" "tests/host/$name.c" \
    -o "$work/$name" "$build/lib/libpasta_rt.a"
  (cd "$work" && PASTA_OUTPUT="$work/host_$name.json" "./$name" \
    > "$work/$name.stdout" 2> "$work/$name.stderr") || true
  for f in host_$name.json $name.stdout $name.stderr; do
    normalize < "$work/$f" > "$out/run.$f"
  done
done

fixtures=(tests/fixtures/*.json tests/integration/profiles/*.json)
for f in "${fixtures[@]}"; do
  b=$(basename "$f" .json)
  for fmt in table csv json; do
    "$report" show "$f" --format "$fmt" > "$out/show.$b.$fmt" 2>&1 || echo "rc=$?" >> "$out/show.$b.$fmt"
  done
  "$report" show "$f" --format csv --lines > "$out/show.$b.lines.csv" 2>&1 || true
  "$report" show "$f" --kernel . --top 3 > "$out/show.$b.kernel" 2>&1 || true
  "$report" html "$f" -o "$work/page.html" > "$work/html.log" 2>&1 || echo "rc=$?" >> "$work/html.log"
  { normalize < "$work/html.log"; [ -f "$work/page.html" ] && normalize < "$work/page.html"; } > "$out/html.$b.html"
  rm -f "$work/page.html"
done
"$report" html --diff tests/integration/profiles/gpu_saxpy_stencil.json tests/fixtures/working_set.ws.json \
  -o "$work/diff.html" > "$out/html.diff.log" 2>&1 || echo "rc=$?" >> "$out/html.diff.log"
[ -f "$work/diff.html" ] && normalize < "$work/diff.html" > "$out/html.diff.html"
for a in "${fixtures[@]}"; do
  for b in "${fixtures[@]}"; do
    [ "$a" = "$b" ] && continue
    "$report" diff "$a" "$b" > "$out/diff.$(basename "$a" .json).$(basename "$b" .json)" 2>&1 || true
  done
done
"$report" merge "$work/merged.json" "${fixtures[@]}" > "$work/merge.log" 2>&1 || true
normalize < "$work/merge.log" > "$out/merge.log"
[ -f "$work/merged.json" ] && normalize < "$work/merged.json" > "$out/merged.json"
"$report" merge "$work/merged_host.json" tests/integration/profiles/host_*.json > /dev/null 2>&1 || true
[ -f "$work/merged_host.json" ] && normalize < "$work/merged_host.json" > "$out/merged_host.json"

# One pasta-report run: its output (stdout and stderr) and exit status.
case_() {
  local name=$1
  shift
  local rc=0
  "$report" "$@" > "$work/case.out" 2>&1 || rc=$?
  { normalize < "$work/case.out"; echo "rc=$rc"; } > "$out/case.$name"
}
gpu=tests/integration/profiles/gpu_saxpy_stencil.json
ws=tests/fixtures/working_set.ws.json
tr=tests/fixtures/trace_scopes.json
case_ csv-kernel show "$gpu" --format csv --kernel sax
case_ csv-file show "$ws" --format csv --file .cu
case_ json-kernel show "$ws" --format json --kernel 'a|_Z' --file .c
case_ json-top show "$gpu" --format json --top 2
case_ table-file show "$tr" --file scopes --top 1
case_ lines-top show "$tr" --format csv --lines --top 2
case_ kernel-none show "$gpu" --kernel no_such_kernel
if [ -f "$work/merged.json" ]; then
  for fmt in table csv json; do
    case_ merged-$fmt show "$work/merged.json" --format $fmt
    case_ merged-kernel-$fmt show "$work/merged.json" --format $fmt --kernel . --file c
  done
  case_ merged-diff diff "$work/merged.json" "$gpu"
  case_ merged-diff2 diff "$tr" "$work/merged.json"
  case_ merge-exists merge "$work/merged.json" "$gpu"
  case_ merge-force merge "$work/merged.json" "$work/merged.json" "$gpu" --force
  case_ merge-force-file show "$work/merged.json" --format json
  case_ merge-merged merge "$work/merged2.json" "$work/merged.json" "$ws"
  case_ merge-merged-file show "$work/merged2.json" --format json
fi
mkdir -p "$work/dir" "$work/empty"
cp "$ws" "$tr" "$work/dir/"
case_ merge-dir merge "$work/m_dir.json" "$work/dir"
case_ merge-dir-file show "$work/m_dir.json" --format json
case_ merge-glob merge "$work/m_glob.json" "$work/dir/*.json"
case_ merge-glob-file show "$work/m_glob.json" --format json
case_ merge-nomatch merge "$work/m_x.json" "$work/dir/*.nothing"
case_ merge-empty merge "$work/m_y.json" "$work/empty"
case_ merge-one merge "$work/m_z.json"
for f in fuzz/regressions/*/*; do
  b=$(basename "$f")
  case_ reg-$b-show show "$f"
  case_ reg-$b-json show "$f" --format json
  case_ reg-$b-csv show "$f" --format csv
  case_ reg-$b-diff diff "$f" "$gpu"
  rm -f "$work/m_reg.json"
  case_ reg-$b-merge merge "$work/m_reg.json" "$f" "$ws"
  [ -f "$work/m_reg.json" ] && normalize < "$work/m_reg.json" > "$out/reg-$b.merged.json"
done
# Sections the recorded fixtures leave empty, filled in by hand: copy
# resources (on every kernel, one figure unknown) and the trace analyses'
# loop allocations and reuse groups.
python3 - "$ws" "$tr" "$work/resources.json" "$work/trace_rows.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["version"] = 6
for i, k in enumerate(d["launches"]["kernels"]):
    copy = lambda regs, blocks: {"registers": regs, "local_bytes": 8 * i,
        "shared_bytes": 0, "max_threads_per_block": 1024,
        "blocks_per_sm": blocks, "occupancy": blocks / 8}
    k["resources"] = {"block_threads": 256, "dynamic_shared_bytes": 16,
                      "warp_size": 32, "max_threads_per_sm": 2048,
                      "plain": copy(None if i == 1 else 32, 8),
                      "counting": copy(40, 6)}
json.dump(d, open(sys.argv[3], "w"))
t = json.load(open(sys.argv[2]))
t["trace"]["loop_allocations"] = [
    {"file": "a.c", "line": 7, "loop_id": 3, "loop_file": "a.c",
     "loop_line": 5, "loop_depth": 2, "allocations": 10, "bytes": 4096},
    {"file": "b,c.c", "line": 70, "loop_id": 99999999999, "loop_file": "",
     "loop_line": 50, "loop_depth": 1, "allocations": 1, "bytes": 1}]
t["trace"]["reuse"] = {"saving_bytes": 192, "groups": [
    {"size": 64, "kind": "device", "buffers": 5, "max_live": 2,
     "saving_bytes": 192}]}
json.dump(t, open(sys.argv[4], "w"))
PY
for f in resources trace_rows; do
  for fmt in table csv json; do
    case_ $f-$fmt show "$work/$f.json" --format $fmt
  done
  case_ $f-merge merge "$work/m_$f.json" "$work/$f.json" "$gpu"
  [ -f "$work/m_$f.json" ] && normalize < "$work/m_$f.json" > "$out/$f.merged.json"
  case_ $f-merged-csv show "$work/m_$f.json" --format csv
  "$report" html "$work/$f.json" -o "$work/$f.html" > /dev/null 2>&1 || true
  [ -f "$work/$f.html" ] && normalize < "$work/$f.html" > "$out/$f.html"
done
# Damaged profiles, each made from a fixture.
bad=$work/bad
mkdir -p "$bad"
head -c 700 "$gpu" > "$bad/truncated.json"
sed 's/"pasta-profile"/"pasta-profil"/' "$gpu" > "$bad/schema.json"
sed 's/"version":1/"version":99/' "$gpu" > "$bad/version.json"
sed 's/"version":1/"version":"1"/' "$gpu" > "$bad/version_string.json"
sed 's/"pid":48213/"pid":18446744073709551616/' "$gpu" > "$bad/pid_too_large.json"
sed 's/"pid":48213/"pid":-3/' "$gpu" > "$bad/pid_negative.json"
sed 's/"launches":4,/"launches":18446744073709551615,/' "$gpu" > "$bad/big_launches.json"
sed 's/"launches":4,/"launches":9223372036854775808,/' "$gpu" > "$bad/big_launches2.json"
sed 's/"line":12,/"line":4294967296,/' "$gpu" > "$bad/line_range.json"
sed 's/"created":"[^"]*"/"created":"yesterday"/' "$gpu" > "$bad/created.json"
sed 's/"lines":/"lines_":/' "$gpu" > "$bad/no_lines.json"
sed 's/"kernels":\[/"kernels":{/' "$gpu" > "$bad/kernels_object.json"
sed 's/"kind":"kernel"/"kind":"gadget"/' "$gpu" > "$bad/kind.json"
sed 's/"name":"saxpy",/"name":"saxpy","name":"dup",/' "$gpu" > "$bad/duplicate.json"
printf '[1,2]' > "$bad/array.json"
: > "$bad/empty.json"
for f in "$bad"/*.json; do
  b=$(basename "$f" .json)
  case_ bad-$b-show show "$f"
  case_ bad-$b-json show "$f" --format json
  case_ bad-$b-csv show "$f" --format csv
  case_ bad-$b-diff diff "$gpu" "$f"
  rm -f "$work/m_bad.json"
  case_ bad-$b-merge merge "$work/m_bad.json" "$gpu" "$f"
  [ -f "$work/m_bad.json" ] && normalize < "$work/m_bad.json" > "$out/bad-$b.merged.json"
done
case_ missing-file show "$work/no_such.json"
case_ dir-as-profile show "$work/dir"
# Command-line errors and help.
case_ cli-none
case_ cli-help --help
case_ cli-help2 show -h
case_ cli-unknown frobnicate
case_ cli-option show "$gpu" --colour
case_ cli-option2 diff "$gpu" "$gpu" --kernel x
case_ cli-dash show -x
case_ cli-top show "$gpu" --top -1
case_ cli-top2 show "$gpu" --top=abc
case_ cli-top3 show "$gpu" --top=0
case_ cli-format show "$gpu" --format xml
case_ cli-lines show "$gpu" --lines
case_ cli-lines2 show "$gpu" --lines=1 --format csv
case_ cli-regex show "$gpu" --kernel '('
case_ cli-value show "$gpu" --kernel
case_ cli-two show "$gpu" "$ws"
case_ cli-diff-one diff "$gpu"
case_ cli-search show "$gpu" --search-dir /nonexistent --search-dir=/tmp
case_ cli-long show "$gpu" --a-very-long-option-name-that-is-too-long=1
ls "$out" | wc -l | sed 's/$/ outputs recorded/'
