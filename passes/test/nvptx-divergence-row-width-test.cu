// A divergence copy with a body for rows of 32 tests the block's shape once
// at its entry (__pasta_div_row_width: x a multiple of 32, or y and z both
// 1). y and z are at least 1 in every launch, so both are 1 exactly where
// y | z is: one OR and one compare instead of two compares and an AND of
// predicates (device_rt_div_rows.inc.c: axpy's copy 62 -> 61 SASS
// instructions a warp).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence -mllvm -pasta-div-host-general=0 2>/dev/null | FileCheck %s

// CHECK-LABEL: .visible .entry _Z4axpyfPKfPfi__pasta_div(
// CHECK: mov.u32 [[Y:%r[0-9]+]], %ntid.y;
// CHECK-NEXT: mov.u32 [[Z:%r[0-9]+]], %ntid.z;
// CHECK-NOT: and.pred
// CHECK: or.b32 [[YZ:%r[0-9]+]], [[Y]], [[Z]];
// CHECK-NEXT: setp.eq.b32 [[FLAT:%p[0-9]+]], [[YZ]], 1;
// CHECK-NEXT: or.pred [[ROWS:%p[0-9]+]], %p{{[0-9]+}}, [[FLAT]];
// CHECK-NEXT: @[[ROWS]] bra

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
