#!/bin/sh
# A forked child's profile starts from zero, and a parent and child sharing
# one PASTA_OUTPUT both keep their profile (tests/host/fork.c says what to
# expect). Run twice: the second run replaces the first run's two files
# (older than the process) instead of numbering new ones.
# usage: run_host_fork.sh CLANG PLUGIN RUNTIME_LIB SOURCE_DIR WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 src=$4 work=$5
check="python3 $src/check_profile.py"
rm -rf "$work"
mkdir -p "$work"
PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" "$src/host/fork.c" \
  -o "$work/fork" "$rt"
for run in 1 2; do
  PASTA_OUTPUT="$work/fork.json" PASTA_QUIET=1 "$work/fork" 2>"$work/err"
  cat "$work/err"
  grep -q "fork.json was written by another process since this one started; the profile is written to $work/fork.1.json instead" "$work/err"
  $check "$work/fork.json" host_functions:work:calls=2 absent:host_functions:main
  $check "$work/fork.1.json" host_functions:work:calls=4 host_functions:main:calls=1
  if [ -e "$work/fork.2.json" ]; then
    echo "FAIL run $run wrote fork.2.json"
    exit 1
  fi
done
echo "fork: both runs passed"
