// A kernel taking a device lambda (nvcc's --extended-lambda), launched
// from a header (launch.cuh).
#include "kernels.h"
#include "launch.cuh"

void run_saxpy(float a, const float *x, float *y, size_t n) {
  launch_for_each(n, [=] __device__(size_t i) { y[i] = a * x[i] + y[i]; });
  cudaDeviceSynchronize();
}
