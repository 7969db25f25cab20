// Relocatable device code, translation unit 2 of 2 (see rdc_lib.cu).
// Expected: double_it: 1 launch, 128 B loaded, 128 B stored, 32 f32 FLOPs.
#include <cstdio>
#include <cuda_runtime.h>

void launch_add_one(float *x);

__global__ void double_it(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float *d = nullptr, h[32] = {0};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess ||
      cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  launch_add_one(d);
  double_it<<<1, 32>>>(d);
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  cudaFree(d);
  for (int i = 0; i < 32; ++i)
    if (h[i] != 2.0f) {
      std::printf("rdc: FAILED at %d: %g\n", i, h[i]);
      return 1;
    }
  std::printf("rdc: PASSED\n");
  return 0;
}
