// Calls the library's kernel (rdc_scale.cu) on 1,024 ones: every element
// must be 2 afterwards. Compiled as C++ (app_cpp) and, through main.cu, as
// CUDA without relocatable device code (app_cu).
#include "kernels.h"

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main() {
  const size_t n = 1024;
  std::vector<float> y(n, 1.0f);
  float *dy = nullptr;
  if (cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess) {
    std::printf("rdc_lib: no GPU\n");
    return 1;
  }
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  run_scale_twice(dy, n);
  cudaError_t e = cudaGetLastError();
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (float v : y)
    wrong += v != 2.0f;
  std::printf("rdc_lib: %s (%zu wrong, %s)\n", wrong ? "FAILED" : "PASSED",
              wrong, cudaGetErrorString(e));
  cudaFree(dy);
  return wrong ? 1 : 0;
}
