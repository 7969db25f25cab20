// A block counted where it is taken (a bounds check's cold edge: the lanes
// past the end) adds its lanes' number from the first of them without a
// branch: every lane computes the slot, the first (no running lane below
// it, %lanemask_lt) adds under a predicate (device_rt.c,
// __pasta_count_lanes). With the branch, ptxas wrapped the add in a
// reconvergence region and elected the lane by a count of trailing zeros
// compared with the lane id: about 21 SASS instructions a site, which
// MCX's crowded photon loop ran 104 million times a run.
// RUN: %cuda_device -O2 -S %s -o - 2>/dev/null | FileCheck %s
// CHECK-LABEL: .entry _Z5scalePfi(
// CHECK: activemask.b32 [[LANES:%r[0-9]+]];
// CHECK: mov.u32 [[BELOW:%r[0-9]+]], %lanemask_lt;
// CHECK-NOT: laneid
// CHECK: and.b32 [[MINE:%r[0-9]+]], [[BELOW]], [[LANES]];
// CHECK: setp.eq.b32 first, [[MINE]], 0;
// CHECK-NEXT: @first red.relaxed.gpu.global.add.u64
// CHECK: ret;

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  x[i] *= 2.0f;
}
