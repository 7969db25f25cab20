#include "kernels.h"

__device__ float twice(float v); // rdc_twice.cu

__global__ void scale_twice(float *y, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = twice(y[i]);
}

void run_scale_twice(float *y, size_t n) {
  // Spaces inside the chevrons, as some editors write launches (nvcc
  // reads them).
  // clang-format off
  scale_twice << <(n + 255) / 256, 256 >> > (y, n);
  // clang-format on
  cudaDeviceSynchronize();
}
