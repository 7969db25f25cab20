// The CUDA half of nvcc_dialect_host.cpp's program: a kernel and the host
// function that launches it.
#include <cuda_runtime.h>

__global__ void doubled(int *values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    values[i] *= 2;
}

void launch_doubled(int *values, int n) {
  int *device = nullptr;
  if (cudaMalloc(&device, n * sizeof(int)) != cudaSuccess)
    return;
  cudaMemcpy(device, values, n * sizeof(int), cudaMemcpyHostToDevice);
  doubled<<<1, 32>>>(device, n);
  cudaMemcpy(values, device, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(device);
}
