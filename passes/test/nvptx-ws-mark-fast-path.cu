// The fast path of a working-set copy's batch, one access per thread per
// parameter (vector_add): each flag comes from its parameter's range, the
// batch takes the full path where any flag has bit 63 set (out of its
// range) or hotness is counted, and otherwise stores 1 in the flags (no
// read first: the warp waited on those loads, ncu on an H200).
// - No sentinel per access: no select of -1 and no compare with -1 (two
//   of each per access in SASS, 64-bit), one OR and one shift per batch.
// - No spills, and at most 32 registers (a full SM of 256-thread blocks).
//   The copy's stack frame is __pasta_ws_mark_uncached's (the out-of-line
//   full path keeps its four pointers in local memory): only that path
//   touches local memory.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-LABEL: .entry _Z3addPKfS0_Pfi__pasta_ws(
// CHECK-NOT: {{selp|setp}}{{.*}}.b64 {{.*}}, -1
// CHECK: st.global.b32
// CHECK-NOT: {{selp|setp}}{{.*}}.b64 {{.*}}, -1
// CHECK: -9223372036854775808
// CHECK-NOT: {{selp|setp}}{{.*}}.b64 {{.*}}, -1
// CHECK: shr.u64 {{.*}}, 63;
// CHECK-NOT: {{selp|setp}}{{.*}}.b64 {{.*}}, -1
// The flags are stored, not read first (no load for the warp to wait on).
// CHECK-NOT: ld.global.u8
// CHECK: @%pn0 st.global.u8 [{{.*}}], %one;
// CHECK-NOT: ld.global.u8
// CHECK-NOT: ld.local
// CHECK-NOT: st.local
// CHECK: ret;
// CHECK-LABEL: .func __pasta_ws_mark_uncached(

// PTXAS-LABEL: Compiling entry function '_Z3addPKfS0_Pfi__pasta_ws'
// PTXAS-NEXT: Function properties for _Z3addPKfS0_Pfi__pasta_ws
// PTXAS-NEXT: {{(0|32)}} bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NEXT: Used {{[1-2]?[0-9]|3[0-2]}} registers
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
