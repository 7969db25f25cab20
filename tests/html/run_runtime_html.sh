#!/bin/sh
# PASTA_HTML=1 at exit (issue [source-view]): tests/host/dot_scale.c built
# with the plugin (PASTA_HOST=1) writes <profile>.html beside its profile,
# and only when asked; the page is then checked in headless Chromium against
# the profile it came with (check_html_report.py page; "skipped: no
# chromium" and exit 77 without one, after the checks that need none).
# usage: run_runtime_html.sh CLANG PLUGIN RUNTIME_LIB SOURCE_DIR WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 src=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
exe="$work/dot_scale"
PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" \
  "$src/tests/host/dot_scale.c" -o "$exe" "$rt"
fail=0
expect() { # expect NAME CONDITION...
  name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}

PASTA_OUTPUT="$work/plain.json" "$exe" >"$work/plain.out" 2>"$work/plain.err"
expect "without PASTA_HTML: no page" test ! -e "$work/plain.html"

PASTA_HTML=1 PASTA_OUTPUT="$work/dot.json" "$exe" >"$work/dot.out" \
  2>"$work/dot.err"
expect "the program still passes" grep -q "dot_scale: PASSED" "$work/dot.out"
expect "PASTA_HTML=1: the page beside the profile" test -s "$work/dot.html"
expect "the log says where it went" \
  grep -qF "pasta: HTML report written to $work/dot.html" "$work/dot.err"
expect "nothing else on stderr but notes and tables" \
  sh -c "! grep -q 'pasta: \(error\|warning\)' '$work/dot.err'"
[ $fail = 0 ] || exit 1
exec python3 "$src/tests/html/check_html_report.py" page "$work/dot.html" \
  "$work/dot.json" "$src"
