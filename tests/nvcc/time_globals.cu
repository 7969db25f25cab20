// The C library's time functions for host code without <time.h> or
// <ctime>, as nvcc's CUDA headers give them (crt/common_functions.h
// includes <time.h> in every CUDA compile; driver/nvcc_host_compat.h does
// the same for clang). Shaped like host code written for nvcc: a seed from
// time(NULL) and a CPU timer from clock(). Before, clang stopped at "use of
// undeclared identifier 'time'" and "no matching function for call to
// 'clock'" (clang declares a device clock() only). Built by ctests
// nvcc-time-globals (pasta-nvcc, compile and link) and
// nvcc-time-globals-cmake (the CMake toolchain's launcher).
#include <cstdio>
#include <cstdlib>

__global__ void fill(int *out, int seed) { out[threadIdx.x] = seed; }

int main() {
  srand(static_cast<unsigned>(time(NULL)));
  clock_t start = clock();
  int *out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  fill<<<1, 32>>>(out, rand());
  cudaDeviceSynchronize();
  cudaFree(out);
  double seconds = static_cast<double>(clock() - start) / CLOCKS_PER_SEC;
  printf("cpu seconds %s\n", seconds >= 0 ? "measured" : "negative");
  return 0;
}
