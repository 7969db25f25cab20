/*===- interval_set.c - Sorted sets of disjoint inclusive uint32 intervals ===*/
#include "line_ranges.h"

#include <stdlib.h>
#include <string.h>

/* Index of the first interval whose hi >= x, or s->n if there is none.
 * x is 64-bit so that callers can pass lo - 1 or hi + 1 without wrapping. */
static size_t first_hi_at_least(const pasta_interval_set *s, uint64_t x) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uint64_t)s->v[mid].hi < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int reserve_one_more(pasta_interval_set *s) {
  if (s->n < s->cap)
    return 0;
  size_t cap = s->cap ? s->cap : 4;
  if (s->cap) {
    if (cap > SIZE_MAX / 2)
      return -1;
    cap *= 2;
  }
  if (cap > SIZE_MAX / sizeof(pasta_interval))
    return -1;
  pasta_interval *v = realloc(s->v, cap * sizeof(pasta_interval));
  if (!v)
    return -1;
  s->v = v;
  s->cap = cap;
  return 0;
}

int pasta_interval_set_add(pasta_interval_set *s, uint32_t lo, uint32_t hi) {
  if (!s || lo > hi)
    return -1;
  /* Intervals [i, j) overlap or touch [lo, hi]: hi' >= lo - 1 and
   * lo' <= hi + 1. Everything before i ends below lo - 1; everything from
   * j on starts above hi + 1. */
  size_t i = first_hi_at_least(s, lo == 0 ? 0 : (uint64_t)lo - 1);
  size_t j = i;
  uint32_t mlo = lo, mhi = hi;
  while (j < s->n && (uint64_t)s->v[j].lo <= (uint64_t)hi + 1) {
    if (s->v[j].lo < mlo)
      mlo = s->v[j].lo;
    if (s->v[j].hi > mhi)
      mhi = s->v[j].hi;
    j++;
  }
  if (i == j) {
    if (reserve_one_more(s) != 0)
      return -1;
    memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(pasta_interval));
    s->n++;
  } else if (j - i > 1) {
    memmove(&s->v[i + 1], &s->v[j], (s->n - j) * sizeof(pasta_interval));
    s->n -= j - i - 1;
  }
  s->v[i].lo = mlo;
  s->v[i].hi = mhi;
  return 0;
}

bool pasta_interval_set_overlaps(const pasta_interval_set *s, uint32_t lo,
                                 uint32_t hi) {
  if (!s || s->n == 0 || lo > hi)
    return false;
  size_t i = first_hi_at_least(s, lo);
  return i < s->n && s->v[i].lo <= hi;
}

bool pasta_interval_set_contains(const pasta_interval_set *s, uint32_t line) {
  return pasta_interval_set_overlaps(s, line, line);
}

void pasta_interval_set_free(pasta_interval_set *s) {
  if (!s)
    return;
  free(s->v);
  s->v = NULL;
  s->n = 0;
  s->cap = 0;
}
