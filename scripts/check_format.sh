#!/usr/bin/env bash
# Checks that the tracked C, C++ and CUDA sources are formatted as
# .clang-format says (clang-format-22; scripts/setup.sh installs it), except
# those .clang-format-ignore lists. Prints each file that is not, and exits 1
# if there is one. The ctest test `format` runs it.
#
#   scripts/check_format.sh            every tracked source
#   scripts/check_format.sh FILE...    these files only
#   scripts/check_format.sh --fix ...  reformat the files that fail, in place
#
# CLANG_FORMAT=<program> uses another clang-format (other versions format a
# few constructs differently). Exits 77 (ctest: skipped) without
# clang-format-22 or outside a git checkout.
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
if [ "${1:-}" = "--fix" ]; then
  fix=1
  shift
fi

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  for c in clang-format-22 /usr/lib/llvm-22/bin/clang-format; do
    if command -v "$c" > /dev/null 2>&1; then
      cf=$c
      break
    fi
  done
fi
if [ -z "$cf" ]; then
  echo "format: skipped: clang-format-22 not found (scripts/setup.sh installs it)"
  exit 77
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    echo "format: skipped: not a git checkout (the check covers tracked files)"
    exit 77
  fi
  # .clang-format-ignore's patterns (clang-format skips them as well) as
  # git pathspecs: in both, "*" does not cross a "/".
  excludes=()
  while IFS= read -r pattern; do
    case "$pattern" in '' | '#'*) continue ;; esac
    excludes+=(":(glob,exclude)$pattern")
  done < .clang-format-ignore
  mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp' '*.cc' \
    '*.cu' '*.cuh' "${excludes[@]}")
fi

# One run over all files; each difference is a warning "FILE:LINE:COL:
# warning: code should be clang-formatted".
rc=0
out=$("$cf" --dry-run "${files[@]}" 2>&1) || rc=$?
if [ $rc -ne 0 ]; then
  printf '%s\n' "$out"
  echo "format: $cf failed (exit status $rc)"
  exit 1
fi
mapfile -t bad < <(printf '%s\n' "$out" |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' |
  sort -u)

# A file banner longer than a line, which clang-format breaks in two
# ("//===- Name.h - ... -*- C++" then "//-*-===//"): shorten its title.
broken=()
for f in "${files[@]}"; do
  [ "$(sed -n 2p "$f" 2> /dev/null)" = "//-*-===//" ] && broken+=("$f")
done
if [ ${#broken[@]} -gt 0 ]; then
  printf 'format: %s: its first-line banner is broken over two lines; shorten its title to fit 80 columns\n' "${broken[@]}"
  exit 1
fi

if [ ${#bad[@]} -eq 0 ]; then
  echo "format: ${#files[@]} files conform to .clang-format ($cf)"
  exit 0
fi
if [ $fix -eq 1 ]; then
  "$cf" -i "${bad[@]}"
  printf 'format: reformatted %s\n' "${bad[@]}"
  exit 0
fi
echo "format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($cf):"
printf '  %s\n' "${bad[@]}"
echo "format: see the changes with '$cf --dry-run FILE'; apply them with" \
  "scripts/check_format.sh --fix FILE..."
exit 1
