#!/usr/bin/env bash
# Stages scripts/gpu_split_warps.sh with what it needs into DEST (a few
# MB; runs from DEST on the GPU machine, no repository needed there): the
# split-warps structure built by this tree (splitwarps, .buf, .inline:
# scripts/build_structures.sh) and, given OLD_BUILD_DIR (a build of an
# earlier tree: its bin/pasta-clang++, plugin and runtimes), by that tree
# too (splitwarps.before, .before.buf, .before.inline), every build with the
# static runtime (PASTA_STATIC_RUNTIME=1: each carries its own tree's host
# runtime), and the scripts and sources the run reads.
# usage: stage_split_warps.sh DEST [OLD_BUILD_DIR]
# then, on the GPU machine: OUT=... bash DEST/scripts/gpu_split_warps.sh
# (SPLIT_DIR defaults to DEST/bin when run this way: see the last lines).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dest=$(mkdir -p "$1" && cd "$1" && pwd)
old=${2:-}
build=${PASTA_BUILD_DIR:-$here/build}
mkdir -p "$dest/bin" "$dest/scripts" "$dest/tests/structures/splitwarps"
export PASTA_STATIC_RUNTIME=1
PASTA_BUILD_DIR=$build "$here/scripts/build_structures.sh" "$dest/bin" splitwarps
if [ -n "$old" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  PASTA_BUILD_DIR=$(cd "$old" && pwd) "$here/scripts/build_structures.sh" "$tmp" splitwarps
  for v in "" .buf .inline; do
    cp "$tmp/splitwarps$v" "$dest/bin/splitwarps.before$v"
    cp "$tmp/splitwarps$v.plain" "$dest/bin/splitwarps.before$v.plain"
  done
fi
cp "$here/scripts/gpu_split_warps.sh" "$here/scripts/compare_profiles.py" \
  "$here/scripts/sass_yields.py" "$dest/scripts/"
cp "$here/tests/structures/check_structure.py" "$dest/tests/structures/"
cp "$here/tests/structures/splitwarps/splitwarps.cu" \
  "$dest/tests/structures/splitwarps/"
# Run from the staged copy, the builds are in DEST/bin.
cat > "$dest/run.sh" <<'EOF'
#!/usr/bin/env bash
d=$(cd "$(dirname "$0")" && pwd)
SPLIT_DIR=${SPLIT_DIR:-$d/bin} exec bash "$d/scripts/gpu_split_warps.sh" "$@"
EOF
chmod +x "$dest/run.sh"
du -sh "$dest"
