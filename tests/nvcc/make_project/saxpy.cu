// A kernel taking a device lambda (nvcc's --extended-lambda).
#include "kernels.h"

template <typename F> __global__ void for_each_index(size_t n, F f) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

void run_saxpy(float a, const float *x, float *y, size_t n) {
  for_each_index<<<(n + 255) / 256, 256>>>(
      n, [=] __device__(size_t i) { y[i] = a * x[i] + y[i]; });
  cudaDeviceSynchronize();
}
