// A uniform loop (every lane takes the same trips: kmeans' feature loop,
// inside its cluster loop) has its block's counts and its accesses'
// figures folded at its preheader, but each trip still tests every fold
// (a step test failed: measure here) and counts its visit for the drain.
// A warp full at the preheader, in one row of 32 lanes, whose row of
// f[j * n + p] starts on a 32-byte boundary in every trip (the first
// trip's row, a step of 4 n bytes a multiple of 32, no index wrapping;
// tested once before the cluster loop, where all of it is known) runs all
// the trips in a clone with nothing measured, adds their count to
// the block's counter once (one red) and leaves to the loop's exit
// (passes/DivergenceVersioned.cpp, versionWholeLoop); other warps run the
// measured loop. -pasta-div-versioned-loops=0 versions none.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o /dev/null -mllvm -pasta-divergence -mllvm -pasta-div-stats 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence -mllvm -pasta-div-versioned-loops=0 2>/dev/null | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: .visible .entry _Z6assignPKfS0_Piiii__pasta_div(
// The row's start tested (lane id times 4 bytes off the address, 31 masked).
// CHECK: mov.u32 %r{{[0-9]+}}, %laneid;
// CHECK: and.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 31;
// CHECK: redux.sync.min.u32
// Once a thread, before the cluster loop (the test's inputs are invariant
// in it), not once per cluster. So are __pasta_div_lanes_trips's loops
// (the feature loop's trips summed where the step is not a multiple of a
// sector: the measured loop's fold).
// CHECK: This Loop Header: Depth=1
// CHECK: Child Loop {{.*}} Depth 3
// The clone: two features a trip (4 loads), nothing measured, its back edge.
// CHECK-NOT: redux.sync.min
// CHECK: [[CLONE:\$L__BB[0-9_]+]]:{{.*}}Parent Loop
// CHECK-NEXT: Inner Loop Header
// CHECK-NOT: {{vote|activemask|red\.|atom|call}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|call}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|call}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|call}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|call}}
// CHECK: bra.uni [[CLONE]];
// Its trips added to the block's counter once, by one lane.
// CHECK-NOT: redux.sync.min
// CHECK: red.relaxed.gpu.global.add.u64
// CHECK-NOT: redux.sync.min
// CHECK-LABEL: .visible .entry _Z6assignPKfS0_Piiii__pasta_divu(

// STATS: loops whose full warps' trips run unmeasured: 1{{$}}

// OFF-NOT: redux.sync.min

__global__ void assign(const float *f, const float *c, int *m, int n, int nc,
                       int nf) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) {
    int best = 0;
    float bd = 3.0e38f;
    for (int k = 0; k < nc; k++) {
      float d = 0.0f;
      for (int j = 0; j < nf; j++) {
        float x = f[j * n + p] - c[k * nf + j];
        d += x * x;
      }
      if (d < bd) {
        bd = d;
        best = k;
      }
    }
    m[p] = best;
  }
}
