// nvcc's __managed__ globals (driver/nvcc_host_compat.h,
// passes/ManagedVariables.cpp): clang's CUDA mode ignores the attribute,
// so a kernel using one stopped at "reference to __host__ variable in
// __device__ function" (HeCBench logic-rewrite's `__managed__ int P`).
// Host and device code use each global by name and see one variable:
// the host's writes before the launch reach the kernel, the kernel's
// writes are read by the host after it. Built by ctests nvcc-managed
// (pasta-nvcc) and nvcc-managed-cmake (the CMake toolchain's launcher),
// compile only; on a GPU it prints its values and exits 0 when they are
// nvcc's (1 otherwise).
#include <cstdio>

__managed__ int counter;
__managed__ int table[4] = {1, 2, 3, 4};
__device__ __managed__ float scale = 2.0f;

__global__ void bump(int n) {
  atomicAdd(&counter, n);
  unsigned i = threadIdx.x;
  if (i < 4)
    table[i] = (int)(table[i] * scale);
}

int main() {
  counter = 5;
  int *third = &table[2];
  bump<<<1, 32>>>(1);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("no GPU\n");
    return 2;
  }
  printf("counter %d table %d %d %d %d third %d\n", counter, table[0], table[1],
         table[2], table[3], *third);
  return counter == 37 && table[0] == 2 && table[3] == 8 && *third == 6 ? 0 : 1;
}
