#!/bin/sh
# The runtime's exit tables of a host program (issue 46): host functions
# ranked by bytes + FLOPs (not calls), PASTA_TOP_LINES limiting every table,
# functions that never ran counted, not listed, the banner on a fresh line
# after a "\r" progress line, and source paths shown normalised.
# usage: run_host_tables.sh CLANG PLUGIN RUNTIME_LIB WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
exe="$work/rank"
# A path with "..": the tables show it normalised.
env PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" \
  "$here/host/../host/rank.c" -o "$exe" "$rt"
fail=0
check() { # DESCRIPTION COMMAND...
  d=$1
  shift
  if "$@"; then echo "ok   $d"; else echo "FAIL $d"; fail=1; fi
}
# The rows of the host function table, in order.
rows() {
  sed -n '/^  host function /,/^$/p' "$1" | sed '1d;/^$/d;/^  (/d' |
    awk '{print $1}'
}
PASTA_OUTPUT="$work/rank.json" "$exe" >/dev/null 2>"$work/all.txt"
rows "$work/all.txt" >"$work/all.rows"
check "costly (1 call, 9000 bytes + FLOPs) ranked above cheap (100 calls)" \
  sh -c "grep -n -x costly '$work/all.rows' | cut -d: -f1 >'$work/a' &&
         grep -n -x cheap '$work/all.rows' | cut -d: -f1 >'$work/b' &&
         [ \$(cat '$work/a') -lt \$(cat '$work/b') ] && [ \$(cat '$work/a') = 1 ]"
check "a function that never ran is not listed" \
  sh -c "! grep -q -x unused '$work/all.rows'"
check "... but counted" grep -q "more never ran" "$work/all.txt"
check "the banner starts on a fresh line after the program's CR" \
  grep -q '^== PASTA: profile of' "$work/all.txt"
check "no unnormalised path in the tables" \
  sh -c "! grep -q '/\\.\\./' '$work/all.txt'"
check "the normalised path is shown" grep -q "host/rank.c:" "$work/all.txt"
PASTA_TOP_LINES=1 PASTA_OUTPUT="$work/rank1.json" "$exe" >/dev/null \
  2>"$work/top1.txt"
rows "$work/top1.txt" >"$work/top1.rows"
check "PASTA_TOP_LINES=1 limits the host function table to 1 row" \
  sh -c "[ \$(wc -l <'$work/top1.rows') = 1 ] && grep -q -x costly '$work/top1.rows'"
check "... and says so" grep -q "host function: top 1 of" "$work/top1.txt"
exit $fail
