// GPU test of how the host runtime collects counts when a program does not
// return from main. `./exit_paths MODE`:
//   return  - returns from main (the normal path: __pasta_main_exit)
//   exit    - calls exit(0) from a helper function (the atexit path)
//   reset   - calls cudaDeviceReset() before returning (the context, and the
//             counters with it, are gone: PASTA must warn, not crash)
// The kernel stores 1 into each of N = 4096 elements (one store of 4 bytes
// per thread), so the expected profile is: 1 launch, 16384 global store
// bytes. scripts/gpu_check.sh checks the profiles.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fill_ones(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1;
}

static const int N = 4096;

static int run_kernel() {
  int *d = nullptr;
  if (cudaMalloc(&d, N * sizeof(int)) != cudaSuccess)
    return 2;
  fill_ones<<<N / 256, 256>>>(d, N);
  int h[N];
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  cudaFree(d);
  for (int i = 0; i < N; ++i)
    if (h[i] != 1)
      return 1;
  return 0;
}

__attribute__((noinline)) static void leave_through_exit(int status) {
  std::printf("exit_paths: PASSED (exit)\n");
  std::fflush(stdout);
  std::exit(status);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "return";
  int status = run_kernel();
  if (status != 0) {
    std::printf("exit_paths: FAILED (%d)\n", status);
    return status;
  }
  if (std::strcmp(mode, "exit") == 0)
    leave_through_exit(0);
  if (std::strcmp(mode, "reset") == 0)
    cudaDeviceReset();
  std::printf("exit_paths: PASSED (%s)\n", mode);
  return 0;
}
