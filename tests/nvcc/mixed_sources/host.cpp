// Host code compiled by nvcc's host compiler in the same command as a .cu
// (`nvcc host.cpp kernel.cu -o app`, as Chai's Makefiles build): the CUDA
// runtime's header, then a C++ header that includes <new>.
#include <cuda_runtime.h>
#include <fstream>
#include <iostream>

int fill_on_gpu(int *out, int n);

int main() {
  int *d = nullptr, h[64] = {0};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess)
    return 2;
  int launched = fill_on_gpu(d, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::cout << (launched == 0 && h[63] == 126 ? "PASSED" : "FAILED") << "\n";
  return 0;
}
