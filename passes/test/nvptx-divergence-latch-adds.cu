// The vote at the latch of a loop whose exit diverges (bpnn_hidden's
// strided sum: lanes leave at different trips), __pasta_div_branch_body,
// adds its figures in every lane, the lanes other than the first adding 0,
// with no branch round the first lane's adds (which ptxas turned into
// predicated moves: 3 SASS more a trip at bpnn_hidden's latch;
// device_rt_div_rows.inc.c).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s

// CHECK-LABEL: .visible .entry _Z11strided_sumPKfPfi__pasta_div(
// The latch: b += 256, b < n, the vote of the lanes going round.
// CHECK: add.s32 [[B:%r[0-9]+]], [[B]], 256;
// CHECK: setp.lt.s32 [[GO:%p[0-9]+]], [[B]], %r{{[0-9]+}};
// CHECK: activemask.b32 [[LANES:%r[0-9]+]];
// CHECK: vote.sync.ballot.b32 [[YES:%r[0-9]+]], [[GO]], [[LANES]];
// CHECK-NOT: bra
// The lanes going round (the header's active lanes), added by every lane.
// CHECK: popc.b32 %r{{[0-9]+}}, [[YES]];
// CHECK: bra

__global__ void strided_sum(const float *p, float *out, int n) {
  float s = 0.0f;
  for (int b = threadIdx.x; b < n; b += 256)
    s += p[b * 16 + blockIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}
