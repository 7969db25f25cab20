// The standard math functions in the global namespace for host code, as
// nvcc's CUDA headers give them (they include the C++ <math.h>;
// driver/nvcc_host_compat.h does the same for clang). Shaped like a
// benchmark's host check written for nvcc: a host template that tests the
// CPU reference with isfinite before comparing, without including <math.h>
// or <cmath> itself. Before, host code stopped at "no matching function
// for call to 'isfinite'" (clang's CUDA headers declare device overloads
// only). Built by ctests nvcc-math-globals (pasta-nvcc, compile and link)
// and nvcc-math-globals-cmake (the CMake toolchain's launcher).
#include <cstdio>
#include <cstdlib>

__global__ void halve(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(in[i]))
    out[i] = in[i] * 0.5f;
}

template <typename D, typename T>
static int count_mismatches(const D *device, const T *reference, int n,
                            T tolerance) {
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (!isfinite(reference[i]) || isnan(device[i]) || isinf(device[i]))
      ++bad;
    else if (signbit(reference[i]) != signbit((T)device[i]))
      ++bad;
    else if (fabs(reference[i] - (T)device[i]) > tolerance)
      ++bad;
  }
  return bad;
}

int main() {
  const float device[2] = {1.0f, -2.0f};
  const float ref_f[2] = {1.0f, -2.0f};
  const double ref_d[2] = {1.0, -2.0};
  int bad = count_mismatches(device, ref_f, 2, 1e-6f) +
            count_mismatches(device, ref_d, 2, 1e-12);
  printf("mismatches %d\n", bad);
  return bad == 0 ? 0 : 1;
}
