#!/usr/bin/env bash
# nvcc's --list-gpu-code and --list-gpu-arch through pasta-nvcc. Makefiles
# read their -arch from them: MCX's takes
# `$(CUDACC) --list-gpu-code 2> /dev/null | grep '^sm_' | head -1` and
# falls back to -arch=sm_35 when that prints nothing (pasta-nvcc then
# dropped sm_35 with a warning and stopped at "no input files").
#
# usage: check_list_gpu.sh PASTA_NVCC [NVCC]
# Checks: each list exits 0 with nothing on stderr, one architecture a
# line in nvcc's spelling, sm_90 among them; the Makefile's idiom gives an
# architecture; with the real nvcc (NVCC, where installed) every entry is
# one nvcc lists too. Ends with "N passed, N failed".
set -u
pasta_nvcc=$1 nvcc=${2:-}
. "$(dirname "$0")/checks.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for list in code arch; do
  "$pasta_nvcc" --list-gpu-$list > "$work/$list" 2> "$work/$list.err"
  check "--list-gpu-$list exits 0" test $? -eq 0
  check "--list-gpu-$list: nothing on stderr" test ! -s "$work/$list.err"
done
check "--list-gpu-code: sm_NN lines only" \
  bash -c "test -s '$work/code' && ! grep -qvx 'sm_[0-9]*' '$work/code'"
check "--list-gpu-arch: compute_NN lines only" \
  bash -c "test -s '$work/arch' && ! grep -qvx 'compute_[0-9]*' '$work/arch'"
check "sm_90 listed" grep -qx sm_90 "$work/code"
check "the Makefile idiom picks an architecture" \
  bash -c "test -n \"\$('$pasta_nvcc' --list-gpu-code 2> /dev/null |
    grep '^sm_' | head -1)\""
"$pasta_nvcc" -code-ls -arch-ls > "$work/both" 2>&1
check "both lists: arch=compute_NN,code=sm_NN lines" \
  bash -c "test -s '$work/both' &&
    ! grep -qvx 'arch=compute_\([0-9]*\),code=sm_\1' '$work/both'"
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  "$nvcc" --list-gpu-code > "$work/nvcc-code" 2> /dev/null
  check "every entry is one the real nvcc lists" \
    bash -c "! grep -vxF -f '$work/nvcc-code' '$work/code'"
else
  echo "note: no real nvcc to compare with"
fi
echo "$passed passed, $failed failed"
test "$failed" -eq 0
