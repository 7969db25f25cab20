// Host code compiled by nvcc as C++ (no kernels): it uses the CUDA runtime
// API, whose headers nvcc makes available to .cpp files.
#include "kernels.h"

#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main() {
  const size_t n = 1 << 20;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dx = nullptr, *dy = nullptr;
  if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess) {
    std::printf("make_project: no GPU\n");
    return 1;
  }
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  run_saxpy(3.0f, dx, dy, n); // y = 3 * 1 + 2 = 5
  run_scale_twice(dy, n);     // y = 2 * 5 = 10
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : y)
    sum += v;
  long long tsum = run_thrust_sum(n); // 0 + 1 + ... + n-1
  long long want = (long long)n * (long long)(n - 1) / 2;
  int ok = std::fabs(sum - 10.0 * n) < 1e-3 && tsum == want;
  std::printf("make_project: %s sum %.0f thrust %lld\n",
              ok ? "PASSED" : "FAILED", sum, tsum);
  cudaFree(dx);
  cudaFree(dy);
  return ok ? 0 : 1;
}
