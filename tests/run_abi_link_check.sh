#!/bin/sh
# Objects instrumented by another PASTA version against this runtime
# (pasta/abi.h, PASTA_ABI_SYMBOL). Instrumented code refers to
# __pasta_abi_v<its version> weakly, and binds to a runtime only when that
# runtime defines it (passes/RuntimeBinding.cpp). A host program of this
# version, linked with libpasta_rt.so, runs instrumented (its profile counts
# work()). The same program as the version before would have emitted it (its
# ABI symbol and messages renamed) still links, runs with the plain build's
# stdout, counts nothing, and says in one line on stderr that the runtime in
# the process is not of its ABI version.
# usage: run_abi_link_check.sh CLANG PLUGIN RUNTIME_DIR WORKDIR VERSION
set -eu
clang=$1 plugin=$2 lib=$3 work=$4 version=$5
old=$((version - 1))
check=$(cd "$(dirname "$0")" && pwd)/check_profile.py
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > abi.c <<'SRC'
#include <stdio.h>
__attribute__((noinline)) int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 7; return s; }
int main(void) { printf("work %d\n", work(1000)); return 0; }
SRC
"$clang" -O1 abi.c -o abi_plain
./abi_plain > plain.out
PASTA_HOST=1 "$clang" -O1 -g -fpass-plugin="$plugin" -S -emit-llvm abi.c -o "abi_v$version.ll"
grep -q "__pasta_abi_v$version = extern_weak" "abi_v$version.ll" ||
  fail "the instrumented module does not refer weakly to __pasta_abi_v$version"
sed -e "s/__pasta_abi_v$version/__pasta_abi_v$old/g" \
  -e "s/ABI version $version/ABI version $old/g" "abi_v$version.ll" > "abi_v$old.ll"
# The renamed strings may be shorter (10 -> 9): their array types follow.
python3 - "abi_v$old.ll" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
def fix(m):
    body = m.group(2)
    n = len(re.sub(r"\\[0-9A-Fa-f]{2}", "x", body))
    return "[%d x i8] c\"%s\"" % (n, body)
open(path, "w").write(re.sub(r'\[(\d+) x i8\] c"((?:[^"\\]|\\[0-9A-Fa-f]{2})*)"', fix, text))
PY
for v in "$version" "$old"; do
  "$clang" -c "abi_v$v.ll" -o "abi_v$v.o"
  "$clang" "abi_v$v.o" -o "abi_v$v" -Wl,--no-as-needed "$lib/libpasta_rt.so" -Wl,-rpath,"$lib" ||
    fail "an object for ABI version $v did not link"
  PASTA_OUTPUT="$work/v$v.json" PASTA_QUIET=1 "./abi_v$v" > "v$v.out" 2> "v$v.err" ||
    fail "the version $v program failed"
  cmp -s plain.out "v$v.out" || fail "the version $v program's stdout differs from the plain build's"
done
if grep 'pasta: ' "v$version.err"; then fail "the current version warned"; fi
python3 "$check" "v$version.json" host_functions:work:calls=1
[ "$(grep -c 'pasta: ' "v$old.err")" = 1 ] || { cat "v$old.err"; fail "want one line from PASTA"; }
grep -q "^pasta: warning: the PASTA runtime in this process is not of ABI version $old.*uninstrumented" "v$old.err" ||
  { cat "v$old.err"; fail "the warning does not name ABI version $old"; }
if [ -e "v$old.json" ]; then python3 "$check" "v$old.json" absent:host_functions:work; fi
echo "abi link check: version $version runs instrumented, version $old links and runs uninstrumented with one warning"
