// One kernel through FindCUDA's nvcc command (tests/nvcc/findcuda_project).
#include <cuda_runtime.h>

__global__ void scale_by(float *x, float by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= by;
}

int run_scale(float *host, int n) {
  float *dev = nullptr;
  if (cudaMalloc(&dev, n * sizeof(float)) != cudaSuccess)
    return 1;
  cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_by<<<(n + 127) / 128, 128>>>(dev, 2.0f, n);
  cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  return 0;
}
