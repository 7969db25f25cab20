// Host code of tests/nvcc/findcuda_project, compiled by the C++ compiler.
#include <cstdio>

int run_scale(float *host, int n);

int main() {
  float x[256];
  for (int i = 0; i < 256; ++i)
    x[i] = static_cast<float>(i);
  if (run_scale(x, 256) != 0)
    return 1;
  std::printf("x[255] = %g\n", x[255]);
  return x[255] == 510.0f ? 0 : 1;
}
