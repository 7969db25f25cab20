/* A program compiled and linked by plain gcc, without PASTA: it links the
 * instrumented static library libvecops.a and opens the instrumented
 * libplugin.so (argv[1]) with dlopen. The counts are derived in vecops.c
 * and plugin.c. */
#include "vecops.h"

#include <dlfcn.h>
#include <stdio.h>

enum { N = 500, M = 100 };

int main(int argc, char **argv) {
  static double a[N], b[N], x[M];
  static float f[N];
  for (int i = 0; i < N; i++) {
    a[i] = i % 7;
    b[i] = 0.5;
    f[i] = (float)(i % 3);
  }
  for (int i = 0; i < M; i++)
    x[i] = i;
  double d = 0;
  for (int r = 0; r < 3; r++)
    d += vec_dot(a, b, N);
  vec_scale(f, 2.0f, N);
  vec_scale(f, 0.5f, N);
  double fs = 0;
  for (int i = 0; i < N; i++)
    fs += f[i];
  printf("dot %.1f scaled %.1f\n", d, fs);
  if (argc < 2)
    return 0;
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  double (*sum)(const double *, int);
  *(void **)&sum = dlsym(lib, "plugin_sum");
  double s = 0;
  for (int r = 0; r < 4; r++)
    s += sum(x, M);
  printf("plugin %.1f\n", s);
  return 0;
}
