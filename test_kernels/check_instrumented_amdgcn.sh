#!/bin/sh
# usage: check_instrumented_amdgcn.sh INSTRUMENTED.co PLAIN.co LLVM_BIN_DIR [ARCH]
# Inspects an instrumented AMD code object (there is no AMD GPU to run it):
# it exports PASTA's descriptor, has no unresolved symbols, flushes with
# 64-bit global atomics; prints each kernel's register use next to the plain
# build's.
set -eu
co=$1 plain=$2 bin=$3 arch=${4:-gfx90a}
"$bin/llvm-nm" "$co" | grep -q ' D __pasta_desc_' ||
  { echo "$co: no exported __pasta_desc_ descriptor"; exit 1; }
undefined=$("$bin/llvm-nm" --undefined-only "$co")
[ -z "$undefined" ] || { echo "$co: unresolved symbols: $undefined"; exit 1; }
"$bin/llvm-objdump" -d --mcpu="$arch" "$co" | grep -q 'global_atomic_add_x2' ||
  { echo "$co: no counter flush (global_atomic_add_x2)"; exit 1; }
regs() {
  "$bin/llvm-readelf" --notes "$1" |
    awk '/\.name:/ { n = $2 } /\.sgpr_count:/ { s = $2 } /\.vgpr_count:/ { print n, "sgpr=" s, "vgpr=" $2 }'
}
echo "plain:";        regs "$plain"
echo "instrumented:"; regs "$co"
echo "$co: instrumented, self-contained"
