// ctest nvcc-own-builtin, the other half: a file that calls clang's
// __rdtsc (through x86intrin.h) and defines nothing of that name still
// gets the builtin, whose `(` follows `=`, not a type.
#include <cstdio>
#include <x86intrin.h>

__global__ void mark(int *out) { out[threadIdx.x] = 1; }

int main() {
  unsigned long long first = __rdtsc();
  printf("%d\n", __rdtsc() >= first);
  return 0;
}
