#!/bin/sh
# Records the LLVM IR the PASTA plugin produces for every bundled kernel
# (test_kernels/*.cu: nvptx64 sm_90 and amdgcn gfx90a device code, CUDA and
# HIP host code) and every host test program (tests/host, PASTA_HOST=1), in
# several modes (divergence mode's device code included), so that two builds of the plugin can be compared byte for
# byte (diff -r OUT_A OUT_B). HIP compilations get a fixed -cuid: by default
# clang derives it from the output path.
# usage: record_ir.sh BUILD_DIR OUT_DIR [JOBS]
set -eu
if [ "${1:-}" = --one ]; then
  plugin=$2 out=$3

  IFS='|' read -r name envs cc flags file <<EOT
$4
EOT
  unset_pasta=$(env | sed -n 's/^\(PASTA_[A-Za-z0-9_]*\)=.*/-u \1/p')
  # shellcheck disable=SC2086
  env $unset_pasta $envs "$cc" $flags -fpass-plugin="$plugin" -S -emit-llvm \
    "$file" -o "$out/$name" 2>"$out/$name.stderr" ||
    echo "record_ir: $name failed (see $out/$name.stderr)" >&2
  [ -s "$out/$name.stderr" ] || rm -f "$out/$name.stderr"
  exit 0
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
jobs=${3:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
plugin=$build/lib/libpasta.so
[ -f "$plugin" ] || plugin=$(find "$build" -name libpasta.so | head -n 1)
clang=${PASTA_CLANG:-/usr/lib/llvm-22/bin/clang}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
kdir=$src/test_kernels
cuda_flags="-x cuda --cuda-path=$cuda --offload-arch=sm_90 -Wno-unknown-cuda-version -O2 -g -I$kdir"
hip_flags="-x hip -cuid=pasta_record --offload-arch=gfx90a --rocm-path=/usr --rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode -mcode-object-version=5 -D__AMDGCN_WAVEFRONT_SIZE=64 -O2 -g -I$kdir"

# One job per line: OUTPUT_NAME|ENV|COMPILER|FLAGS|SOURCE.
jobs_file=$out/.jobs
: >"$jobs_file"
job() { printf '%s|%s|%s|%s|%s\n' "$@" >>"$jobs_file"; }
for k in "$kdir"/*.cu; do
  n=$(basename "$k" .cu)
  job "$n.sm_90.ll" "" "$clang++" "$cuda_flags --cuda-device-only" "$k"
  job "$n.sm_90.trace.ll" "PASTA_TRACE=1" "$clang++" "$cuda_flags --cuda-device-only" "$k"
  job "$n.cuda-host.ll" "" "$clang++" "$cuda_flags --cuda-host-only" "$k"
  job "$n.cuda-host.host-trace.ll" "PASTA_HOST=1 PASTA_TRACE=1" "$clang++" "$cuda_flags --cuda-host-only" "$k"
  job "$n.sm_90.div.ll" "PASTA_DIVERGENCE=1" "$clang++" "$cuda_flags --cuda-device-only" "$k"
  job "$n.gfx90a.ll" "" "$clang++" "$hip_flags --offload-device-only" "$k"
  job "$n.gfx90a.div.ll" "PASTA_DIVERGENCE=1" "$clang++" "$hip_flags --offload-device-only" "$k"
  job "$n.gfx90a.trace.ll" "PASTA_TRACE=1" "$clang++" "$hip_flags --offload-device-only" "$k"
  job "$n.hip-host.ll" "" "$clang++" "$hip_flags --offload-host-only" "$k"
done
job "axpy.sm_90.lines.ll" "PASTA_LINES=axpy.cu:27-30" "$clang++" "$cuda_flags --cuda-device-only" "$kdir/axpy.cu"
job "bicg.sm_90.kernels.ll" "PASTA_KERNELS=bicg_kernel1" "$clang++" "$cuda_flags --cuda-device-only" "$kdir/bicg.cu"
for h in "$src"/tests/host/*.c "$src"/tests/host/*.cpp; do
  n=$(basename "$h")
  cc=$clang std=
  case $h in *.cpp) cc=$clang++ ;; esac
  case $h in */names_lines.cpp) std=-std=c++20 ;; esac # as its ctest does
  for opt in O0 O2; do
    job "host-$n.$opt.ll" "PASTA_HOST=1" "$cc" "$std -$opt -g -pthread" "$h"
    job "host-$n.$opt.trace.ll" "PASTA_HOST=1 PASTA_TRACE=1" "$cc" "$std -$opt -g -pthread" "$h"
  done
done

# Each job runs with no PASTA_* variable but its own (this script again,
# in its --one mode).
tr '\n' '\0' <"$jobs_file" |
  xargs -0 -n 1 -P "$jobs" "$0" --one "$plugin" "$out"
rm -f "$jobs_file"
echo "record_ir: $(ls "$out" | grep -c '\.ll$') IR files in $out"
