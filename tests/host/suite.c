/* One test of a test suite per process (tests/run_host_suite.sh): the
 * argument picks the case that runs; `never_case` runs in no process. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static double add_case(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i * 0.5;
  return s;
}

__attribute__((noinline)) static double mul_case(int n) {
  double p = 1;
  for (int i = 1; i <= n; ++i)
    p *= 1.0 + i;
  return p;
}

__attribute__((noinline)) static double never_case(int n) {
  double q = 0;
  for (int i = 0; i < n; ++i)
    q -= i * 0.25;
  return q;
}

/* Read at run time: the compiler cannot fold the cases into constants. */
static volatile int sizes[3] = {100, 10, 3};

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  double r;
  if (strcmp(which, "add") == 0)
    r = add_case(sizes[0]);
  else if (strcmp(which, "mul") == 0)
    r = mul_case(sizes[1]);
  else if (strcmp(which, "never") == 0)
    r = never_case(sizes[2]);
  else {
    fprintf(stderr, "usage: suite add|mul|never\n");
    return 2;
  }
  printf("%s %.3f\n", which, r);
  return 0;
}
