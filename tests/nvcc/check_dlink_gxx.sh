#!/bin/sh
# A Makefile's separate device link, the final link by g++ (nvcc -dc, nvcc
# -dlink, g++ ... dlink.o -lcudart): pasta-nvcc -dlink must write the
# object that registers the linked device image, as nvcc's does, since g++
# runs no device link. It wrote an empty object, so the program linked and
# its kernels were never registered (public course Makefiles' shape).
# Checked without a GPU: the object holds clang's linker wrapper's
# registration (its .cuda.fatbin_reg over the entries the objects carry),
# g++ links it with the objects and a main, a device library named by
# -L/-l is device-linked, and no scratch directory is left behind.
# usage: check_dlink_gxx.sh PASTA_NVCC SRCDIR WORKDIR CUDA
set -eu
nvcc=$1 src=$2 work=$3 cuda=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$nvcc" -arch=sm_90 -dc "$src/rdc_scale.cu" "$src/rdc_twice.cu"
"$nvcc" -arch=sm_90 -dlink rdc_scale.o rdc_twice.o -o dlink.o
nm dlink.o | grep -q ' .cuda.fatbin_reg$' ||
  { echo "dlink.o registers no device image"; exit 1; }
nm dlink.o | grep -q ' U __start_llvm_offload_entries$' ||
  { echo "dlink.o does not register the objects' entries"; exit 1; }
printf 'int main(void) { return 0; }\n' > main.c
gcc -c main.c -o main.o
g++ main.o rdc_scale.o rdc_twice.o dlink.o -L"$cuda/lib64" -lcudart_static \
  -ldl -lrt -lpthread -o app
nm app | grep -q ' .cuda.fatbin_reg$' ||
  { echo "app registers no device image"; exit 1; }
# A device library linked by -L and -l (nvcc device-links the archives a
# -dlink line names): the kernel's device function resolved from it. They
# were not passed on, and nvlink found the function undefined.
ar rcs libtwice.a rdc_twice.o
"$nvcc" -arch=sm_90 -dlink rdc_scale.o -L. -ltwice -lcudart -o dlink-lib.o ||
  { echo "-dlink with a device library: failed"; exit 1; }
nm dlink-lib.o | grep -q ' .cuda.fatbin_reg$' ||
  { echo "dlink-lib.o registers no device image"; exit 1; }
if ls -d ./*.pasta-dlink.* > /dev/null 2>&1; then
  echo "scratch directory left behind"
  exit 1
fi
echo "dlink object: ok"
