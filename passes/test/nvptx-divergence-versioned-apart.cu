// A uniform loop whose access has a lane stride known only at run time
// (bicg_q's A[i * n + j]: 4 n bytes a lane) is measured in full at every
// trip (the general helper: its distinct bytes, sectors and ideal
// sectors). A warp full at the preheader, in one row of 32 lanes, whose
// lanes' first-trip addresses lie on one line 32 bytes or more apart,
// each aligned to its size (__pasta_ver_lanes_apart: two shuffles), runs
// all the trips in a clone with nothing measured; leaving it, it adds the
// block's trips n (one red) and that access's figures for n trips of 32
// lanes in 32 sectors: 128 n distinct bytes (n << 7), 32 n sectors
// (n << 5), 4 n ideal sectors (n << 2) (passes/DivergenceVersioned.cpp,
// addApartFigures). p[j] (stride 0) adds nothing. With
// -pasta-div-versioned-apart=0 the loop is not versioned (main's copy).
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o /dev/null -mllvm -pasta-divergence -mllvm -pasta-div-stats 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %cuda_device -O2 -S %s -o /dev/null -mllvm -pasta-divergence -mllvm -pasta-div-stats -mllvm -pasta-div-versioned-apart=0 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: .visible .entry _Z6rowdotPKfS0_Pfi__pasta_div(
// The lanes' line: lanes 0 and 1's addresses (two 32-bit halves each).
// CHECK: shfl.sync.idx.b32 {{.*}}, 0, 31,
// CHECK: shfl.sync.idx.b32 {{.*}}, 1, 31,
// CHECK: mov.u32 %r{{[0-9]+}}, %laneid;
// CHECK: redux.sync.min.u32
// The clone: one trip's two loads, nothing measured, its back edge.
// CHECK: [[CLONE:\$L__BB[0-9_]+]]:{{.*}}Loop Header
// CHECK-NOT: {{vote|activemask|red\.|atom|call|shfl}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|call|shfl}}
// CHECK: ld.global.b32
// CHECK-NOT: {{vote|activemask|red\.|atom|call|shfl}}
// CHECK: bra.uni [[CLONE]];
// The block's trips, then A's figures for them.
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: red.relaxed.gpu.global.add.u64
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: shl.b64 [[D:%rd[0-9]+]], [[N:%rd[0-9]+]], 7;
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: red.relaxed.gpu.global.add.u64 [%rd{{[0-9]+}}], [[D]];
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: shl.b64 [[S:%rd[0-9]+]], [[N]], 5;
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: red.relaxed.gpu.global.add.u64 [%rd{{[0-9]+}}], [[S]];
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: shl.b64 [[I:%rd[0-9]+]], [[N]], 2;
// CHECK-NOT: {{vote|activemask|atom|call|shfl}}
// CHECK: red.relaxed.gpu.global.add.u64 [%rd{{[0-9]+}}], [[I]];
// CHECK-LABEL: .visible .entry _Z6rowdotPKfS0_Pfi__pasta_divu(

// STATS: loops whose full warps' trips run unmeasured: 1{{$}}
// OFF: loops whose full warps' trips run unmeasured: 0{{$}}

__global__ void rowdot(const float *A, const float *p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
#pragma unroll 1
    for (int j = 0; j < n; j++)
      sum += A[i * n + j] * p[j];
    q[i] = sum;
  }
}
