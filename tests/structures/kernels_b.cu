// add_b: z[i] = x[i] + y[i] for n threads: per launch 2 global loads and 1
// global store of 4 bytes and 1 f32 add per thread.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void add_b(const float *x, const float *y, float *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i];
}

extern "C" int run_b(int n) {
  float *x, *y, *z;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&z, n * sizeof(float));
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 100);
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, n * sizeof(float), cudaMemcpyHostToDevice);
  add_b<<<n / 256, 256>>>(x, y, z, n);
  cudaError_t e = cudaMemcpy(h, z, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess;
  for (int i = 0; i < n && !bad; ++i)
    bad = h[i] != 2.0f * (float)(i % 100);
  free(h);
  cudaFree(x);
  cudaFree(y);
  cudaFree(z);
  return bad;
}
