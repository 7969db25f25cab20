/*===- report_activity.h - Merge and diff of a profile's activity sections -===*
 *
 * For pasta-report: the "launches", "memory", "working_set" and "bandwidth"
 * members of JSON profiles (docs/profile-format.md), merged from several
 * profiles into one (the rules are in docs/profile-format.md, "Merged
 * profiles"), or compared kernel by kernel between two. Works on profiles
 * parsed with jansson (activity_json.h), so it is part of pasta-report only.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_REPORT_ACTIVITY_H
#define PASTA_ANALYZERS_REPORT_ACTIVITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/* Writes the merged members of the profiles roots[0..n), each preceded by
 * ",\n" as the runtime writes them; nothing when no input has "launches".
 * first_process[i] is the index, in the merged "merged_from", of input i's
 * first process (its working-set launches are attributed from there).
 * `counts` is the merged profile itself: the bandwidth rows' bytes and
 * FLOPs per launch come from its kernels. Returns 0, or -1 when out of
 * memory or on a write error. */
int pasta_report_merge_activity(FILE *out, json_t *const *roots, size_t n,
                                const size_t *first_process,
                                const pasta_profile *counts);

/* Tables comparing two profiles: per kernel, launches, GPU time, achieved
 * bandwidth and working set (before, after, after / before), then the
 * memory totals; one line instead when neither profile has launches.
 * Returns 0, or -1 when out of memory or on a write error. */
int pasta_report_diff_activity(FILE *out, json_t *before, json_t *after);

#endif
