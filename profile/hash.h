/*===- hash.h - One 64-bit mixer for open-addressing tables ---------------===*
 *
 * The finalizer of MurmurHash3 (its first half): spreads a pointer's or
 * an id's bits over the low bits a power-of-two table masks. host_rt's
 * kernel table (kernels.c) uses it. trace.c's key combiner and the
 * symbolizer's string (FNV-1a) and address hashes are other functions and
 * keep their own: changing them would change where entries sit in their
 * tables, which this restructuring leaves as it was.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_HASH_H
#define PASTA_PROFILE_HASH_H

#include <stdint.h>

static inline uint64_t pasta__hash_u64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

#endif
