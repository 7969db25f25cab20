/*===- activity_read.h - The profile's activity sections, read back -------===*
 *
 * For pasta-report: turns the "launches", "memory", "working_set" and
 * "bandwidth" members of a JSON profile (docs/profile-format.md) back into a
 * pasta_activity and bandwidth rows, so the runtime's table writers can
 * print them again. Lenient: a missing member reads as 0 or unknown. Uses
 * jansson (json_read.h), so it is part of the tools only, never of
 * libpasta_rt.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_ACTIVITY_READ_H
#define PASTA_PROFILE_ACTIVITY_READ_H

#include <jansson.h>
#include <stdio.h>

#include "activity.h"
#include "bandwidth.h"

typedef struct pasta_activity_read {
  int present; /* the profile had a "launches" member */
  pasta_activity activity;
  pasta_bw_row *rows; /* from "bandwidth" */
  size_t num_rows;
  void **owned; /* what to free; strings stay owned by the json_t */
  size_t num_owned, cap_owned;
} pasta_activity_read;

/* Returns 0 (r->present says whether there was anything) or -1 when out of
 * memory. Strings point into `root`: keep it alive while using r. */
int pasta__activity_read_json(json_t *root, pasta_activity_read *r);
void pasta__activity_read_free(pasta_activity_read *r);

#endif
