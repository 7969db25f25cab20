/* Host tables ranked by cost (issue 46): counts derived by hand.
 *   cheap:  called 100 times, integer arithmetic on its argument only (no
 *           memory access at -O2, no FLOPs): cost 0.
 *   costly: called once, sums N = 1000 doubles: 8000 bytes loaded, 1000 f64
 *           FLOPs: cost 9000, the most expensive function.
 *   unused: never called.
 * By calls cheap would come first; by bytes + FLOPs costly does. The
 * program ends with a "\r" progress line on stderr, without a newline. */
#include <stdio.h>

#define N 1000

__attribute__((noinline)) int cheap(int x) { return x * 3 + 1; }

__attribute__((noinline)) double costly(const double *v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

__attribute__((noinline)) int unused(int x) { return x - 1; }

static double vs[N];

int main(int argc, char **argv) {
  (void)argv;
  int acc = 0;
  for (int i = 0; i < 100; ++i)
    acc = cheap(acc + i);
  for (int i = 0; i < N; ++i)
    vs[i] = i % 3;
  double s = costly(vs, N);
  if (argc > 5)
    acc = unused(acc);
  printf("%d %g\n", acc, s);
  fprintf(stderr, "progress 100%%\r");
  return 0;
}
