#!/usr/bin/env bash
# The screenshots of docs/user-guide.md ("The HTML report"): the report of
# the recorded lud profile (tests/fixtures/html/lud_ws.json) rendered by
# headless Chromium, the top of the page (docs/html-report.png) and its
# source view (docs/html-report-source.png: the same page with the sections
# above the source hidden, since headless Chromium does not scroll to a
# fragment before its screenshot); and the report of the divergence fixture
# of test_kernels/coalescing.cu (tests/fixtures/coalescing.div.json), its
# Divergence table and source view (docs/html-report-divergence.png).
# usage: scripts/html_screenshot.sh [PASTA_BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/pasta-report" html tests/fixtures/html/lud_ws.json \
  -o "$work/lud.html" --source-root .
sed 's|</head>|<style>header,#kernels,#pictures,#kernel-details,#working-set{display:none}</style></head>|' \
  "$work/lud.html" > "$work/source.html"
shot() { # shot PAGE PNG HEIGHT [WIDTH]
  chromium --headless --disable-gpu --no-sandbox --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size="${4:-1200}","$3" \
    --screenshot="$2" "file://$1" 2>/dev/null
}
shot "$work/lud.html" docs/html-report.png 1100
shot "$work/source.html" docs/html-report-source.png 1500

"$build/bin/pasta-report" html tests/fixtures/coalescing.div.json \
  -o "$work/coalescing.html" --source-root .
# Only the lines from the strided kernel to the transpose's reads.
sed 's|</head>|<style>header,#kernels,#pictures,#kernel-details,#working-set,section.source>p.note{display:none} table.code tbody tr:nth-child(-n+35),table.code tbody tr:nth-child(n+66){display:none}</style></head>|' \
  "$work/coalescing.html" > "$work/divergence.html"
shot "$work/divergence.html" docs/html-report-divergence.png 960 1750
