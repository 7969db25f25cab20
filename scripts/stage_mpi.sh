#!/usr/bin/env bash
# Stages the 2-GPU MPI validation (scripts/gpu_mpi.sh) into build-gpu-mpi/,
# everything the bare GPU machine lacks, to carry there:
#  - bin/mpi_ranks: tests/gpu/mpi_ranks.cu instrumented (clang-22 with the
#    plugin, MPI's compile flags from mpicc, libpasta_rt.a and the static
#    CUDA runtime), and bin/pasta-report (a Release build: build-bench/);
#  - openmpi/: Debian's Open MPI and the libraries it needs that a Debian
#    machine may lack, as unpacked packages (apt-get download, dpkg -x):
#    openmpi-bin, openmpi-common, libopenmpi3, libpmix2 (and its libmunge2),
#    libhwloc15, libevent-core-2.1-7, libevent-pthreads-2.1-7, libudev1, and
#    libjansson4
#    for pasta-report. Left out: documentation, headers, Fortran, Java and
#    OpenSHMEM libraries, and the components that need a network library
#    (InfiniBand, libfabric, UCX, PSM): one node needs none.
# Then: run(kind="nvidia-h200-x2", command="bash scripts/gpu_mpi.sh",
#           carry=["build-gpu-mpi"])
# Needs the build (PASTA_BUILD_DIR, default build/), CUDA at
# PASTA_CUDA_PATH (default /usr/local/cuda) and Open MPI's mpicc
# (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PASTA_BUILD_DIR:-build}
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
dst=build-gpu-mpi
rm -rf "$dst"
mkdir -p "$dst/bin" "$dst/debs"

# The program. mpicc -showme:compile gives MPI's include directories.
# shellcheck disable=SC2046
clang++-22 -x cuda --cuda-path="$cuda" --offload-arch=sm_90 \
  -Wno-unknown-cuda-version -O2 -g -fpass-plugin="$build/lib/libpasta.so" \
  $(mpicc -showme:compile) tests/gpu/mpi_ranks.cu -o "$dst/bin/mpi_ranks" \
  -x none "$build/lib/libpasta_rt.a" $(mpicc -showme:link) \
  -L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread

# pasta-report without sanitizers (the test build's has ASan).
CC=${CC:-clang-22} cmake -G Ninja -S . -B build-bench -DCMAKE_BUILD_TYPE=Release \
  > build-bench.configure.log 2>&1 || { cat build-bench.configure.log; exit 1; }
ninja -C build-bench pasta-report > /dev/null
cp build-bench/bin/pasta-report "$dst/bin/"

# Open MPI as unpacked packages.
(cd "$dst/debs" && apt-get download openmpi-bin openmpi-common libopenmpi3 \
  libpmix2 libmunge2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
  libudev1 libjansson4 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
root=$dst/openmpi
for deb in "$dst"/debs/*.deb; do dpkg -x "$deb" "$root"; done
rm -rf "$dst/debs" "$root"/usr/share/doc "$root"/usr/share/man \
  "$root"/usr/share/lintian "$root"/usr/lib/x86_64-linux-gnu/openmpi/include
lib=$root/usr/lib/x86_64-linux-gnu
find "$lib" \( -name 'libmpi_*f*' -o -name 'libmpi_usempi*' -o -name 'libmpi_java*' -o -name 'liboshmem*' \
  -o -name 'libmpi_cxx*' -o -name '*.a' -o -name '*.la' \) -delete
# Components (and their helper libraries) that need a library carried
# nowhere: Open MPI would say it cannot open them, at every start.
base="libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libz.so.1
  ld-linux-x86-64.so.2 libgcc_s.so.1 libstdc++.so.6"
removed=1
while [ "$removed" = 1 ]; do # until what is left needs only what is left
  removed=0
  find "$root" -xtype l -delete # links to what was removed
  # shellcheck disable=SC2086
  have=" $(echo $base $(find "$root" -name '*.so*' -printf '%f ')) "
  for so in $(find "$root" -name '*.so*' -type f); do
    for need in $(readelf -d "$so" 2> /dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
      case $have in *" $need "*) ;; *) rm -f "$so" && removed=1 && break ;; esac
    done
  done
done
cp tests/gpu/mpi_ranks.cu "$dst/"
du -sh "$dst"
