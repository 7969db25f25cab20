// Kernels of the program-structure tests (tests/structures/README.md).
// scale_a: y[i] = 2 * x[i] for n threads (n a multiple of 256): per launch
// 1 global load and 1 global store of 4 bytes and 1 f32 multiply per thread.
// read_fault: reads through a null pointer (the "program's own bug").
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale_a(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

__global__ void read_fault(const float *bad, float *out) {
  out[threadIdx.x] = bad[threadIdx.x + (1 << 28)];
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fprintf(stderr, "structures: %s: %s\n", what, cudaGetErrorString(e));
  return e != cudaSuccess;
}

extern "C" int run_a(int n) {
  float *x, *y;
  if (check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc"))
    return 1;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 1000);
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_a<<<n / 256, 256>>>(x, y, n);
  int bad = check(cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost),
                  "scale_a");
  for (int i = 0; i < n && !bad; ++i)
    bad = h[i] != 2.0f * (float)(i % 1000);
  free(h);
  cudaFree(x);
  cudaFree(y);
  return bad;
}

extern "C" int run_fault(void) {
  float *out;
  cudaMalloc(&out, 256 * sizeof(float));
  read_fault<<<1, 256>>>(out, out);
  return check(cudaDeviceSynchronize(), "read_fault");
}
