/*===- profile_internal.h - Shared by profile.c and profile_module.c ------===*
 *
 * The profile model's own helpers that reading a module's tables
 * (profile_module.c) uses too. Not part of the library's interface.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_INTERNAL_H
#define PASTA_PROFILE_INTERNAL_H

#include "pasta/profile.h"
#include "profile/sat.h"

#include <stddef.h>
#include <stdint.h>

/* `size` bytes the profile owns (freed with it); NULL without memory. */
char *pasta__profile_alloc(pasta_profile *p, size_t size);

/* Grows *array (of `elem` bytes per element) to hold `extra` more. */
int pasta__profile_reserve(void **array, size_t *cap, size_t num, size_t extra,
                           size_t elem);

/* Dynamic totals of one site executed `n` times; its byte entries count per
 * byte of `bytes` instead when the site has a bytes counter (memory
 * operations of run-time length, abi.h). */
void pasta__site_counts(const struct pasta_site *s, uint64_t n,
                        const uint64_t *bytes, const uint64_t *dyn, int resolve,
                        pasta_counts *out);

static inline void profile_div_add(uint64_t dst[PASTA_DIV_NUM],
                                   const uint64_t src[PASTA_DIV_NUM]) {
  for (unsigned i = 0; i < PASTA_DIV_NUM; ++i)
    dst[i] = pasta__sat_add(dst[i], src[i]);
}

#endif
