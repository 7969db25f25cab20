#!/usr/bin/env bash
# GPU check of the program structures (tests/structures/README.md). Every
# structure built by scripts/build_structures.sh runs plain and
# instrumented, ending the way its mode says; for each run:
#  - both builds exit with the expected status and print the same stdout,
#    which says PASSED (or, for the fault, that the fault was seen);
#  - the instrumented run's profile and stderr pass
#    tests/structures/check_structure.py against the EXPECT lines of the
#    structure's source (counts derived by hand), and stderr has no
#    `pasta: warning|error` line the source does not allow.
# Nothing is skipped: a structure whose counts are lost is a FAIL row.
#
# Run on the GPU machine from the repository root over a staged tree
# (scripts/stage_gpu.sh copies build/bin/structures to
# build-gpu/bin/structures and libpasta_rt.so to build-gpu/lib):
#   run(command="bash scripts/gpu_structures.sh", carry=["build-gpu"])
# scripts/gpu_check.sh calls it near its end.
# Environment: PASTA_STRUCTURES_BIN (default build-gpu/bin/structures),
# PASTA_STRUCTURES_LIB (the directory of libpasta_rt.so, default <bin>/../../lib),
# PASTA_STRUCTURES_ONLY (an extended regex: only the rows whose PROGRAM it
# matches whole run, e.g. 'regcap|flushways'; default all), OUT (default
# ./gpu-out).
# PASTA_STRUCTURES_NCU=1 also profiles each selected row's plain twin with
# Nsight Compute (scripts/ncu_metrics.txt) and compares its FLOPs and bytes
# with the row's profile (scripts/compare_ncu.py): $OUT/structures-ncu.md.
# Results: $OUT/structures.md (a table), $OUT/structures.log (every run's
# output and check), $OUT/structures/<row>/ (stdout, stderr, profile).
set -u
. "$(dirname "$0")/lib/gpu.sh"
OUT=${OUT:-$PWD/gpu-out}
src=$PWD/tests/structures
bin=${PASTA_STRUCTURES_BIN:-$PWD/build-gpu/bin/structures}
mkdir -p "$OUT/structures"
log=$OUT/structures.log
table=$OUT/structures.md
: > "$log"
if [ ! -d "$bin" ]; then
  echo "gpu_structures: no $bin (build with scripts/build_structures.sh, stage with scripts/stage_gpu.sh)" | tee "$table"
  exit 1
fi
bin=$(cd "$bin" && pwd)
lib=${PASTA_STRUCTURES_LIB:-$bin/../../lib}
[ -d "$lib" ] && lib=$(cd "$lib" && pwd)
# The instrumented programs need libpasta_rt.so; their rpath names the build
# directory of the development machine, so it is found here through this.
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{
  echo "# Program structures on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
  echo
  echo "| structure | mode | exit (plain / PASTA) | stdout | profile against the hand-derived counts |"
  echo "|---|---|---|---|---|"
} > "$table"
pass=0 fail=0

# [ROW_ENV='VAR=VALUE ...'] row STRUCTURE MODE EXPECT_SOURCE WANT_STATUS PROGRAM [ARGS...]
# The plain twin is PROGRAM.plain with the same arguments, where
# ./libstructures_kernels.so becomes ./libstructures_kernels_plain.so.
# ROW_ENV is the instrumented run's environment (PASTA_WORKING_SET=1 for
# the working-set mode, whose MODE, ws, selects the EXPECT(ws) lines).
row() {
  local name=$1 mode=$2 expect=$3 want=$4 prog=$5
  shift 5
  [[ -z ${PASTA_STRUCTURES_ONLY:-} || $prog =~ ^(${PASTA_STRUCTURES_ONLY})$ ]] ||
    return 0
  local dir
  dir=$OUT/structures/$(echo "$prog-$mode" | tr -c 'A-Za-z0-9_.\n-' _)
  rm -rf "$dir" && mkdir -p "$dir"
  local plain_args=() a
  for a in "$@"; do
    plain_args+=("${a/libstructures_kernels.so/libstructures_kernels_plain.so}")
  done
  (cd "$bin" && timeout 300 "./$prog.plain" "${plain_args[@]}" > "$dir/plain.out" 2> "$dir/plain.err")
  local rc_plain=$?
  # shellcheck disable=SC2086 # ROW_ENV: words VAR=VALUE
  (cd "$bin" && env ${ROW_ENV:-} PASTA_OUTPUT="$dir/profile.json" timeout 300 "./$prog" "$@" > "$dir/out" 2> "$dir/err")
  local rc=$?
  local said problems=()
  said=$(grep -o '[a-z_]*: \(PASSED\|FAILED\|fault [A-Za-z ]*\)' "$dir/out" | head -n 1)
  [ "$rc_plain" = "$want" ] || problems+=("plain exit $rc_plain, want $want")
  [ "$rc" = "$want" ] || problems+=("PASTA exit $rc, want $want")
  if [ "$mode" = fault ]; then
    grep -q "fault seen" "$dir/out" || problems+=("fault not seen")
  else
    grep -q "PASSED" "$dir/out" || problems+=("PASTA build did not pass")
    grep -q "PASSED" "$dir/plain.out" || problems+=("plain build did not pass")
  fi
  cmp -s "$dir/plain.out" "$dir/out" || problems+=("stdout differs from the plain build's")
  python3 "$src/check_structure.py" "$dir/profile.json" "$src/$expect" \
    --mode "$mode" --stderr "$dir/err" > "$dir/check.txt" 2>&1
  local result
  result=$(tail -n 1 "$dir/check.txt")
  result=${result#RESULT: }
  [ "$result" = ok ] || problems+=("profile: ${result#FAIL: }")
  grep -q "driver shutting down" "$dir/err" &&
    problems+=("counts read after the CUDA runtime's teardown")
  local verdict
  if [ ${#problems[@]} = 0 ]; then
    pass=$((pass + 1)) verdict=ok
  else
    fail=$((fail + 1))
    verdict="FAIL: $(printf '%s; ' "${problems[@]}")"
    verdict=${verdict%; }
  fi
  {
    echo "== $name / $mode: ${ROW_ENV:+$ROW_ENV }./$prog $* (plain exit $rc_plain, PASTA exit $rc)"
    echo "-- plain stdout/stderr"; cat "$dir/plain.out" "$dir/plain.err"
    echo "-- PASTA stdout/stderr"; cat "$dir/out" "$dir/err"
    echo "-- check"; cat "$dir/check.txt"
    echo "-> $verdict"
  } >> "$log"
  [ "${PASTA_STRUCTURES_NCU:-0}" = 1 ] && ncu_row "$dir" "$prog" "${plain_args[@]}"
  printf '| %s | %s | %s / %s | %s | %s |\n' "$name" "$mode" "$rc_plain" "$rc" \
    "${said:-(nothing)}" "${verdict//|/\\|}" >> "$table"
}

# ncu_row DIR PROGRAM [ARGS...]: the plain twin under Nsight Compute, the
# CSV and the row's profile into $OUT/structures-ncu for compare_ncu.py.
ncu_work=$OUT/structures-ncu
ncu_progs=()
ncu_row() {
  local dir=$1 prog=$2 key
  shift 2
  key=$(basename "$dir")
  mkdir -p "$ncu_work"
  cp "$dir/profile.json" "$ncu_work/$key.json" 2>/dev/null || return 0
  local metrics
  metrics=$(tr -d ' \n' < "$PWD/scripts/ncu_metrics.txt")
  (cd "$bin" && "$(pasta_find_ncu)" --csv --page raw --print-units base \
    --print-kernel-base mangled --metrics "$metrics" \
    --log-file "$ncu_work/$key.ncu.csv" \
    "./$prog.plain" "$@" > /dev/null 2>&1) && ncu_progs+=("$key")
}

L=main_c.c # the gcc family's kernels and expectations
row "gcc main, kernels in 2 .cu" return $L 0 gcc_main return
row "gcc main, kernels in 2 .cu" exit $L 0 gcc_main exit
row "gcc main, kernels in 2 .cu" exit-thread $L 0 gcc_main exit-thread
row "gcc main, kernels in 2 .cu" quick-exit $L 0 gcc_main quick-exit
row "gcc main, kernels in 2 .cu" reset $L 0 gcc_main reset
row "C++ main without kernels" return $L 0 cpp_main
row "C++ main without kernels" exit-helper $L 0 cpp_main exit-helper
row "kernels in a static library" return $L 0 static_main return
row "kernels in a shared library" return $L 0 shared_main return
row "kernels in a shared library" reset $L 0 shared_main reset
row "dlopen + dlclose" dlopen $L 0 dl_main dlopen ./libstructures_kernels.so
row "4 host threads, 4 streams" return threads/threads.cu 0 threads
row "CUDA graphs (capture, kernel nodes)" return graphs/graphs.cu 0 graphs
row "driver API (cuLaunchKernel)" return driver_api/driver_api.cu 0 driver_api
row "C++ templates, namespaces, lambdas" return cxx_names/cxx_names.cu 0 cxx_names
row "Thrust / CUB" return thrust/thrust.cu 0 thrust
row "device memcpy/memset, run-time length" return memops/memops.cu 0 memops
row "device memcpy/memset, run-time length, -O0" return memops/memops.cu 0 memops-O0
row "non-inlined device functions" return devfn/devfn.cu 0 devfn
row "many device functions, tiny launches, float4" return callgraph/callgraph.cu 0 callgraph
row "guarded tile updates, grid-stride loop" return hotshapes/hotshapes.cu 0 hotshapes
row "warp-uniform early returns, counted loop" return flushways/flushways.cu 0 flushways
row "pointers captured by lambdas and functors" return captures/captures.cu 0 captures
# Working-set mode: the EXPECT(ws) lines (pages touched per launch).
ROW_ENV=PASTA_WORKING_SET=1 row "pointers captured by lambdas and functors" ws captures/captures.cu 0 captures
row "per-thread loops of a few trips (CUB transform)" return shortloops/shortloops.cu 0 shortloops
ROW_ENV=PASTA_WORKING_SET=1 row "per-thread loops of a few trips (CUB transform)" ws shortloops/shortloops.cu 0 shortloops
row "lanes leaving a loop apart, a barrier inside the bounds check" return exitgather/exitgather.cu 0 exitgather
row "generic accesses in loops: global, shared and local objects" return spaceptrs/spaceptrs.cu 0 spaceptrs
row "neighbours on a torus; a coordinates loop in a centres loop" return ringsweep/ringsweep.cu 0 ringsweep
row "threads waiting on each other (spin loop, atomicCAS lock)" return spinwait/spinwait.cu 0 spinwait
row "threads waiting on each other, wrap flush every 3 polls" return spinwait/spinwait.cu 0 spinwait.wrap
# Warps split on purpose around the runtime's calls and flushes: the same
# hand-derived counts in counting and working-set mode, with unbuffered
# (default), buffered and inline working-set copies.
row "warps split around runtime calls" return splitwarps/splitwarps.cu 0 splitwarps
for v in splitwarps splitwarps.buf splitwarps.inline; do
  ROW_ENV=PASTA_WORKING_SET=1 row "warps split around runtime calls" ws splitwarps/splitwarps.cu 0 $v
done
row "1,024-thread blocks the counting kernel's registers cannot take" return regcap/regcap.cu 0 regcap
row "cooperative and persistent (spin-barrier) launches sized by the occupancy API" return occupancy/occupancy.cu 0 occupancy
row "driver API occupancy, cuLaunchCooperativeKernel, cache configs, a pending error" return driver_occupancy/driver_occupancy.cu 0 driver_occupancy
row "cuLaunchKernelEx (direct, entry point, cooperative), CUkernel attributes" return launch_ex/launch_ex.cu 0 launch_ex
row "skip-ahead over a table of bit matrices (curand_init's)" return skipahead/skipahead.cu 0 skipahead
row "skip-ahead, counters of loop blocks in local memory" return skipahead/skipahead.cu 0 skipahead.mem
row "short threads, guarded blocks mostly not taken" return sparseflush/sparseflush.cu 0 sparseflush
row "a tile staged by inline PTX (cp.async, ldmatrix) beside C++" return asmcopy/asmcopy.cu 0 asmcopy
row "loads, stores and copies in inline PTX (__ldcs, CUB ThreadLoad, cp.async, ldmatrix)" return asmloads/asmloads.cu 0 asmloads
ROW_ENV=PASTA_WORKING_SET=1 row "loads, stores and copies in inline PTX (__ldcs, CUB ThreadLoad, cp.async, ldmatrix)" ws asmloads/asmloads.cu 0 asmloads
row "a setup kernel guarded to one thread, 1 and 1,024 threads" return onethread/onethread.cu 0 onethread
row "grid-stride loops of short threads (GUPS's init and check), 1-D and 2-D grids" return gridstride/gridstride.cu 0 gridstride
row "dynamic parallelism: a kernel launching itself from the device" return cdp/cdp.cu 0 cdp
row "tensor-core tiles through nvcuda::wmma (fragments from global and shared memory)" return wmma/wmma.cu 0 wmma
row "texture fetches and surface loads and stores over a CUDA array (not counted)" return texsurf/texsurf.cu 0 texsurf
row "warp-aggregated atomics: coalesced_threads, labeled_partition, cg::reduce, __reduce_add_sync" return warpagg/warpagg.cu 0 warpagg
row "scoped atomics: atomicAdd_block on shared, atomicAdd/CAS/Exch_system on global" return scopedatomics/scopedatomics.cu 0 scopedatomics
row "warp-cooperative search: 32 unrolled walks of slab lists (SlabHash's bulk search)" return slabwalk/slabwalk.cu 0 slabwalk
row "a warp-cooperative insert retrying atomicCAS, with an allocator loop (SlabHash's build)" return casinsert/casinsert.cu 0 casinsert
row "device pointers in a __constant__ struct the host fills (AutoDock-GPU's GpuData)" return constptrs/constptrs.cu 0 constptrs
row "a device function over the return limit called in loops by two kernels (a frame each)" return framecallee/framecallee.cu 0 framecallee
row "CUB's DeviceRadixSort::SortPairs called directly (cuda-lbvh's Morton-code sort)" return radixsort/radixsort.cu 0 radixsort
row "a persistent loop of many counters, items from a pool (MCX's shape)" return persistent/persistent.cu 0 persistent
row "a persistent loop, the runs guard's flush every 3 runs" return persistent/persistent.cu 0 persistent.wrap
row "a persistent loop taken as crowded, its blocks counted where taken" return persistent/persistent.cu 0 persistent.crowded
row "copies whose registers the block cannot have (OneSweep's binning shape; shared rows by x, dim3(16, 64))" return launchfit/launchfit.cu 0 launchfit
row "CUB BlockReduce warp reductions and scans (inline-PTX adds, counted) beside a C++ shuffle sum" return warpnorm/warpnorm.cu 0 warpnorm
row "cuda_fp16.h and cuda_bf16.h arithmetic (inline PTX, pairs per element) beside _Float16" return halfmath/halfmath.cu 0 halfmath
ROW_ENV=PASTA_WORKING_SET=1 row "copies whose registers the block cannot have (OneSweep's binning shape; shared rows by x, dim3(16, 64))" ws launchfit/launchfit.cu 0 launchfit
row "kernel faults" fault $L 3 gcc_main fault
# Linked by gcc without the runtime (tests/link/make_gcc/): it loads
# libpasta_rt.so from LD_LIBRARY_PATH (the recorded path is the
# development machine's).
row "gcc links, kernels by pasta-nvcc (no -g)" return ../link/make_gcc/blur.cu 0 gcc_link

if [ ${#ncu_progs[@]} -gt 0 ]; then
  nvidia-smi --query-gpu=name,driver_version --format=csv > "$ncu_work/gpu.csv"
  python3 "$PWD/scripts/compare_ncu.py" --work "$ncu_work" \
    --kernels "${ncu_progs[@]}" --validation "$OUT/structures-ncu.md"
  cat "$OUT/structures-ncu.md"
fi
echo >> "$table"
echo "$pass passed, $fail failed (scripts/gpu_structures.sh; per-run logs in structures.log)" >> "$table"
cat "$table"
[ "$fail" = 0 ]
