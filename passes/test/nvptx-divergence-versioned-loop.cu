// A loop whose exit diverges (bpnn_hidden's strided sum: lanes leave at
// different trips) is measured at every trip: the latch's vote, the drain
// test, the access's full-warp test keep one load in flight a trip. A warp
// full at its preheader, in one row of 32 lanes, first runs the trips that
// all its lanes take (the least of the lanes' backedges: one redux.sync.min)
// in a clone of the loop with nothing measured, a load, the sum and a trip
// count (ptxas unrolls it as the plain loop), then the measured loop
// (passes/DivergenceVersioned.cpp). Its access, one float per lane 64 bytes
// apart, has the same figures in every full warp wherever the row starts.
// consecutive_sum's (4 bytes apart) depends on where the row starts: it is
// not versioned. strided_once's clone keeps its `#pragma unroll 1`
// (the latch's loop metadata). -pasta-div-versioned-loops=0 versions none.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o /dev/null -mllvm -pasta-divergence -mllvm -pasta-div-stats 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence -mllvm -pasta-div-versioned-loops=0 2>/dev/null | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: .visible .entry _Z11strided_sumPKfPfi__pasta_div(
// CHECK: redux.sync.min.u32
// The clone: the load, the sum and its trip count; no vote, no add to a
// counter, no other branch.
// CHECK: [[CLONE:\$L__BB[0-9_]+]]:{{.*}}Loop Header
// CHECK-NOT: {{vote|activemask|red\.|atom|bra}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|bra}}
// CHECK: @%p{{[0-9]+}} bra [[CLONE]];
// After it, the measured loop: the latch's vote of the lanes going round.
// CHECK: {{\$L__BB[0-9_]+}}:{{.*}}Loop Header
// CHECK: vote.sync.ballot.b32
// CHECK-LABEL: .visible .entry _Z15consecutive_sumPKfPfi__pasta_div(

// The clone keeps the loop's metadata: `#pragma unroll 1` holds there too.
// CHECK-LABEL: .visible .entry _Z12strided_oncePKfPfi__pasta_div(
// CHECK: redux.sync.min.u32
// CHECK: {{\$L__BB[0-9_]+}}:{{.*}}Loop Header
// CHECK-NEXT: .pragma "nounroll";

// STATS: loops whose full warps' trips run unmeasured: 2{{$}}

// OFF-NOT: redux.sync.min

__global__ void strided_sum(const float *p, float *out, int n) {
  float s = 0.0f;
  for (int b = threadIdx.x; b < n; b += 256)
    s += p[b * 16 + blockIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}

__global__ void consecutive_sum(const float *p, float *out, int n) {
  float s = 0.0f;
  for (int b = threadIdx.x; b < n; b += 256)
    s += p[b];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}

__global__ void strided_once(const float *p, float *out, int n) {
  float s = 0.0f;
#pragma unroll 1
  for (int b = threadIdx.x; b < n; b += 256)
    s += p[b * 16 + blockIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}
