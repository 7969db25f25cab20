#!/bin/sh
# A host-only library opened and closed (dlclose) before main returns
# (tests/host/dlclose_main.c): the program ends normally, its profile is
# written, and one warning says the library's counts are lost.
# usage: run_host_dlclose.sh CLANG PLUGIN RUNTIME_SO HOST_DIR WORKDIR
set -eu
clang=$1 plugin=$2 rt=$3 host=$4 work=$5
mkdir -p "$work"
cd "$work"
rm -f p.json err.txt
rtdir=$(dirname "$rt")
env PASTA_HOST=1 "$clang" -O0 -g -fPIC -shared -fpass-plugin="$plugin" \
  "$host/dlclose_lib.c" -o libdlclose_lib.so "$rt"
env PASTA_HOST=1 "$clang" -O0 -g -fpass-plugin="$plugin" \
  "$host/dlclose_main.c" -o dlclose_main "$rt" -Wl,-rpath,"$rtdir" -ldl
status=0
PASTA_OUTPUT="$work/p.json" PASTA_QUIET=1 ./dlclose_main \
  "$work/libdlclose_lib.so" 2> err.txt || status=$?
cat err.txt
[ "$status" = 0 ] || { echo "FAILED: exit status $status"; exit 1; }
grep -q "1 instrumented host module went with libraries closed (dlclose)" \
  err.txt || { echo "FAILED: no warning about the closed library"; exit 1; }
exec python3 "$(dirname "$0")/check_profile.py" p.json \
  host_functions:main:calls=1
