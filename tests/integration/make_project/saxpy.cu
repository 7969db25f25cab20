// y = a * x + y on the GPU. Built by the Makefile through pasta-clang++;
// the integration test checks it is instrumented and links (no GPU here).
#include <cstdio>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 16;
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof *x) != cudaSuccess ||
      cudaMalloc(&y, n * sizeof *y) != cudaSuccess) {
    std::fprintf(stderr, "saxpy: no GPU\n");
    return 1;
  }
  cudaMemset(x, 0, n * sizeof *x);
  cudaMemset(y, 0, n * sizeof *y);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  float y0 = -1.0f;
  cudaMemcpy(&y0, y, sizeof y0, cudaMemcpyDeviceToHost);
  cudaFree(x);
  cudaFree(y);
  std::printf("saxpy: %s\n", y0 == 0.0f ? "PASSED" : "FAILED");
  return y0 == 0.0f ? 0 : 1;
}
