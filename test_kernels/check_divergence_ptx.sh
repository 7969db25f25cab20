#!/bin/sh
# usage: check_divergence_ptx.sh PTX PTXAS
# Checks that a kernel built with PASTA_DIVERGENCE=1 has a divergence copy
# (<name>__pasta_div) of every kernel that has a plain copy, that the copies
# use warp matches (match.any.sync: distinct addresses, sectors, banks), and
# that ptxas accepts the PTX for sm_90.
set -eu
ptx=$1 ptxas=$2
plain=$(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)__pasta_plain(.*/\1/p' "$ptx")
[ -n "$plain" ] || { echo "$ptx: no kernel with a plain copy"; exit 1; }
for k in $plain; do
  grep -q "^\.visible \.entry ${k}__pasta_div(" "$ptx" ||
    { echo "$ptx: kernel $k has no divergence copy"; exit 1; }
done
grep -q 'match\.any\.sync\.b64' "$ptx" ||
  { echo "$ptx: no match.any.sync in the divergence copies"; exit 1; }
"$ptxas" -arch=sm_90 "$ptx" -o /dev/null
echo "$ptx: divergence copies of $(echo $plain | wc -w) kernels, accepted by ptxas"
