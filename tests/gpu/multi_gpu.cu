// GPU test: each GPU holds its own copy of a module's counters, and PASTA
// must read them all. The same kernel runs on every GPU (at most 8), storing
// N = 4096 ints each: expected, with G GPUs, G launches and G * 16384 global
// store bytes. With one GPU it prints "skipped" and exits 0.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill_device_id(int *out, int n, int id) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = id;
}

int main() {
  const int n = 4096;
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus < 1) {
    std::printf("multi_gpu: FAILED (no GPU)\n");
    return 1;
  }
  if (gpus > 8)
    gpus = 8;
  for (int g = 0; g < gpus; ++g) {
    int *d = nullptr, h[n];
    if (cudaSetDevice(g) != cudaSuccess ||
        cudaMalloc(&d, sizeof h) != cudaSuccess)
      return 2;
    fill_device_id<<<n / 256, 256>>>(d, n, g);
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
      return 2;
    cudaFree(d);
    for (int i = 0; i < n; ++i)
      if (h[i] != g) {
        std::printf("multi_gpu: FAILED on GPU %d\n", g);
        return 1;
      }
  }
  cudaSetDevice(0);
  std::printf("multi_gpu: PASSED gpus=%d\n", gpus);
  return 0;
}
