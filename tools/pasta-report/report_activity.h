/*===- report_activity.h - Merge and diff of a profile's activity sections ===*
 *
 * For pasta-report: the "launches", "memory", "working_set" and "bandwidth"
 * members of JSON profiles (docs/profile-format.md), merged from several
 * profiles into one (the rules are in docs/profile-format.md, "Merged
 * profiles"), or compared kernel by kernel between two. Works on profiles
 * parsed with jansson (activity_read.h), so it is part of pasta-report only:
 * report_activity_merge.c merges, report_activity_diff.c compares, and
 * report_activity.c holds what both use.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_ACTIVITY_H
#define PASTA_TOOLS_REPORT_ACTIVITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pasta/profile.h"
#include "profile/activity_read.h"
#include "profile/bandwidth.h"

/* Merging, one input at a time: pasta-report merge reads, adds and frees
 * each input before it reads the next, so memory grows with the merged
 * kernels, call paths and working-set launches, not with the number of
 * inputs. */
typedef struct pasta_report_merge pasta_report_merge;

/* NULL when out of memory. */
pasta_report_merge *pasta__report_merge_new(void);

/* Adds the sections of one parsed profile (nothing when it has no
 * "launches"); nothing of `root` is kept. first_process is the index, in
 * the merged "merged_from", of the input's first process (its working-set
 * launches are attributed from there). Returns 0, or -1 when out of
 * memory. */
int pasta__report_merge_add(pasta_report_merge *m, json_t *root,
                            size_t first_process);

/* Writes the merged members, each preceded by ",\n" as the runtime writes
 * them; nothing when no input had "launches". `counts` is the merged
 * profile itself: the bandwidth rows' bytes and FLOPs per launch come from
 * its kernels. Returns 0, or -1 when out of memory or on a write error. */
int pasta__report_merge_write(FILE *out, pasta_report_merge *m,
                              const pasta_profile *counts);

void pasta__report_merge_free(pasta_report_merge *m);

/* Tables comparing two profiles: per kernel, launches, GPU time, achieved
 * bandwidth and working set (before, after, after / before), then the
 * memory totals; one line instead when neither profile has launches.
 * Returns 0, or -1 when out of memory or on a write error. */
int pasta__report_diff_activity(FILE *out, json_t *before, json_t *after);

/* Internal to the report_activity*.c files. */

/* Both NULL, or the same string. */
static inline int pasta__same_string(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* A kernel's identity across profiles: its mangled name, or its display
 * name when the runtime saw a kernel that no module registered. */
const char *pasta__activity_kernel_key(const pasta_activity_kernel *k);

/* For each kernel of `r`, its bandwidth row (or NULL). `bw` is the
 * profile's "bandwidth" member. Returns a malloc'd array or NULL. */
const pasta_bw_row **
pasta__activity_rows_by_kernel(const pasta_activity_read *r, json_t *bw);

#endif
