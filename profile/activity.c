/*===- activity.c - Names and statistics of the activity model ------------===*/
#include "activity.h"

#include <stdlib.h>

const char *pasta__alloc_kind_name(unsigned kind) {
  static const char *const names[PASTA_NUM_ALLOC_KINDS] = {
      "device", "managed", "host", "pitch", "async"};
  return kind < PASTA_NUM_ALLOC_KINDS ? names[kind] : "?";
}

const char *pasta__copy_kind_name(unsigned kind) {
  static const char *const names[PASTA_NUM_COPY_KINDS] = {"h2h", "h2d", "d2h",
                                                          "d2d", "default"};
  return kind < PASTA_NUM_COPY_KINDS ? names[kind] : "?";
}

int pasta__activity_ws_stats(const pasta_activity *a, pasta_ws_stats *touched,
                             pasta_ws_stats *footprint) {
  size_t n = a->num_ws_launches;
  uint64_t *t = malloc((n ? n : 1) * sizeof *t);
  uint64_t *f = malloc((n ? n : 1) * sizeof *f);
  int rc = -1;
  if (t && f) {
    for (size_t i = 0; i < n; ++i) {
      t[i] = a->ws_launches[i].touched_bytes;
      f[i] = a->ws_launches[i].footprint_bytes;
    }
    rc = pasta__ws_stats_compute(t, n, touched) ||
                 pasta__ws_stats_compute(f, n, footprint)
             ? -1
             : 0;
  }
  free(t);
  free(f);
  return rc;
}
