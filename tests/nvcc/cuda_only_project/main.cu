// One kernel and its launch (ctest nvcc-cuda-only-project builds it; the
// configure is the check).
#include <cstdio>

__global__ void fill(int *out, int value) { out[threadIdx.x] = value; }

int main() {
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) {
    printf("no GPU\n");
    return 2;
  }
  fill<<<1, 32>>>(d, 7);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  printf("%d\n", h[31]);
  return h[31] == 7 ? 0 : 1;
}
