#include <cstdio>

#include "scale.h"

__global__ void add_one_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

int main() {
  const int n = 1024;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof *x) != cudaSuccess) {
    std::fprintf(stderr, "sample: no GPU\n");
    return 1;
  }
  cudaMemset(x, 0, n * sizeof *x);
  add_one_kernel<<<(n + 255) / 256, 256>>>(x, n);
  scale_on_gpu(x, 2.0f, n);
  float host[n];
  cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(x);
  for (int i = 0; i < n; ++i)
    if (host[i] != 2.0f) {
      std::fprintf(stderr, "sample: x[%d] = %g, expected 2\n", i, host[i]);
      return 1;
    }
  std::printf("sample: ok\n");
  return 0;
}
