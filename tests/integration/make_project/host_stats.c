/* Host program of the Makefile project, built with PASTA_HOST=1 through
 * pasta-clang. Expected counts, by hand:
 *   is_prime: called once for each n in 1..100 -> 100 calls (25 primes);
 *   collatz_steps: called once for each n in 1..27 -> 27 calls
 *     (27 takes 111 steps, the most below 28);
 *   main: 1 call.
 * is_prime and collatz_steps live in stats.c, another translation unit, so
 * no optimisation can merge or drop the calls (no LTO here). */
#include <stdio.h>

#include "stats.h"

int main(void) {
  int primes = 0;
  for (int n = 1; n <= 100; ++n)
    primes += is_prime(n);
  unsigned longest = 0;
  for (unsigned n = 1; n <= 27; ++n) {
    unsigned s = collatz_steps(n);
    longest = s > longest ? s : longest;
  }
  int ok = primes == 25 && longest == 111;
  printf("host_stats: primes=%d longest=%u %s\n", primes, longest,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
