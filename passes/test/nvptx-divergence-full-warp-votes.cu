// A branch or switch measured in a loop of a divergence copy votes over the
// active lanes at every iteration. With the lane mask a run-time value ptxas
// checks it at each vote (a MATCH.ANY, a REDUX.OR and a BRA.DIV in SASS);
// a full warp, the usual case, votes with the constant mask instead
// (device_rt_div_rows.inc.c, pasta_div_active_ballot/_match): histogram's
// grid-stride latch `i < n`, a switch on a lane-dependent value. Partial
// warps keep the run-time mask. The figures are the same: the full mask is
// the active lanes.
// A shared atomic at a data-dependent bin (histogram's) counts its distinct
// words as the lowest lanes of each match.any group: a lane is one when no
// lane of its group is below it (an AND with %lanemask_lt), not when a
// count of trailing zeros of the group equals its lane index.
// REQUIRES: cuda
// RUN: env PASTA_DIVERGENCE=1 %cuda_device -O2 -gline-tables-only -S %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry _Z11stride_loopPiii__pasta_div(
// CHECK: Loop Header
// CHECK: setp.ne.b32 {{%p[0-9]+}}, [[M:%r[0-9]+]], -1;
// CHECK: vote.sync.ballot.b32 [[B:%r[0-9]+]], [[C:%p[0-9]+]], [[M]];
// CHECK: vote.sync.ballot.b32 [[B]], [[C]], -1;
__global__ void stride_loop(int *out, int n, int step) {
  int s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    s += i * i;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// CHECK-LABEL: .entry _Z11switch_loopPiii__pasta_div(
// CHECK: Loop Header
// CHECK: setp.ne.b32 {{%p[0-9]+}}, [[M:%r[0-9]+]], -1;
// CHECK: match.any.sync.b64 [[S:%r[0-9]+]], [[V:%rd[0-9]+]], [[M]];
// CHECK: match.any.sync.b64 [[S]], [[V]], -1;
__global__ void switch_loop(int *out, int n, int k) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    switch ((threadIdx.x + i) % 4) {
    case 0:
      s += 3;
      break;
    case 1:
      s ^= k;
      break;
    case 2:
      s *= 7;
      break;
    default:
      s -= i;
      break;
    }
  }
  out[threadIdx.x] = s;
}

// CHECK-LABEL: .entry _Z4binsPKhi__pasta_div(
// CHECK: Loop Header
// CHECK: match.any.sync.b32 [[SAME:%r[0-9]+]], {{%r[0-9]+}}, -1;
// CHECK-NEXT: and.b32 [[BELOW:%r[0-9]+]], [[SAME]], {{%r[0-9]+}};
// CHECK-NEXT: setp.eq.b32 [[LOWEST:%p[0-9]+]], [[BELOW]], 0;
// CHECK-NEXT: vote.sync.ballot.b32 {{%r[0-9]+}}, [[LOWEST]], -1;
__global__ void bins(const unsigned char *data, int n) {
  __shared__ unsigned int counts[256];
  counts[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&counts[data[i]], 1u);
}
