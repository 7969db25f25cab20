/*===- ws_stats.h - Statistics of working-set sizes over launches ---------===*
 *
 * Count, min, max, mean, median and 90th percentile of a set of working-set
 * sizes (one per kernel launch, in bytes or in blocks: the unit is the
 * caller's). Pure C11 on libc.
 *
 * Percentiles use the nearest-rank method: the p-th percentile of n values
 * is the value at rank ceil(p/100 * n) (1-based) of the sorted values, so it
 * is always one of the values; the median is the 50th percentile by that
 * rule (the lower median for even n).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_WS_STATS_H
#define PASTA_PROFILE_WS_STATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pasta_ws_stats {
  size_t count;      /* number of values */
  uint64_t min, max; /* 0 when count == 0 */
  double mean;       /* sum / count (exact sum); 0 when count == 0 */
  uint64_t median;   /* nearest-rank 50th percentile; 0 when count == 0 */
  uint64_t p90;      /* nearest-rank 90th percentile; 0 when count == 0 */
} pasta_ws_stats;

/* The value at nearest rank ceil(p/100 * n) of `sorted` (ascending, n > 0),
 * for 0 < p <= 100 (p == 0 reads as rank 1). */
uint64_t pasta__ws_percentile_sorted(const uint64_t *sorted, size_t n,
                                     unsigned p);

/* Statistics of values[0..n) (in any order; the function sorts a copy, and
 * `values` may be NULL when n == 0). Returns 0, or -1 when out of memory
 * (then *out is zeroed). */
int pasta__ws_stats_compute(const uint64_t *values, size_t n,
                            pasta_ws_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_PROFILE_WS_STATS_H */
