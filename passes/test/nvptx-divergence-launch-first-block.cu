// A divergence copy counts its launch's warps and threads in the grid's
// first thread (__pasta_div_count_launch) behind the counting code's two
// steps: the block index x alone, in every warp (the counting code's own
// first-block test, which ptxas shares), then, in blocks of index x 0, a
// ballot of thread index x 0 (device_rt_div_rows.inc.c).
// Before, every warp of every block tested `tid.x | ctaid.x` at the entry:
// the OR, a branch and a reconvergence region (BSSY, BSYNC) a warp.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s

// CHECK-LABEL: .visible .entry _Z4axpyfPKfPfi__pasta_div(
// CHECK: mov.u32 [[TX:%r[0-9]+]], %tid.x;
// CHECK-NOT: or.b32 {{.*}}[[TX]]{{[,;]}}
// CHECK: vote.sync.ballot.b32
// CHECK-LABEL: .entry _Z4axpyfPKfPfi__pasta_divg(

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
