#!/bin/sh
# usage: check_instrumented_ptx.sh PTX PTXAS
# Checks that an instrumented kernel's PTX exports PASTA's descriptor, calls
# the flush at exit, and that ptxas accepts it for sm_90.
set -eu
ptx=$1 ptxas=$2
grep -q '^\.visible \.global \.align 8 \.u64 __pasta_desc_' "$ptx" ||
  { echo "$ptx: no exported __pasta_desc_ descriptor"; exit 1; }
grep -q 'call\.uni.*__pasta_flush' "$ptx" ||
  { echo "$ptx: no call to __pasta_flush"; exit 1; }
"$ptxas" -arch=sm_90 "$ptx" -o /dev/null
echo "$ptx: instrumented and accepted by ptxas"
