// Structure: C++ kernels as libraries write them: a function template in a
// namespace instantiated for two types, a kernel in a nested namespace
// taking a functor, and device lambdas passed through a templated launcher
// (the for_each / parallel_for shape of Kokkos, RAJA and Thrust).
//
// n = 2^16 elements, 256 threads per block (256 blocks), one element per
// thread, every thread in range, each kernel launched once.
//   ns::scale<float>(x, a, n):    x[i] = a * x[i]: 1 load, 1 store of 4
//     bytes, 1 f32 multiply -> load_bytes.global = store_bytes.global =
//     262,144, flops.f32 = 65,536
//   ns::scale<double>(x, a, n):   the same in f64 with 8-byte elements ->
//     load_bytes.global = store_bytes.global = 524,288, flops.f64 = 65,536
//   outer::inner::apply<outer::inner::Offset>(y, f, n): y[i] = y[i] + f.by
//     (f passed by value, a kernel parameter) -> 262,144 / 262,144 bytes,
//     flops.f32 = 65,536
//   for_each_index<lambda #1>(n, f): f(i) is y[i] = x[i] * y[i] with x, y
//     captured -> load_bytes.global = 2 x 262,144 = 524,288, store 262,144,
//     flops.f32 = 65,536
//   for_each_index<lambda #2>(n, f): f(i) is z[i] = 2 * i (an int store,
//     no FLOPs) -> load 0, store 262,144, flops.f32 = 0
// The two lambdas make two instances of one kernel template: two kernel
// entries, told apart only by their lambda's number.
//
// Names: the profile keeps each kernel's mangled name and prints it
// demangled as Nsight Compute does, in LLVM's demangler's spelling
// (llvm-cxxfilt's: the plugin records it at compile time), which numbers
// lambdas 'lambda', 'lambda0', 'lambda1', ...:
//   void ns::scale<float>(float*, float, int)
//   void ns::scale<double>(double*, double, int)
//   void outer::inner::apply<outer::inner::Offset>(float*,
//   outer::inner::Offset, int)
//   void for_each_index<main::'lambda'(int)>(int, main::'lambda'(int))
//   void for_each_index<main::'lambda0'(int)>(int, main::'lambda0'(int))
//
// Results: x = 1, y = 1 at the start; scale<float> by 2 -> x = 2;
// scale<double> by 4 on w = 1 -> 4; apply adds 0.5 -> y = 1.5; lambda #1:
// y = x * y = 3; lambda #2: z[i] = 2 i. Checksum: sum of x, w, y and z =
// n (2 + 4 + 3) + n (n - 1) = 4,295,491,584.
//
// clang-format off
// EXPECT: kernel _ZN2ns5scaleIfEEvPT_S1_i launches=1 load_bytes.global=262144 store_bytes.global=262144 flops.f32=65536 flops.f64=0
// EXPECT: kernel _ZN2ns5scaleIdEEvPT_S1_i launches=1 load_bytes.global=524288 store_bytes.global=524288 flops.f64=65536 flops.f32=0
// EXPECT: kernel _ZN5outer5inner5applyINS0_6OffsetEEEvPfT_i launches=1 load_bytes.global=262144 store_bytes.global=262144 flops.f32=65536
// EXPECT: kernel _Z14for_each_indexIZ4mainEUliE_EviT_ launches=1 load_bytes.global=524288 store_bytes.global=262144 flops.f32=65536
// EXPECT: kernel _Z14for_each_indexIZ4mainEUliE0_EviT_ launches=1 load_bytes.global=0 store_bytes.global=262144 flops.f32=0
// EXPECT: name _ZN2ns5scaleIfEEvPT_S1_i void ns::scale<float>(float*, float, int)
// EXPECT: name _ZN2ns5scaleIdEEvPT_S1_i void ns::scale<double>(double*, double, int)
// EXPECT: name _ZN5outer5inner5applyINS0_6OffsetEEEvPfT_i void outer::inner::apply<outer::inner::Offset>(float*, outer::inner::Offset, int)
// EXPECT: name _Z14for_each_indexIZ4mainEUliE_EviT_ void for_each_index<main::'lambda'(int)>(int, main::'lambda'(int))
// EXPECT: name _Z14for_each_indexIZ4mainEUliE0_EviT_ void for_each_index<main::'lambda0'(int)>(int, main::'lambda0'(int))
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace ns {
template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i];
}
} // namespace ns

namespace outer {
namespace inner {
struct Offset {
  float by;
  __device__ float operator()(float v) const { return v + by; }
};
template <typename F> __global__ void apply(float *y, F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = f(y[i]);
}
} // namespace inner
} // namespace outer

template <typename F> __global__ void for_each_index(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

// The templated launcher: how user code reaches for_each_index.
template <typename F> void parallel_for(int n, F f) {
  for_each_index<<<(n + 255) / 256, 256>>>(n, f);
}

int main() {
  const int n = 1 << 16, grid = n / 256;
  float *x, *y;
  double *w;
  int *z;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&w, n * sizeof(double));
  cudaMalloc(&z, n * sizeof(int));
  std::vector<float> ones(n, 1.0f);
  std::vector<double> ones_d(n, 1.0);
  cudaMemcpy(x, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(w, ones_d.data(), n * sizeof(double), cudaMemcpyHostToDevice);

  ns::scale<float><<<grid, 256>>>(x, 2.0f, n);
  ns::scale<double><<<grid, 256>>>(w, 4.0, n);
  outer::inner::apply<<<grid, 256>>>(y, outer::inner::Offset{0.5f}, n);
  parallel_for(n, [=] __device__(int i) { y[i] = x[i] * y[i]; });
  parallel_for(n, [=] __device__(int i) { z[i] = 2 * i; });

  std::vector<float> hx(n), hy(n);
  std::vector<double> hw(n);
  std::vector<int> hz(n);
  cudaMemcpy(hx.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hw.data(), w, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaError_t e =
      cudaMemcpy(hz.data(), z, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  double sum = 0;
  for (int i = 0; i < n && ok; ++i) {
    ok = hx[i] == 2.0f && hw[i] == 4.0 && hy[i] == 3.0f && hz[i] == 2 * i;
    sum += hx[i] + hw[i] + hy[i] + hz[i];
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(w);
  cudaFree(z);
  std::printf("cxx_names: %s checksum %.0f\n", ok ? "PASSED" : "FAILED", sum);
  return ok ? 0 : 1;
}
