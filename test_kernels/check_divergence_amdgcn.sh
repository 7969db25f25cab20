#!/bin/sh
# usage: check_divergence_amdgcn.sh DIV.co LLVM_BIN_DIR [ARCH]
# Inspects an AMD code object built with PASTA_DIVERGENCE=1 (there is no AMD
# GPU to run it): every kernel has its divergence copy (<kernel>__pasta_div),
# whose figures come from wave64 ballots (64-bit exec-mask compares,
# v_cmp_*_e64 into an SGPR pair) and cross-lane reads (ds_bpermute); no symbol
# is left unresolved. Prints each copy's register use.
set -eu
co=$1 bin=$2 arch=${3:-gfx90a}
kernels=$("$bin/llvm-nm" "$co" | sed -n 's/.* \(.*\)\.kd$/\1/p')
[ -n "$kernels" ] || { echo "$co: no kernels"; exit 1; }
for k in $kernels; do
  case $k in *__pasta_plain|*__pasta_ws|*__pasta_trace|*__pasta_div) continue ;; esac
  echo "$kernels" | grep -qx "${k}__pasta_div" ||
    { echo "$co: $k has no divergence copy"; exit 1; }
done
undefined=$("$bin/llvm-nm" --undefined-only "$co")
[ -z "$undefined" ] || { echo "$co: unresolved symbols: $undefined"; exit 1; }
"$bin/llvm-objdump" -d --mcpu="$arch" "$co" |
  awk '/^[0-9a-f]+ <.*__pasta_div>:/ { t = 1; next } /^[0-9a-f]+ <.*>:/ { t = 0 }
       t && /ds_bpermute_b32/ { perm = 1 } t && /v_cmp_[a-z0-9_]*_e64 s\[/ { ballot = 1 }
       END { exit !(perm && ballot) }' ||
  { echo "$co: divergence copies without ballots or cross-lane reads"; exit 1; }
"$bin/llvm-readelf" --notes "$co" |
  awk '/\.name:/ { n = $2 } /\.sgpr_count:/ { s = $2 } /\.vgpr_count:/ { print n, "sgpr=" s, "vgpr=" $2 }' |
  grep __pasta_div || true
echo "$co: divergence copies present, self-contained"
