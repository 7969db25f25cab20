#!/bin/sh
# usage: check_instrumented_ptx.sh PTX PTXAS
# Checks that an instrumented kernel's PTX exports PASTA's descriptor, flushes
# its counters at exit (a warp ballot and a 64-bit reduction), and that ptxas
# accepts it for sm_90.
set -eu
ptx=$1 ptxas=$2
grep -q '^\.visible \.global \.align 8 \.u64 __pasta_desc_' "$ptx" ||
  { echo "$ptx: no exported __pasta_desc_ descriptor"; exit 1; }
grep -q 'vote\.sync\.ballot' "$ptx" && grep -q 'red\.relaxed\.gpu\.global\.add\.u64' "$ptx" ||
  { echo "$ptx: no counter flush (ballot + red.relaxed.gpu.global.add.u64)"; exit 1; }
"$ptxas" -arch=sm_90 "$ptx" -o /dev/null
echo "$ptx: instrumented and accepted by ptxas"
