/* Host-code end-to-end test: counts derived by hand from this source.
 * N = 1000; dot() is called 3 times, scale() twice.
 *   dot:   per call 2 loads of 8 bytes and 1 multiply-add (2 f64 FLOPs) per
 *          element -> calls 3, load bytes 3 * 16 * N = 48000, f64 FLOPs
 *          3 * 2 * N = 6000, no stores.
 *   scale: per call 1 load and 1 store of 4 bytes and 1 f32 multiply per
 *          element -> calls 2, load bytes 2 * 4 * N = 8000, store bytes
 *          8000, f32 FLOPs 2 * N = 2000.
 * Byte and FLOP totals do not depend on vectorisation or unrolling. */
#include <stdio.h>

#define N 1000

__attribute__((noinline)) double dot(const double *x, const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i]; /* DOT_LINE */
  return s;
}

__attribute__((noinline)) void scale(float *v, float a, int n) {
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * a; /* SCALE_LINE */
}

static double xs[N], ys[N];
static float vs[N];

int main(void) {
  for (int i = 0; i < N; ++i) {
    xs[i] = i % 7;
    ys[i] = 0.5;
    vs[i] = (float)(i % 5);
  }
  double t = 0.0;
  for (int r = 0; r < 3; ++r) {
    ys[r] = 0.5; /* a store between calls: dot() must really run 3 times */
    t += dot(xs, ys, N);
  }
  for (int r = 0; r < 2; ++r)
    scale(vs, 0.5f, N);
  /* sum of i % 7 over 0..999 is 2997; dot = 1498.5, three calls 4495.5 */
  if (t != 4495.5 || vs[3] != 0.75f) {
    printf("dot_scale: FAILED t=%g v[3]=%g\n", t, vs[3]);
    return 1;
  }
  printf("dot_scale: PASSED\n");
  return 0;
}
