#!/usr/bin/env bash
# A ptxas for clang's --ptxas-path that compiles the PTX it is given with the
# bodies of some kinds of kernel copies replaced by `ret;`: what a build
# that left those copies to the CUDA driver (JIT-compiled from the PTX on
# first use) would still compile itself. Their device functions stay in the
# PTX; ptxas drops the ones no entry calls. Time a whole build with it, e.g.
#   clang++-22 -x cuda ... -c -fpass-plugin=libpasta.so \
#     --ptxas-path=$PWD/bench/ptxas_stub_copies.sh [--cuda-include-ptx=sm_90] SRC.cu
# (--cuda-include-ptx also packs the full PTX into the fatbin, as such a
# build would need). STUB_COPIES: the copies' name suffixes, a regular
# expression (default "ws|capped": the working-set and register-capped
# copies); PTXAS: the real ptxas (default /usr/local/cuda/bin/ptxas).
set -uo pipefail
kinds=${STUB_COPIES:-ws|capped}
args=() stubbed=()
for a in "$@"; do
  if [[ $a == *.s || $a == *.ptx ]]; then
    out=$(mktemp --suffix=.ptx)
    awk -v kinds="$kinds" '
      stub && $0 == "{" { print; print "\tret;"; skip = 1; next }
      skip { if ($0 ~ /^}/) { print; skip = 0; stub = 0 }; next }
      $0 ~ "^\\.visible \\.entry .*__pasta_(" kinds ")\\(" { stub = 1 }
      { print }' "$a" > "$out"
    args+=("$out") stubbed+=("$out")
  else
    args+=("$a")
  fi
done
"${PTXAS:-/usr/local/cuda/bin/ptxas}" "${args[@]}"
rc=$?
rm -f "${stubbed[@]}"
exit $rc
