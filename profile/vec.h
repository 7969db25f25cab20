/*===- vec.h - Growing arrays in the host runtime -------------------------===*
 *
 * Internal to libpasta_rt: room for one more element in an array that
 * doubles (from 16) when full.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_VEC_H
#define PASTA_PROFILE_VEC_H

#include <stddef.h>
#include <stdlib.h>

/* Room for element `num` of `*array` (`*cap` elements of `elem` bytes).
 * Returns 0, or -1 when out of memory (the array is unchanged). */
static inline int pasta__grow_array(void **array, size_t *cap, size_t num,
                                    size_t elem) {
  if (num < *cap)
    return 0;
  size_t grown = *cap ? *cap * 2 : 16;
  void *a = realloc(*array, grown * elem);
  if (!a)
    return -1;
  *array = a;
  *cap = grown;
  return 0;
}

#define GROW(arr, cap, num)                                                    \
  pasta__grow_array((void **)&(arr), &(cap), (num), sizeof *(arr))

#endif
