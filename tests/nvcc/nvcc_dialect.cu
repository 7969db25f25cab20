// What nvcc's front end accepts and clang makes an error by default
// (driver/nvcc_command.c, host_compat): the `register` storage class, which
// C++17 removed (older kernels write `register int i`), and a class object
// with a user-written copy constructor passed to a variadic function (a
// logging helper given a struct). pasta-nvcc and the CMake toolchain's
// launcher turn both into warnings, as nvcc's are. Before, clang stopped at
// "ISO C++17 does not allow 'register' storage class specifier" and "cannot
// pass object of non-trivial type". Built by ctests nvcc-dialect (pasta-nvcc,
// compile and link) and nvcc-dialect-cmake (the launcher).
#include <cstdarg>
#include <cstdio>

struct Point {
  int x, y;
  Point(int px, int py) : x(px), y(py) {}
  Point(const Point &o) : x(o.x), y(o.y) {}
};

static void log_values(int count, ...) {
  va_list ap;
  va_start(ap, count);
  va_end(ap);
  printf("logged %d\n", count);
}

__global__ void sum_rows(const int *in, int *out, int width) {
  register int acc = 0;
  for (register int i = 0; i < width; ++i)
    acc += in[threadIdx.x * width + i];
  out[threadIdx.x] = acc;
}

int main(int argc, char **) {
  if (argc > 99)
    log_values(1, Point(1, 2)); // never run: clang's call would abort
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 32 * 4 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  sum_rows<<<1, 32>>>(in, out, 4);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
