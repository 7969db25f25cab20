// The clustering shape of issue [overhead-3] (tests/structures/devfn has
// the counts): a __noinline__ distance called in a loop by every thread,
// a device function calling another, recursion and an indirect call. The
// twins (CallFrames.h) add to the kernel's frame with local loads and
// stores: no warp vote, no warp sum, no atomic per call; the kernels flush
// once per thread. ptxas accepts the result.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -g -S %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o /dev/null
// Without frames, dist flushes at its return (a `red` per warp and counter).
// RUN: env PASTA_CALL_FRAMES=0 %cuda_device -O2 -g -S %s -o %t.off.ptx
// RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx
// RUN: %ptxas -arch=sm_90 %t.off.ptx -o /dev/null

__device__ __noinline__ float dist(const float *a, const float *b, int d) {
  float s = 0.0f;
  for (int f = 0; f < d; ++f) {
    float t = a[f] - b[f];
    s += t * t;
  }
  return s;
}

__device__ __noinline__ float leaf(float x) { return x * 0.5f; }
__device__ __noinline__ float twice_leaf(float x) {
  return leaf(x) + leaf(x + 1.0f);
}
__device__ __noinline__ int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }

typedef float (*op_t)(float);
__device__ op_t op = leaf;

__global__ void assign(const float *p, const float *c, int *label, int n,
                       int k, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float best = 3.0e38f;
  int bi = 0;
  for (int j = 0; j < k; ++j) {
    float e = dist(p + i * d, c + j * d, d);
    if (e < best) {
      best = e;
      bi = j;
    }
  }
  label[i] = bi + depth(k) + (int)(twice_leaf(best) + op(best));
}

// CHECK-LABEL: .func {{.*}}_Z4distPKfS0_i__pasta_frame(
// CHECK-NOT: red.
// CHECK-NOT: atom.
// CHECK-NOT: vote.
// CHECK-NOT: redux.
// CHECK: ld.local.b64
// CHECK: st.local.b64
// CHECK: ret;
// CHECK-LABEL: .func {{.*}}_Z4leaff__pasta_frame(
// CHECK: ret;
// CHECK-LABEL: .func {{.*}}_Z10twice_leaff__pasta_frame(
// CHECK-NOT: red.
// CHECK: call.uni {{.*}}_Z4leaff__pasta_frame
// CHECK: ret;
// CHECK-LABEL: .func {{.*}}_Z5depthi__pasta_frame(
// CHECK-NOT: red.
// CHECK: _Z5depthi__pasta_frame
// CHECK: ret;

// OFF-NOT: __pasta_frame
// OFF-LABEL: .func {{.*}}_Z4distPKfS0_i(
// OFF: red.relaxed.gpu.global.add.u64
// OFF: ret;
