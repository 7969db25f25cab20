/* Recursion and early returns: every activation flushes at its own return.
 * fib(n) for n = 15 makes F calls where F(n) = F(n-1) + F(n-2) + 1 with
 * F(0) = F(1) = 1: F(15) = 1973. classify() returns early for negative
 * inputs: called 10 times, 4 of them negative (-4..-1), 6 not (0..5). Only
 * the 6 non-negative calls run its f64 multiply (1 FLOP each). */
#include <stdio.h>

__attribute__((noinline)) int fib(int n) {
  if (n < 2)
    return 1;
  return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) double classify(int v, double w) {
  if (v < 0)
    return -1.0;
  return w * (double)v; /* CLASSIFY_MUL */
}

int main(void) {
  volatile double acc = 0.0;
  for (int v = -4; v < 6; ++v)
    acc = acc + classify(v, 0.5);
  int f = fib(15);
  if (f != 987 || acc != 7.5 - 4.0) {
    printf("recursion: FAILED fib=%d acc=%g\n", f, (double)acc);
    return 1;
  }
  printf("recursion: PASSED\n");
  return 0;
}
