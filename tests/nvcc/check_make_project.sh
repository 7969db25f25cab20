#!/usr/bin/env bash
# A Makefile project written for nvcc (make_project/) built unmodified
# through pasta-nvcc, and, where the real nvcc is installed, with it (the
# plain twin scripts/gpu_nvcc.sh compares on a GPU).
#
# usage: check_make_project.sh PASTA_NVCC LLVM_NM WORKDIR
# Checks: the build succeeds; pasta-nvcc's only warnings are the four
# "sm_110 dropped" (one per CUDA compile; the Makefile asks for sm_110,
# which clang-22 cannot build); the program links libpasta_rt.so; the
# kernels of each kind of file are instrumented (their plain copies are
# registered): a lambda through a template, Thrust's reduce, and the rdc
# kernel. Ends with "N passed, N failed".
set -u
nvcc_pasta=$1 nm=$2 work=$3
src=$(cd "$(dirname "$0")/make_project" && pwd)
. "$(dirname "$0")/checks.sh"

rm -rf "$work"
mkdir -p "$work"
cp -r "$src" "$work/pasta"
make -C "$work/pasta" NVCC="$nvcc_pasta" > "$work/pasta.log" 2>&1
rc=$?
check "make NVCC=pasta-nvcc succeeds" [ $rc = 0 ]
[ $rc = 0 ] || tail -20 "$work/pasta.log"
warnings=$(grep -c "pasta-nvcc: warning" "$work/pasta.log")
dropped=$(grep -c "pasta-nvcc: warning: sm_110 dropped" "$work/pasta.log")
check "pasta-nvcc warns once per CUDA compile about sm_110, nothing else ($warnings warnings)" \
  test "$warnings" = 4 -a "$dropped" = 4
# CUB's cache-hinted loads (inline assembly, cub::DeviceReduce) are counted
# (passes/InlineAsmMemory.cpp): PASTA's notice about inline assembly it
# does not count may name other functions, never DeviceReduce.
check "no other warning from clang" \
  bash -c "! grep -v -e 'pasta-nvcc: warning' -e 'pasta: inline assembly that loads' '$work/pasta.log' | grep -q 'warning:'"
check "CUB's inline-assembly loads counted (no notice names DeviceReduce)" \
  bash -c "! grep -q 'pasta: inline assembly that loads.*DeviceReduce' '$work/pasta.log'"
check_program "$work/pasta/app" "$nm"

# The same Makefile without -lineinfo, as most nvcc projects are written:
# pasta-nvcc's default line tables give the same per-line profile
# (scripts/gpu_nvcc.sh compares the two on a GPU). Built only with
# PASTA_NVCC_NOLINEINFO=1 (a second Thrust build is minutes; CI checks the
# default on single files: ctest wrapper-line-tables).
if [ "${PASTA_NVCC_NOLINEINFO:-0}" = 1 ]; then
  cp -r "$src" "$work/pasta-nolineinfo"
  flags=$(make -s -C "$src" -f Makefile -f - print-flags NVCC=true << 'EOT'
print-flags:
	@echo $(NVCCFLAGS)
EOT
)
  flags=${flags/ -lineinfo/}
  make -C "$work/pasta-nolineinfo" NVCC="$nvcc_pasta" NVCCFLAGS="$flags" \
    > "$work/pasta-nolineinfo.log" 2>&1
  rc=$?
  check "make NVCC=pasta-nvcc without -lineinfo succeeds" [ $rc = 0 ]
  check "  and no warning about missing debug info" \
    bash -c "! grep -q 'has no debug info' '$work/pasta-nolineinfo.log'"
fi

# The plain twin, with the real nvcc (not needed to pass).
nvcc=${PASTA_REAL_NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$nvcc" ]; then
  cp -r "$src" "$work/plain"
  plain_twin "$work/plain.log" make -C "$work/plain" NVCC="$nvcc"
else
  echo "note: no nvcc at $nvcc; no plain twin"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
