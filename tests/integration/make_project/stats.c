/* Called from host_stats.c (another translation unit), so that the call
 * counts cannot be folded away: see host_stats.c for the expected counts. */
#include "stats.h"

int is_prime(int n) {
  if (n < 2)
    return 0;
  for (int d = 2; d * d <= n; ++d)
    if (n % d == 0)
      return 0;
  return 1;
}

unsigned collatz_steps(unsigned n) {
  unsigned steps = 0;
  while (n != 1) {
    n = n % 2 ? 3 * n + 1 : n / 2;
    ++steps;
  }
  return steps;
}
