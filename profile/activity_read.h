/*===- activity_json.h - The profile's activity sections, read back -------===*
 *
 * For pasta-report: turns the "launches", "memory", "working_set" and
 * "bandwidth" members of a JSON profile (docs/profile-format.md) back into a
 * pasta_activity and bandwidth rows, so the runtime's table writers can
 * print them again. Lenient: a missing member reads as 0 or unknown. Uses
 * jansson, so it is part of pasta-report only, never of libpasta_rt.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_ACTIVITY_JSON_H
#define PASTA_ANALYZERS_ACTIVITY_JSON_H

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

/* Integers above INT64_MAX are valid in a profile (counts are unsigned
 * 64-bit) but not in jansson: pasta-report turns such tokens into strings
 * with this prefix before parsing, and the readers here accept them. */
#define PASTA_JSON_BIG_PREFIX "\001u64:"

/* The unsigned integer `key` of `o` (a big one as above); 0 when it is
 * missing, null or negative. */
uint64_t pasta_activity_json_u64(json_t *o, const char *key);

/* Writes `v` as compact JSON (keys in their order in `v`): a string with
 * PASTA_JSON_BIG_PREFIX as the integer it stands for, a real number with
 * the fewest digits that read back as the same double, and every other
 * string escaped as the profile writer does. So a section read by
 * pasta-report is written back with the same values. Returns 0, or -1 on a
 * write error. */
int pasta_json_dump(FILE *out, json_t *v);

/* Returns 0 (r->present says whether there was anything) or -1 when out of
 * memory. Strings point into `root`: keep it alive while using r. */
int pasta_activity_read_json(json_t *root, pasta_activity_read *r);
void pasta_activity_read_free(pasta_activity_read *r);

#endif
