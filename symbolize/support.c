/*===- support.c - The symbolizer's small helpers and interned strings ----===*
 *
 * Growable arrays, sorting, the note a report prints, and one copy of each
 * string a symbolizer hands out (internal.h); below every other
 * file of symbolize/.
 *===----------------------------------------------------------------------===*/
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- Small helpers -----------------------------------------------------===*/

/* Makes room for `need` elements in a growable array; 0 on success. */
int pasta__reserve(void **items, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t n = *cap ? *cap : 16;
  while (n < need)
    n *= 2;
  void *p = realloc(*items, n * size);
  if (!p)
    return -1;
  *items = p;
  *cap = n;
  return 0;
}

size_t pasta__upper_bound(const void *items, size_t n, size_t size,
                          uint64_t target) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint64_t at;
    memcpy(&at, (const char *)items + mid * size, sizeof at);
    if (at <= target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* qsort, which must not be handed the NULL of an empty array. */
void pasta__sort(void *items, size_t n, size_t size,
                 int (*cmp)(const void *, const void *)) {
  if (n > 1)
    qsort(items, n, size, cmp);
}

static uint64_t pasta__hash_bytes(const char *str) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (; *str; ++str)
    h = (h ^ (unsigned char)*str) * 1099511628211u;
  return h;
}

/* The first reason wins: a report prints one note, not a history. */
void pasta__set_note(pasta_symbolizer *s, const char *what,
                     const char *detail) {
  if (s->note[0])
    return;
  snprintf(s->note, sizeof s->note, "%s%s%s", what, detail ? ": " : "",
           detail ? detail : "");
}

/*===-- Interned strings --------------------------------------------------===*/

static int pasta__strings_grow(pasta_symbolizer *s) {
  size_t cap = s->strings_cap ? 2 * s->strings_cap : 256;
  char **t = calloc(cap, sizeof *t);
  if (!t)
    return -1;
  for (size_t i = 0; i < s->strings_cap; ++i) {
    if (!s->strings[i])
      continue;
    size_t j = pasta__hash_bytes(s->strings[i]) & (cap - 1);
    while (t[j])
      j = (j + 1) & (cap - 1);
    t[j] = s->strings[i];
  }
  free(s->strings);
  s->strings = t;
  s->strings_cap = cap;
  return 0;
}

/* One copy of each string, alive until close; NULL when out of memory. */
const char *pasta__intern(pasta_symbolizer *s, const char *str) {
  if (!str)
    return NULL;
  if (2 * (s->nstrings + 1) > s->strings_cap && pasta__strings_grow(s))
    return NULL;
  size_t mask = s->strings_cap - 1;
  size_t i = pasta__hash_bytes(str) & mask;
  for (; s->strings[i]; i = (i + 1) & mask)
    if (strcmp(s->strings[i], str) == 0)
      return s->strings[i];
  size_t len = strlen(str) + 1;
  char *copy = malloc(len);
  if (!copy)
    return NULL;
  memcpy(copy, str, len);
  s->strings[i] = copy;
  ++s->nstrings;
  return copy;
}
