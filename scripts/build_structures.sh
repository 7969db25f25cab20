#!/usr/bin/env bash
# Builds the program-structure tests (tests/structures/README.md) plain and
# instrumented, as their users would: a main compiled by gcc, kernels in
# .cu files compiled by pasta-clang++, in objects, a static archive, a shared
# library (linked, and opened with dlopen), all linked through pasta-clang++;
# threads, CUDA graphs, the driver API, C++ names and Thrust as one .cu each;
# relocatable device code (-fgpu-rdc, two units device-linked); CUDA's
# vector types; gcc_link: tests/link/make_gcc/, a Rodinia-shaped Makefile
# whose C files gcc compiles and links, kernels by pasta-nvcc without -g
# (no runtime on its link line: the program loads libpasta_rt.so by the path
# the plugin recorded, else from the library path); memops: device
# memcpy/memset of run-time length; devfn: non-inlined device functions;
# callgraph: many small device functions, tiny launches, float4 loads;
# hotshapes: a shared-memory tile of many guarded updates and a grid-stride
# loop (HeCBench's tsa and extrema shapes); flushways: a reduction whose
# warps leave by several ways, a loop of known count; captures: pointers in
# by-value kernel parameters (lambdas, functors; working-set mode's slots);
# spinwait: threads polling each other's flags with volatile loads, an
# atomicCAS lock (HeCBench bh's tree kernels); splitwarps: warps split on
# purpose (part of each waits in a branch arm until the rest has left a
# device function) around the runtime's calls and flushes; regcap:
# 1,024-thread blocks whose counting kernel needs more registers than they
# may have (its register-capped copy runs); occupancy: cooperative
# and persistent (spin-barrier) launches sized by the occupancy API
# (answered for the plain copy);
# skipahead: curand_init's skip-ahead over a table of bit matrices (80
# counters of loop blocks; also as skipahead.mem, those counters in
# local memory); segreduce: moderngpu's lbs_segreduce (a by-value job
# handed on to a device function, a callee over the twins' return limit
# on generic pointers to shared and per-thread arrays); sparseflush: short
# threads whose many guarded blocks are mostly not taken (32 counters
# staged at exit, most zero in every lane); asmcopy: a tile
# staged by inline PTX (cp.async, ldmatrix) beside the same in C++;
# asmloads: cache-hinted loads and stores, CUB's ThreadLoad, cp.async and
# ldmatrix in inline PTX, counted; onethread: a setup
# kernel whose body is guarded to one thread (its counting kernel capped
# itself, no capped copy compiled); gridstride: GUPS's init and check
# kernels' grid-stride loops (their runs counted by the grid's first
# thread) over grids that do not divide the bound, 2-D grids, empty
# bounds; cdp: dynamic parallelism, a kernel launching itself from the
# device (-fgpu-rdc, CUDA's device runtime).
# wmma: tensor-core tiles through nvcuda::wmma, fragments loaded from
# global and shared memory (intrinsic calls, counted per fragment);
# texsurf: texture fetches and surface loads and stores over a CUDA array
# (inline PTX in clang's headers: not counted, a compile-time warning);
# warpagg: warp-aggregated atomics through cooperative groups
# (coalesced_threads, labeled_partition, cg::reduce, __reduce_add_sync);
# scopedatomics: atomicAdd_block, atomicAdd_system, atomicCAS_system,
# atomicExch_system (intrinsic calls, counted as atomics);
# slabwalk: SlabHash's bulk search (32 unrolled walks of slab lists whose
# blocks share one counter);
# persistent: MCX's photon-loop
# shape (threads taking items from a pool until it is empty, about 40
# counters of the loop's blocks, 32-bit behind a runs guard; also as
# persistent.wrap, the guard's flush every 3 runs, and persistent.crowded,
# its blocks counted where taken);
# casinsert: SlabHash's build_table_kernel shape (a warp-cooperative insert
# retrying atomicCAS, with an allocator loop of its own; the loops'
# counters in local memory);
# constptrs: device pointers in a __constant__ struct the host fills
# (AutoDock-GPU's GpuData), read in a kernel's loop and a device function;
# framecallee: a device function over the twins' return limit called in a
# loop by two kernels (AutoDock-GPU's gpu_calc_energrad; a frame each,
# with -mllvm -pasta-callee-frames).
# radixsort: CUB's DeviceRadixSort::SortPairs called directly on 75,000
# 32-bit keys and values (cuda-lbvh's Morton-code sort; its short
# histogram kernel).
# warpnorm: CUB's BlockReduce with warp reductions (inline-PTX adds) beside
# a shuffle sum in C++ (NVIDIA's multi-GPU Jacobi kernels' shape).
# halfmath: cuda_fp16.h's and cuda_bf16.h's arithmetic (inline PTX, pairs
# included) beside C++ _Float16.
# exitgather: lanes that leave a data-dependent loop apart, one kernel with
# a barrier inside its bounds check (a Huffman decoder's, kmeans' shape):
# the exit gather must not hang it.
# spaceptrs: generic accesses in loops whose address space only the run
# knows (objects reached through pointers in global memory; one loop handed
# global, shared and local objects): their counts off the hot path.
# ringsweep: neighbours on a torus taken modulo its size, and a loop over
# coordinates stored a row each (rows not a multiple of a sector) inside a
# loop over centres: divergence figures derived where every lane agrees.
# Every instrumented program has a plain twin, NAME.plain, built with
# clang++-22 alone (its results must be the same).
# usage: build_structures.sh [OUTDIR [GROUP...]]
#   OUTDIR  default <build>/bin/structures
#   GROUP   linkage threads graphs driver_api cxx_names thrust rdc vectors
#           gcc_link memops devfn callgraph hotshapes flushways captures
#           shortloops spinwait splitwarps regcap occupancy skipahead
#           segreduce driver_occupancy sparseflush asmcopy asmloads
#           onethread launch_ex gridstride cdp wmma texsurf warpagg
#           scopedatomics slabwalk persistent launchfit casinsert
#           constptrs framecallee radixsort warpnorm halfmath exitgather
#           spaceptrs ringsweep
#           (default: all)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${PASTA_BUILD_DIR:-$here/build}
out=${1:-$build/bin/structures}
shift $(($# > 0 ? 1 : 0))
groups=${*:-linkage threads graphs driver_api cxx_names thrust rdc vectors gcc_link memops devfn callgraph hotshapes flushways captures shortloops spinwait splitwarps regcap occupancy skipahead segreduce driver_occupancy sparseflush asmcopy asmloads onethread launch_ex gridstride cdp wmma texsurf warpagg scopedatomics slabwalk persistent launchfit casinsert constptrs framecallee radixsort warpnorm halfmath exitgather spaceptrs ringsweep}
src=$here/tests/structures
cuda=${PASTA_CUDA_PATH:-/usr/local/cuda}
mkdir -p "$out" && cd "$out"
out=$(pwd)
pasta=$build/bin/pasta-clang++
[ -x "$pasta" ] || pasta=$here/scripts/pasta-clang++
export PASTA_BUILD_DIR=$build
cu=(-O2 -g -Wall -Wextra --cuda-path="$cuda" --offload-arch=sm_90 -Wno-unknown-cuda-version)
rt=(-L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread)
# PASTA_PLAIN_TWINS=0 builds no plain twin: they serve only GPU runs, and
# CI (scripts/test.sh) has no GPU and is short of time. Such a build leaves
# no stamp below; scripts/stage_gpu.sh warns when twins are missing.
twins=${PASTA_PLAIN_TWINS:-1}
twin() { [ "$twins" = 0 ] || "$@"; }
plain() { twin clang++-22 -x cuda "${cu[@]}" "$@"; }
set -x

build_linkage() {
  gcc -O2 -g -Wall -Wextra -c "$src/main_c.c" -o main_c.o
  gcc -O2 -g -Wall -Wextra -c "$src/exit_helper.c" -o exit_helper.o
  for k in kernels_a kernels_b; do
    "$pasta" "${cu[@]}" -fPIC -c "$src/$k.cu" -o $k.o
    plain -fPIC -c "$src/$k.cu" -o $k.plain.o
  done
  # main in C by gcc, kernels in two .cu entry points.
  "$pasta" main_c.o kernels_a.o kernels_b.o -o gcc_main "${rt[@]}"
  twin clang++-22 main_c.o kernels_a.plain.o kernels_b.plain.o -o gcc_main.plain "${rt[@]}"
  # main in a .cpp without kernels (exit-helper: exit() from gcc code).
  "$pasta" -O2 -g -Wall -Wextra -c "$src/main_cpp.cpp" -o main_cpp.o
  twin clang++-22 -O2 -g -Wall -Wextra -c "$src/main_cpp.cpp" -o main_cpp.plain.o
  "$pasta" main_cpp.o exit_helper.o kernels_a.o kernels_b.o -o cpp_main "${rt[@]}"
  twin clang++-22 main_cpp.plain.o exit_helper.o kernels_a.plain.o kernels_b.plain.o \
    -o cpp_main.plain "${rt[@]}"
  # Kernels in a static library.
  rm -f libstructures_static.a libstructures_static_plain.a
  ar rcs libstructures_static.a kernels_a.o kernels_b.o
  twin ar rcs libstructures_static_plain.a kernels_a.plain.o kernels_b.plain.o
  "$pasta" main_c.o -L. -lstructures_static -o static_main "${rt[@]}"
  twin clang++-22 main_c.o -L. -lstructures_static_plain -o static_main.plain "${rt[@]}"
  # Kernels in a shared library (its own static CUDA runtime), linked at
  # build time and found through $ORIGIN, and opened with dlopen by a main
  # that links no kernels.
  "$pasta" -shared kernels_a.o kernels_b.o -o libstructures_kernels.so "${rt[@]}"
  twin clang++-22 -shared kernels_a.plain.o kernels_b.plain.o \
    -o libstructures_kernels_plain.so "${rt[@]}"
  "$pasta" main_c.o -L. -lstructures_kernels -Wl,-rpath,'$ORIGIN' -o shared_main "${rt[@]}"
  twin clang++-22 main_c.o -L. -lstructures_kernels_plain -Wl,-rpath,'$ORIGIN' \
    -o shared_main.plain "${rt[@]}"
  gcc -O2 -g -Wall -Wextra -DKERNELS_OPTIONAL -c "$src/main_c.c" -o main_c_dl.o
  "$pasta" main_c_dl.o -o dl_main -ldl -pthread
  twin gcc main_c_dl.o -o dl_main.plain -ldl -pthread
}

# One .cu, one program: NAME [extra link flags...]
build_one() {
  local name=$1
  shift
  "$pasta" "${cu[@]}" "$src/$name/$name.cu" -o "$name" "$@" "${rt[@]}"
  plain -isystem "$cuda/include/cccl" "$src/$name/$name.cu" \
    -o "$name.plain" "$@" "${rt[@]}"
}

# Relocatable device code (tests/gpu/rdc_*.cu, also built by CMake for
# scripts/gpu_check.sh): two units compiled with -fgpu-rdc, device-linked by
# clang's linker wrapper; the host registers them through offloading entries.
build_rdc() {
  local u
  for u in rdc_lib rdc_main; do
    "$pasta" "${cu[@]}" -fgpu-rdc -c "$here/tests/gpu/$u.cu" -o $u.o
    plain -fgpu-rdc -c "$here/tests/gpu/$u.cu" -o $u.plain.o
  done
  "$pasta" -fgpu-rdc --offload-link --cuda-path="$cuda" --offload-arch=sm_90 \
    rdc_lib.o rdc_main.o -o rdc "${rt[@]}"
  twin clang++-22 -fgpu-rdc --offload-link --cuda-path="$cuda" --offload-arch=sm_90 \
    rdc_lib.plain.o rdc_main.plain.o -o rdc.plain "${rt[@]}"
}

# Dynamic parallelism (cdp/cdp.cu): a kernel launching itself from the
# device needs relocatable device code and CUDA's device runtime at the
# device link, as nvcc -rdc=true gives it.
build_cdp() {
  local dl=(-fgpu-rdc --offload-link -Xoffload-linker -L"$cuda/lib64"
    -Xoffload-linker -lcudadevrt)
  "$pasta" "${cu[@]}" -fgpu-rdc -c "$src/cdp/cdp.cu" -o cdp.o
  plain -fgpu-rdc -c "$src/cdp/cdp.cu" -o cdp.plain.o
  "$pasta" "${dl[@]}" --cuda-path="$cuda" --offload-arch=sm_90 cdp.o -o cdp "${rt[@]}"
  twin clang++-22 "${dl[@]}" --cuda-path="$cuda" --offload-arch=sm_90 cdp.plain.o \
    -o cdp.plain "${rt[@]}"
}

# gcc_link: the project's own Makefile, unmodified; NVCC swapped only. The
# plain twin's NVCC is clang++ (no nvcc here), with its flags for sm_90.
build_gcc_link() {
  local mk=$here/tests/link/make_gcc d
  rm -rf gcc_link_make && mkdir -p gcc_link_make/pasta gcc_link_make/plain
  (cd gcc_link_make/pasta && make -f "$mk/Makefile" SRC="$mk" CUDA_DIR="$cuda" \
    NVCC="$build/bin/pasta-nvcc")
  twin make -C gcc_link_make/plain -f "$mk/Makefile" SRC="$mk" CUDA_DIR="$cuda" \
    NVCC=clang++-22 NVCC_FLAGS="-x cuda --cuda-path=$cuda --offload-arch=sm_90 -Wno-unknown-cuda-version"
  cp gcc_link_make/pasta/blur gcc_link
  twin cp gcc_link_make/plain/blur gcc_link.plain
}

for g in $groups; do
  case $g in
    linkage) build_linkage ;;
    threads | graphs | cxx_names | vectors | hotshapes | flushways | captures | shortloops | occupancy | segreduce | sparseflush | asmcopy | asmloads | onethread | gridstride | wmma | texsurf | warpagg | scopedatomics | slabwalk | launchfit | casinsert | constptrs | warpnorm | halfmath | exitgather | spaceptrs | ringsweep) build_one "$g" ;;
    # Its per-bit blocks have the same sites: shared, their counters fit the
    # counting code in 1,024 threads (62 registers), and the capped copy
    # this structure tests would not run. Built with a counter each.
    regcap)
      "$pasta" "${cu[@]}" -mllvm -pasta-share-like-counters=0 "$src/$g/$g.cu" -o "$g" "${rt[@]}"
      plain -isystem "$cuda/include/cccl" "$src/$g/$g.cu" -o "$g.plain" "${rt[@]}"
      ;;
    # With its twin adding into the kernels' frames (-pasta-callee-frames,
    # off by default), the rule it tests.
    framecallee)
      "$pasta" "${cu[@]}" -mllvm -pasta-callee-frames "$src/$g/$g.cu" -o "$g" "${rt[@]}"
      plain -isystem "$cuda/include/cccl" "$src/$g/$g.cu" -o "$g.plain" "${rt[@]}"
      ;;
    # Also with the poll loop's wrap flush at a header count of 3 instead
    # of 2^32 - 1, so that it runs (the same counts): spinwait.wrap.
    spinwait)
      build_one "$g"
      "$pasta" "${cu[@]}" -mllvm -pasta-guard-wrap-at=3 "$src/$g/$g.cu" -o "$g.wrap" "${rt[@]}"
      twin cp "$g.plain" "$g.wrap.plain"
      ;;
    # Also with the runs guard's flush every 3 runs of the loop's header
    # (persistent.wrap) and with its loop taken as crowded (every block less
    # frequent than the header, and the start function's, counted where
    # taken: persistent.crowded): the same counts.
    persistent)
      build_one "$g"
      "$pasta" "${cu[@]}" -mllvm -pasta-guard-wrap-at=3 "$src/$g/$g.cu" -o "$g.wrap" "${rt[@]}"
      "$pasta" "${cu[@]}" -mllvm -pasta-crowded-loop-units=1 "$src/$g/$g.cu" -o "$g.crowded" "${rt[@]}"
      twin cp "$g.plain" "$g.wrap.plain"
      twin cp "$g.plain" "$g.crowded.plain"
      ;;
    # Also with its counters of loop blocks in local memory (the slots of
    # one array; -pasta-many-loop-counters, off by default): skipahead.mem,
    # a counter per block (its 80 blocks of one line share a few by default).
    skipahead)
      build_one "$g"
      "$pasta" "${cu[@]}" -mllvm -pasta-many-loop-counters=32 -mllvm -pasta-share-like-counters=0 \
        "$src/$g/$g.cu" -o "$g.mem" "${rt[@]}"
      twin cp "$g.plain" "$g.mem.plain"
      ;;
    # Also with buffered compact working-set copies (a mark call every 4
    # accesses, in the arms too; the tree's 38 accesses are under the
    # default -pasta-ws-buffer-above) and with inline ones (no compact
    # copy): the same counts in every mode. NAME.buf, NAME.inline.
    splitwarps)
      build_one "$g"
      "$pasta" "${cu[@]}" -mllvm -pasta-ws-compact-buffer=4 -mllvm -pasta-ws-buffer-above=0 \
        "$src/$g/$g.cu" -o "$g.buf" "${rt[@]}"
      PASTA_WS_COMPACT_ABOVE=100000 "$pasta" "${cu[@]}" "$src/$g/$g.cu" -o "$g.inline" "${rt[@]}"
      twin cp "$g.plain" "$g.buf.plain"
      twin cp "$g.plain" "$g.inline.plain"
      ;;
    # Also with a flush at every device function's return (the comparison
    # scripts/gpu_devfn.sh times): NAME.percall.
    devfn | callgraph)
      build_one "$g"
      PASTA_CALLEE_COUNTS=0 "$pasta" "${cu[@]}" "$src/$g/$g.cu" -o "$g.percall" "${rt[@]}"
      ;;
    # Also at -O0, where every pointer is generic (resolved at run time).
    memops)
      build_one memops
      "$pasta" "${cu[@]}" -O0 "$src/memops/memops.cu" -o memops-O0 "${rt[@]}"
      plain -O0 "$src/memops/memops.cu" -o memops-O0.plain "${rt[@]}"
      ;;
    driver_api | driver_occupancy | launch_ex) build_one "$g" -L"$cuda/lib64/stubs" -lcuda ;;
    # Thrust through the wrapper, with no -I of ours: it must find cccl.
    thrust) build_one thrust ;;
    radixsort) build_one radixsort ;;
    rdc) build_rdc ;;
    cdp) build_cdp ;;
    gcc_link) build_gcc_link ;;
    *) echo "build_structures: unknown group $g" >&2; exit 2 ;;
  esac
done
# A full build (no groups named) leaves a stamp: scripts/stage_ws_before_after.sh
# stages these executables without building them again while it is newer
# than the plugin.
[ $# -gt 0 ] || [ "$twins" = 0 ] || touch "$out/.all-built"
