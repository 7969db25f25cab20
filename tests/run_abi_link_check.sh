#!/bin/sh
# An object instrumented for another ABI version does not link against the
# host runtime (pasta/abi.h, PASTA_ABI_SYMBOL): it refers to
# __pasta_abi_v<its version>, which only a runtime of that version defines.
# A stand-in object for this version links and runs; one for the version
# before fails to link, naming the symbol it lacks.
# usage: run_abi_link_check.sh CC RUNTIME_LIB WORKDIR VERSION
set -eu
cc=$1 rt=$2 work=$3 version=$4
old=$((version - 1))
mkdir -p "$work"
for v in "$version" "$old"; do
  printf 'extern const char __pasta_abi_v%s;\nint main(void) { return __pasta_abi_v%s != 1; }\n' \
    "$v" "$v" > "$work/abi_v$v.c"
done
"$cc" "$work/abi_v$version.c" -o "$work/abi_ok" "$rt" -ldl -lrt -lm -pthread
"$work/abi_ok" || { echo "FAIL: the current version's stand-in did not run"; exit 1; }
if "$cc" "$work/abi_v$old.c" -o "$work/abi_old" "$rt" -ldl -lrt -lm -pthread \
     2> "$work/abi_old.txt"; then
  echo "FAIL: an object for ABI version $old linked against the version $version runtime"
  exit 1
fi
grep -q "__pasta_abi_v$old" "$work/abi_old.txt" ||
  { echo "FAIL: the link error does not name __pasta_abi_v$old:"; cat "$work/abi_old.txt"; exit 1; }
echo "abi link check: version $version links, version $old does not (1 passed, 0 failed)"
