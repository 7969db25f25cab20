/* Deep recursion at -O0: an instrumented frame must not grow by more than a
 * few bytes, or recursion the plain build survives overflows the stack
 * (counts in registers took a stack slot each at -O0, 32 -> 80 bytes).
 *   rec(n) calls itself n times: calls = n + 1 (n from argv[1]).
 *   main:  calls 1. */
#include <stdio.h>
#include <stdlib.h>

int rec(int n) { return n ? 1 + rec(n - 1) : 0; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int r = rec(n);
  printf(r == n ? "deep_recursion: PASSED\n" : "deep_recursion: FAILED %d\n",
         r);
  return r == n ? 0 : 1;
}
