#!/usr/bin/env bash
# Records every output of a PASTA build that must not change when the code is
# restructured ([arch]: "behaviour unchanged"), so that two builds can be
# compared byte for byte: `scripts/record_outputs.sh BUILD_A OUT_A`,
# `scripts/record_outputs.sh BUILD_B OUT_B`, `diff -r OUT_A OUT_B`.
#  - the host-code fixture profiles (as tests/integration/profiles/
#    regenerate.sh records them) and the tables the programs print, with the
#    process id and the time of day replaced by fixed values;
#  - pasta-report show (table, csv, json, --lines), diff and merge over every
#    recorded fixture (tests/fixtures, tests/integration/profiles).
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
done
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
ls "$out" | wc -l | sed 's/$/ outputs recorded/'
