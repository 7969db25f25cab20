#!/bin/sh
# usage: check_trace_amdgcn.sh TRACE.co LLVM_BIN_DIR [ARCH]
# Inspects an AMD code object built with PASTA_TRACE=1 (there is no AMD GPU
# to run it): every kernel has its trace copy (<kernel>__pasta_trace),
# whose events read the constant 100 MHz clock (s_memrealtime) and claim
# records with a 64-bit global atomic; no symbol is left unresolved. Prints
# each trace copy's register use next to its kernel's.
set -eu
co=$1 bin=$2 arch=${3:-gfx90a}
kernels=$("$bin/llvm-nm" "$co" | sed -n 's/.* \(.*\)\.kd$/\1/p')
[ -n "$kernels" ] || { echo "$co: no kernels"; exit 1; }
for k in $kernels; do
  case $k in *__pasta_plain|*__pasta_ws|*__pasta_trace) continue ;; esac
  echo "$kernels" | grep -qx "${k}__pasta_trace" ||
    { echo "$co: $k has no trace copy"; exit 1; }
done
undefined=$("$bin/llvm-nm" --undefined-only "$co")
[ -z "$undefined" ] || { echo "$co: unresolved symbols: $undefined"; exit 1; }
"$bin/llvm-objdump" -d --mcpu="$arch" "$co" |
  awk '/^[0-9a-f]+ <.*__pasta_trace>:/ { t = 1; next } /^[0-9a-f]+ <.*>:/ { t = 0 }
       t && /s_memrealtime/ { clock = 1 } t && /global_atomic_add_x2/ { atomic = 1 }
       END { exit !(clock && atomic) }' ||
  { echo "$co: trace copies without s_memrealtime or a 64-bit atomic"; exit 1; }
"$bin/llvm-readelf" --notes "$co" |
  awk '/\.name:/ { n = $2 } /\.sgpr_count:/ { s = $2 } /\.vgpr_count:/ { print n, "sgpr=" s, "vgpr=" $2 }'
echo "$co: trace copies present, self-contained"
