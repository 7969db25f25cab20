// A kernel that reads no thread index (serial) or whose work is all under
// `threadIdx.x == 0 && blockIdx.x == 0` (guarded) gets a divergence copy
// for blocks of one thread, <kernel>__pasta_div1 (abi.h,
// PASTA_DIV_ONE_LANE_SUFFIX; DivergenceOneLane.cpp): its divergence copy
// with the block 1 x 1 x 1 put in, in which no warp-level instruction is
// left (no vote, shuffle, active mask, redux or match: the copy itself has
// them), and no .maxntid 1 (the host takes that for a stub). A kernel that
// reads the thread index (parallel) gets a stub there: one thread, returns
// at once. -pasta-div-one-lane=0 gives every kernel the stub, and so does a
// copy too costly to compile twice (its uncapped twin a stub:
// -pasta-div-uncapped-max-measures=0 makes every copy so).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence -mllvm -pasta-div-one-lane=0 2>/dev/null | FileCheck %s --check-prefix=OFF
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence -mllvm -pasta-div-uncapped-max-measures=0 2>/dev/null | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: .visible .entry _Z6serialPKiPii__pasta_div(
// CHECK: vote.sync.ballot
// CHECK-LABEL: .visible .entry _Z6serialPKiPii__pasta_div1(
// CHECK-NOT: .maxntid
// CHECK-NOT: {{vote|shfl|activemask|redux|match}}
// CHECK: ld.global
// CHECK-NOT: {{vote|shfl|activemask|redux|match}}
// CHECK: -- End function
// CHECK-LABEL: .visible .entry _Z7guardedPKiPii__pasta_div1(
// CHECK-NOT: .maxntid
// CHECK-NOT: {{vote|shfl|activemask|redux|match}}
// CHECK: ld.global
// CHECK-NOT: {{vote|shfl|activemask|redux|match}}
// CHECK: -- End function
// CHECK-LABEL: .visible .entry _Z8parallelPKiPi__pasta_div1(
// CHECK-NEXT: .param
// CHECK-NEXT: .param
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 1
// CHECK-NOT: ld.global
// CHECK: ret;
// CHECK-NEXT: -- End function

// OFF-LABEL: .visible .entry _Z6serialPKiPii__pasta_div1(
// OFF-NEXT: .param
// OFF-NEXT: .param
// OFF-NEXT: .param
// OFF-NEXT: )
// OFF-NEXT: .maxntid 1
// OFF-NOT: ld.global
// OFF: ret;
// OFF-NEXT: -- End function

__global__ void serial(const int *a, int *out, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k)
    if (a[k] & 1)
      s += a[k];
  *out = s;
}

__global__ void guarded(const int *a, int *out, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    int s = 0;
    for (int k = 0; k < n; ++k)
      s += a[k];
    *out = s;
  }
}

__global__ void parallel(const int *a, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + 1;
}
