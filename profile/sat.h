/*===- sat.h - Counts that saturate instead of wrapping -------------------===*
 *
 * Every layer that adds counts (the profile model, the analyzers' tables and
 * pages, pasta-report's merge and diff) stops at 2^64 - 1 rather than wrap.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_SAT_H
#define PASTA_PROFILE_SAT_H

#include <stdint.h>

static inline uint64_t pasta__sat_add(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

#endif
