// What the counts miss reaches the profile, not only a compile-time
// warning: a project's -w (Altis builds every benchmark with it) silences
// the plugin's warnings, and CUDA 13's grid.sync() is inline PTX
// (atom.add.release.gpu, ld.acquire.gpu polls) whose atomics are not
// counted. The warning's text goes into the module's strings and the
// descriptor's `uncounted` field names it (0: nothing); the runtime puts it
// in the profile ("uncounted") and the report ("not counted: ...").
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -mllvm -pasta-variants=0 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %cuda_device -O2 -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -mllvm -pasta-variants=0 -w 2>&1 | FileCheck %s
// RUN: %cuda_device -O2 -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -mllvm -pasta-variants=0 -w -DNO_SYNC 2>&1 | FileCheck %s --check-prefix=NONE

// WARN: warning: pasta: inline assembly that loads, stores or copies memory is not counted (its accesses and bytes are missing from the profile) in 'sync_then_store(unsigned int*, float*)'

// With -w no warning, and the note in the strings: its offset is the
// descriptor's field after num_derived (the one before the derived table's
// address), and it is not 0.
// CHECK-NOT: warning:
// CHECK: @__pasta_strings_{{[0-9a-f]+}} = {{.*}}c"{{.*}}\00inline assembly that loads, stores or copies memory is not counted (its accesses and bytes are missing from the profile) in 'sync_then_store(unsigned int*, float*)'\00
// CHECK: @__pasta_desc_{{[0-9a-f]+}} = {{.*}} i32 {{[0-9]+}}, i32 {{[1-9][0-9]*}}, i64 ptrtoint (ptr addrspace(1) @__pasta_derived_

// A kernel with no such assembly: no note, the field 0.
// NONE-NOT: not counted
// NONE: @__pasta_desc_{{[0-9a-f]+}} = {{.*}} i32 {{[0-9]+}}, i32 0, i64 ptrtoint (ptr addrspace(1) @__pasta_derived_

// The arrive-and-poll of CUDA 13's grid.sync() (cooperative_groups'
// details/sync.h), written out: the header needs libcu++. Inlined into the
// kernel, which the warning and the note name.
__device__ void grid_arrive(unsigned *arrived) {
#ifndef NO_SYNC
  unsigned old, now;
  asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;"
               : "=r"(old)
               : "l"(arrived), "r"(1u)
               : "memory");
  do
    asm volatile("ld.acquire.gpu.u32 %0, [%1];"
                 : "=r"(now)
                 : "l"(arrived)
                 : "memory");
  while (now < gridDim.x * blockDim.x);
#endif
}

__global__ void sync_then_store(unsigned *arrived, float *out) {
  grid_arrive(arrived);
  out[threadIdx.x] = 1.0f;
}
