// -pasta-div-barrier-loads-first moves a run of loads' measurements after
// the run's last load, but the block's shared row tests (fullRow,
// rowOrBasesOff) are made at the first measured group's point. Here a's
// group (its load in the run, its store after the run's end) is measured at
// its own load, before the moved groups: so nothing of the block is moved,
// and the module stays valid (it did not: "Instruction does not dominate
// all uses", %pasta.div.rowslow read before it was set; clang's release
// build does not verify, so its PTX read an undefined predicate).
// REQUIRES: cuda
// RUN: %cuda_device -O3 -S %s -o - -fverify-intermediate-code -mllvm -pasta-divergence 2>&1 | FileCheck %s
// CHECK-NOT: does not dominate
// CHECK: .entry _Z1kPKfPfS1___pasta_div(

__global__ void k(const float *p, float *a, float *out) {
  __shared__ float t[256];
  int x = blockIdx.x * 256 + threadIdx.x;
  t[threadIdx.x] = 1.0f;
  __syncthreads();
  float v = p[x];
  float w = a[x];
  out[x] = v;
  a[x] = w + t[(threadIdx.x + 1) % 256];
}
