// Divergence copies of a program shape the bundled suite lacks: function
// templates in a namespace, explicitly instantiated, with a stencil whose
// neighbours are clamped by a conditional (clang turns `i > 0 ? in[i - 1] :
// in[i]` into a load through a select of two pointers: its space is the
// kernel parameter's, and its lanes agree on the condition in all but the
// border warps) and a block reduction through warp_sums[threadIdx.x / 32]
// and warp_sums[threadIdx.x % 32]. Every access of both is lane-shaped
// (__pasta_div_access_lanes); none takes the general path. A third kernel,
// a class template's static member counting keys into shared bins, has a
// scattered atomic outside loops (the bin comes from a loaded key): the
// general helper, not sectored (its alignment stated: PASTA_DIV_ALIGNED,
// 16, in its space), whose figures are added under one test of
// what it returns.
// REQUIRES: cuda
// RUN: env PASTA_DIVERGENCE=1 %cuda_device -O2 -g -S -emit-llvm %s -o - -mllvm -pasta-link-runtime=0 -mllvm -pasta-div-rows32=0 | FileCheck %s

// CHECK-LABEL: define {{.*}} @_ZN3pde6smoothIfEEvPKT_PS1_i__pasta_div(
// CHECK-NOT: call i32 @__pasta_div_access(
// CHECK: %[[U:[0-9]+]] = call i32 @__pasta_div_uniform(
// CHECK-NEXT: %[[AGREE:[0-9]+]] = icmp ne i32 %[[U]], 0
// CHECK-NEXT: %[[W:[0-9]+]] = select i1 %[[AGREE]], i32 %{{[0-9]+}}, i32 0
// CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1, i32 %[[W]],
// CHECK-NOT: call i32 @__pasta_div_access(
// CHECK: call i32 @__pasta_div_uniform(
// CHECK-NOT: call i32 @__pasta_div_access(
// CHECK: ret void

// CHECK-LABEL: define {{.*}} @_ZN3pde9block_sumIfEEvPKT_PS1_i__pasta_div(
// CHECK-NOT: call i32 @__pasta_div_access(
// CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 0, i32 3, i32 1,
// CHECK-NOT: call i32 @__pasta_div_access(
// CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1,
// CHECK-NOT: call i32 @__pasta_div_access(
// CHECK: ret void

// CHECK-LABEL: define {{.*}} @_ZN3pde5tallyIjE5countEPKjPji__pasta_div(
// CHECK: %[[ADDED:[0-9]+]] = call i32 @__pasta_div_access(ptr %{{[0-9a-z.]+}}, i32 4, i32 19, i32 0,
// CHECK-NEXT: %[[ANY:[0-9]+]] = icmp ne i32 %[[ADDED]], 0
// CHECK-NEXT: br i1 %[[ANY]], label %[[ADD:[0-9]+]], label %[[AFTER:[0-9]+]]
// CHECK: [[ADD]]:
// CHECK: call void @__pasta_div_add(
// CHECK: br label %[[AFTER]]
// CHECK: [[AFTER]]:
// CHECK-NEXT: atomicrmw add ptr %
// CHECK: ret void

namespace pde {
template <typename T>
__global__ void smooth(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T left = i > 0 ? in[i - 1] : in[i];
  T right = i < n - 1 ? in[i + 1] : in[i];
  out[i] = (left + in[i] + right) / T(3);
}

template <typename T>
__global__ void block_sum(const T *in, T *out, int n) {
  __shared__ T warp_sums[32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp != 0)
    return;
  v = lane < blockDim.x / 32 ? warp_sums[lane] : T(0);
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0)
    atomicAdd(out, v);
}

template <typename K> struct tally {
  static __global__ void count(const K *keys, K *bins, int n) {
    __shared__ K local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
      atomicAdd(&local[keys[i] & 255], K(1));
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
  }
};

template __global__ void smooth<float>(const float *, float *, int);
template __global__ void block_sum<float>(const float *, float *, int);
template struct tally<unsigned>;
} // namespace pde
