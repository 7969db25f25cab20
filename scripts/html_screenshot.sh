#!/usr/bin/env bash
# The screenshots of docs/user-guide.md ("The HTML report"): the report of
# the recorded lud profile (tests/fixtures/html/lud_ws.json) rendered by
# headless Chromium, the top of the page (docs/html-report.png) and its
# source view (docs/html-report-source.png: the same page with the sections
# above the source hidden, since headless Chromium does not scroll to a
# fragment before its screenshot).
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
shot() { # shot PAGE PNG HEIGHT
  chromium --headless --disable-gpu --no-sandbox --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size=1200,"$3" \
    --screenshot="$2" "file://$1" 2>/dev/null
}
shot "$work/lud.html" docs/html-report.png 1100
shot "$work/source.html" docs/html-report-source.png 1500
