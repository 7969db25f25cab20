/* Host code instrumented with PASTA_HOST=1 pasta-clang -c and put in a
 * static library (libvecops.a) that a program compiled and linked by plain
 * gcc uses (tests/link/check_host_link.sh). main.c calls vec_dot 3 times
 * and vec_scale 2 times, on N = 500 elements:
 *   vec_dot:   3 calls, 3 x 500 x (1 multiply + 1 add) = 3000 f64 FLOPs;
 *   vec_scale: 2 calls, 2 x 500 multiplies = 1000 f32 FLOPs. */
#include "vecops.h"

double vec_dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

void vec_scale(float *x, float k, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= k;
}
