// A bounds check outside loops (`if (i < n)`, a guarded body the plan
// derives: __pasta_div_branch_none_add) adds nothing in a warp whose active
// lanes all take it, the usual case: the helper tests that first, in every
// lane alike, so that warp skips the first-lane test and its %lanemask_lt
// read (device_rt_div_rows.inc.c). Before, every warp read
// %lanemask_lt and split at the first-lane test, then tested the ballot in
// that lane alone.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s

// CHECK-LABEL: .visible .entry _Z4axpyfPKfPfi__pasta_div(
// CHECK: activemask.b32 [[LANES:%r[0-9]+]];
// CHECK-NEXT: vote.sync.ballot.b32 [[YES:%r[0-9]+]], %p{{[0-9]+}}, [[LANES]];
// CHECK-NOT: %lanemask_lt
// CHECK: setp.eq.b32 [[AGREE:%p[0-9]+]], [[YES]], [[LANES]];
// CHECK-NEXT: @[[AGREE]] bra
// CHECK: %lanemask_lt;

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
