// ctest nvcc-own-builtin: a CUDA file whose user header defines its own
// __rdtsc (own_builtin.h) builds through pasta-nvcc, as with nvcc; clang
// stopped at "static declaration of '__rdtsc' follows non-static
// declaration". builtin_call.cu checks that a file calling the builtin
// itself keeps it.
#include "own_builtin.h"

#include <cstdio>

__global__ void mark(int *out) { out[threadIdx.x] = 1; }

int main() {
  uint64_t first = __rdtsc();
  uint64_t second = __rdtsc();
  printf("%d\n", second >= first);
  return 0;
}
