// Two uniform loops one after the other, both versioned whole, the second
// starting from the pointer the first one advanced: the second loop's
// clone test (its row's alignment at the first trip) reads that pointer
// through the first loop's exit phi, which the first loop's clone path
// reaches too. Read directly from the first loop's body, the value no
// longer dominated the test once that path skipped the loop's header:
// invalid IR, which clang's release builds do not verify (its PTX read an
// undefined register). -fverify-intermediate-code makes clang fail on it.
// RUN: %cuda_device -O2 -S %s -o - -fverify-intermediate-code -mllvm -pasta-divergence 2>&1 | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o /dev/null -fverify-intermediate-code -mllvm -pasta-divergence -mllvm -pasta-div-stats 2>&1 | FileCheck %s --check-prefix=STATS
// CHECK-NOT: does not dominate
// CHECK: .entry _Z3twoPKfPfiii__pasta_div(
// STATS-NOT: does not dominate
// STATS: loops whose full warps' trips run unmeasured: 2
// STATS-NOT: does not dominate

__global__ void two(const float *a, float *out, int n, int m, int stride) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = a + tid;
  float s = 0;
#pragma unroll 1
  for (int i = 0; i < 8; i++) {
    s += *p;
    p += stride;
  }
#pragma unroll 1
  for (int j = 0; j < m; j++) {
    s += *p;
    out[j] = s;
  }
  out[tid] = s;
}
