/* Trace mode on host code with a known scope structure (checked by
 * tests/check_scopes.py). `scopes R` repeats main's loop R times:
 *
 *   main                        func, 1 execution
 *     loop over r < R           loop, 1 execution, R iterations
 *       conditional r % 2       conditional, R executions
 *         even(r) / odd(r)      func, ceil(R/2) / floor(R/2) executions
 *       tri(6)                  func, R executions
 *         loop over i < 6       loop, R executions, 6R iterations
 *           loop over j < i     loop, 6R executions, 15R iterations
 *       find(a, 4, 8)           func, R executions
 *         loop, left by return  loop, R executions, 2R iterations (the
 *                               third, which returns, never completes)
 *       depth(3)                func, R executions, recursing 3 deeper
 *
 * Built at -O0 so that loops keep the shape of the source. The trace's
 * size must not depend on R (C.A.T.S. de-duplication). */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void even(int r) { sink += r; }
__attribute__((noinline)) void odd(int r) { sink -= r; }

__attribute__((noinline)) long tri(int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      s += j;
  return s;
}

__attribute__((noinline)) int find(const int *a, int n, int key) {
  for (int i = 0; i < n; ++i)
    if (a[i] == key)
      return i;
  return -1;
}

__attribute__((noinline)) int depth(int d) {
  if (d == 0)
    return 0;
  return 1 + depth(d - 1);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  static const int a[4] = {5, 3, 8, 1};
  long total = 0;
  for (int r = 0; r < rounds; ++r) {
    if (r % 2 == 0)
      even(r);
    else
      odd(r);
    total += tri(6) + find(a, 4, 8) + depth(3);
  }
  /* tri(6) = 0+0+1+0+1+2+...: sum over i<6 of i(i-1)/2 = 20; find = 2;
   * depth(3) = 3. */
  if (total != 25L * rounds) {
    printf("scopes: FAILED total=%ld\n", total);
    return 1;
  }
  printf("scopes: PASSED\n");
  return 0;
}
