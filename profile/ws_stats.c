/*===- ws_stats.c - Statistics of working-set sizes over launches ---------===*
 *
 * The mean comes from an exact 128-bit sum (two 64-bit words, so no
 * compiler extension) divided in long double: no overflow whatever the
 * values, and no rounding accumulated over the values.
 *===----------------------------------------------------------------------===*/
#include "ws_stats.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

uint64_t pasta__ws_percentile_sorted(const uint64_t *sorted, size_t n,
                                     unsigned p) {
  if (p > 100)
    p = 100;
  /* ceil(p * n / 100) without overflowing p * n. */
  size_t rank = (n / 100) * p + ((n % 100) * p + 99) / 100;
  if (rank < 1)
    rank = 1;
  if (rank > n)
    rank = n;
  return sorted[rank - 1];
}

int pasta__ws_stats_compute(const uint64_t *values, size_t n,
                            pasta_ws_stats *out) {
  memset(out, 0, sizeof *out);
  if (n == 0)
    return 0;
  if (n > SIZE_MAX / sizeof(uint64_t))
    return -1;
  uint64_t *sorted = malloc(n * sizeof *sorted);
  if (!sorted)
    return -1;
  memcpy(sorted, values, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, cmp_u64);

  uint64_t hi = 0, lo = 0;
  for (size_t i = 0; i < n; ++i) {
    lo += sorted[i];
    hi += lo < sorted[i]; /* carry */
  }
  long double sum = (long double)hi * 18446744073709551616.0L + lo;

  out->count = n;
  out->min = sorted[0];
  out->max = sorted[n - 1];
  out->mean = (double)(sum / (long double)n);
  out->median = pasta__ws_percentile_sorted(sorted, n, 50);
  out->p90 = pasta__ws_percentile_sorted(sorted, n, 90);
  free(sorted);
  return 0;
}
